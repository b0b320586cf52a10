module @jit_adam_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16x3xf32>, %arg3: tensor<3xf32>, %arg4: tensor<10x16xf32>, %arg5: tensor<16xf32>, %arg6: tensor<16x3xf32>, %arg7: tensor<3xf32>, %arg8: tensor<10x16xf32>, %arg9: tensor<16xf32>, %arg10: tensor<16x3xf32>, %arg11: tensor<3xf32>, %arg12: tensor<4x10xf32>, %arg13: tensor<4xi32>) -> (tensor<10x16xf32> {jax.result_info = "result[0][0][0]"}, tensor<16xf32> {jax.result_info = "result[0][0][1]"}, tensor<16x3xf32> {jax.result_info = "result[0][1][0]"}, tensor<3xf32> {jax.result_info = "result[0][1][1]"}, tensor<10x16xf32> {jax.result_info = "result[1][0][0]"}, tensor<16xf32> {jax.result_info = "result[1][0][1]"}, tensor<16x3xf32> {jax.result_info = "result[1][1][0]"}, tensor<3xf32> {jax.result_info = "result[1][1][1]"}, tensor<10x16xf32> {jax.result_info = "result[2][0][0]"}, tensor<16xf32> {jax.result_info = "result[2][0][1]"}, tensor<16x3xf32> {jax.result_info = "result[2][1][0]"}, tensor<3xf32> {jax.result_info = "result[2][1][1]"}) {
    %0 = stablehlo.dot_general %arg12, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x10xf32>, tensor<10x16xf32>) -> tensor<4x16xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<4x16xf32>
    %3 = stablehlo.add %0, %2 : tensor<4x16xf32>
    %4 = stablehlo.tanh %3 : tensor<4x16xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x16xf32>
    %6 = stablehlo.subtract %5, %4 : tensor<4x16xf32>
    %7 = stablehlo.dot_general %4, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<16x3xf32>) -> tensor<4x3xf32>
    %8 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<4x3xf32>
    %10 = stablehlo.add %7, %9 : tensor<4x3xf32>
    %11:3 = call @log_softmax(%10) : (tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x1xf32>)
    %12 = stablehlo.broadcast_in_dim %arg13, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %13:2 = call @take_along_axis(%11#0, %12) : (tensor<4x3xf32>, tensor<4x1xi32>) -> (tensor<4x1xf32>, tensor<4x1x1xi32>)
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.reduce(%13#0 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %15 = stablehlo.divide %14, %cst_1 : tensor<f32>
    %16 = stablehlo.negate %15 : tensor<f32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %17 = stablehlo.negate %cst_2 : tensor<f32>
    %cst_3 = stablehlo.constant dense<4.000000e+00> : tensor<f32>
    %18 = stablehlo.divide %17, %cst_3 : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %20 = call @take_along_axis_0(%13#1, %19) : (tensor<4x1x1xi32>, tensor<4x1xf32>) -> tensor<4x3xf32>
    %21 = call @log_softmax_1(%11#1, %11#2, %20) : (tensor<4x3xf32>, tensor<4x1xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %22 = stablehlo.reduce(%21 init: %cst_4) applies stablehlo.add across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
    %23 = stablehlo.reshape %22 : (tensor<3xf32>) -> tensor<1x3xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.reduce(%23 init: %cst_5) applies stablehlo.add across dimensions = [0] : (tensor<1x3xf32>, tensor<f32>) -> tensor<3xf32>
    %25 = stablehlo.dot_general %21, %4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x3xf32>, tensor<4x16xf32>) -> tensor<3x16xf32>
    %26 = stablehlo.transpose %25, dims = [1, 0] : (tensor<3x16xf32>) -> tensor<16x3xf32>
    %27 = stablehlo.dot_general %21, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x3xf32>, tensor<16x3xf32>) -> tensor<4x16xf32>
    %28 = stablehlo.multiply %27, %6 : tensor<4x16xf32>
    %29 = stablehlo.multiply %28, %4 : tensor<4x16xf32>
    %30 = stablehlo.add %28, %29 : tensor<4x16xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.reduce(%30 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<4x16xf32>, tensor<f32>) -> tensor<16xf32>
    %32 = stablehlo.reshape %31 : (tensor<16xf32>) -> tensor<1x16xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %33 = stablehlo.reduce(%32 init: %cst_7) applies stablehlo.add across dimensions = [0] : (tensor<1x16xf32>, tensor<f32>) -> tensor<16xf32>
    %34 = stablehlo.dot_general %30, %arg12, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x16xf32>, tensor<4x10xf32>) -> tensor<16x10xf32>
    %35 = stablehlo.transpose %34, dims = [1, 0] : (tensor<16x10xf32>) -> tensor<10x16xf32>
    %cst_8 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<10x16xf32>
    %37 = stablehlo.multiply %36, %arg4 : tensor<10x16xf32>
    %cst_9 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<10x16xf32>
    %39 = stablehlo.multiply %38, %35 : tensor<10x16xf32>
    %40 = stablehlo.add %37, %39 : tensor<10x16xf32>
    %cst_10 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %42 = stablehlo.multiply %41, %arg5 : tensor<16xf32>
    %cst_11 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %44 = stablehlo.multiply %43, %33 : tensor<16xf32>
    %45 = stablehlo.add %42, %44 : tensor<16xf32>
    %cst_12 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<16x3xf32>
    %47 = stablehlo.multiply %46, %arg6 : tensor<16x3xf32>
    %cst_13 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<16x3xf32>
    %49 = stablehlo.multiply %48, %26 : tensor<16x3xf32>
    %50 = stablehlo.add %47, %49 : tensor<16x3xf32>
    %cst_14 = stablehlo.constant dense<0.899999976> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %52 = stablehlo.multiply %51, %arg7 : tensor<3xf32>
    %cst_15 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %54 = stablehlo.multiply %53, %24 : tensor<3xf32>
    %55 = stablehlo.add %52, %54 : tensor<3xf32>
    %cst_16 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<10x16xf32>
    %57 = stablehlo.multiply %56, %arg8 : tensor<10x16xf32>
    %cst_17 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<10x16xf32>
    %59 = stablehlo.multiply %58, %35 : tensor<10x16xf32>
    %60 = stablehlo.multiply %59, %35 : tensor<10x16xf32>
    %61 = stablehlo.add %57, %60 : tensor<10x16xf32>
    %cst_18 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %63 = stablehlo.multiply %62, %arg9 : tensor<16xf32>
    %cst_19 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %64 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %65 = stablehlo.multiply %64, %33 : tensor<16xf32>
    %66 = stablehlo.multiply %65, %33 : tensor<16xf32>
    %67 = stablehlo.add %63, %66 : tensor<16xf32>
    %cst_20 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %68 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<16x3xf32>
    %69 = stablehlo.multiply %68, %arg10 : tensor<16x3xf32>
    %cst_21 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<16x3xf32>
    %71 = stablehlo.multiply %70, %26 : tensor<16x3xf32>
    %72 = stablehlo.multiply %71, %26 : tensor<16x3xf32>
    %73 = stablehlo.add %69, %72 : tensor<16x3xf32>
    %cst_22 = stablehlo.constant dense<9.990000e-01> : tensor<f32>
    %74 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %75 = stablehlo.multiply %74, %arg11 : tensor<3xf32>
    %cst_23 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %76 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %77 = stablehlo.multiply %76, %24 : tensor<3xf32>
    %78 = stablehlo.multiply %77, %24 : tensor<3xf32>
    %79 = stablehlo.add %75, %78 : tensor<3xf32>
    %cst_24 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %80 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<10x16xf32>
    %81 = stablehlo.multiply %80, %40 : tensor<10x16xf32>
    %82 = stablehlo.sqrt %61 : tensor<10x16xf32>
    %cst_25 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %83 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<10x16xf32>
    %84 = stablehlo.add %82, %83 : tensor<10x16xf32>
    %85 = stablehlo.divide %81, %84 : tensor<10x16xf32>
    %86 = stablehlo.subtract %arg0, %85 : tensor<10x16xf32>
    %cst_26 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %88 = stablehlo.multiply %87, %45 : tensor<16xf32>
    %89 = stablehlo.sqrt %67 : tensor<16xf32>
    %cst_27 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %90 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %91 = stablehlo.add %89, %90 : tensor<16xf32>
    %92 = stablehlo.divide %88, %91 : tensor<16xf32>
    %93 = stablehlo.subtract %arg1, %92 : tensor<16xf32>
    %cst_28 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %94 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<16x3xf32>
    %95 = stablehlo.multiply %94, %50 : tensor<16x3xf32>
    %96 = stablehlo.sqrt %73 : tensor<16x3xf32>
    %cst_29 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %97 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<16x3xf32>
    %98 = stablehlo.add %96, %97 : tensor<16x3xf32>
    %99 = stablehlo.divide %95, %98 : tensor<16x3xf32>
    %100 = stablehlo.subtract %arg2, %99 : tensor<16x3xf32>
    %cst_30 = stablehlo.constant dense<1.000000e-03> : tensor<f32>
    %101 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %102 = stablehlo.multiply %101, %55 : tensor<3xf32>
    %103 = stablehlo.sqrt %79 : tensor<3xf32>
    %cst_31 = stablehlo.constant dense<9.99999993E-9> : tensor<f32>
    %104 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %105 = stablehlo.add %103, %104 : tensor<3xf32>
    %106 = stablehlo.divide %102, %105 : tensor<3xf32>
    %107 = stablehlo.subtract %arg3, %106 : tensor<3xf32>
    return %86, %93, %100, %107, %40, %45, %50, %55, %61, %67, %73, %79 : tensor<10x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>, tensor<10x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>, tensor<10x16xf32>, tensor<16xf32>, tensor<16x3xf32>, tensor<3xf32>
  }
  func.func private @log_softmax(%arg0: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x1xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<4xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x3xf32>
    %6 = stablehlo.exponential %5 : tensor<4x3xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %9 = stablehlo.log %8 : tensor<4x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<4x3xf32>
    return %11, %6, %8 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x1xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<4x3xf32>, %arg1: tensor<4x1xi32>) -> (tensor<4x1xf32>, tensor<4x1x1xi32>) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x1xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x1xi1>
    %c_0 = stablehlo.constant dense<3> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4x1xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<4x1xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<4x1xi1>, tensor<4x1xi32>
    %5 = stablehlo.reshape %4 : (tensor<4x1xi32>) -> tensor<4x1x1xi32>
    %c_1 = stablehlo.constant dense<2> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4x1x1xi32>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<4x1x1xi32>, tensor<4x1x1xi32>) -> tensor<4x1x1xi1>
    %8 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<4x1x1xi32>
    %10 = stablehlo.compare LE, %5, %9, SIGNED : (tensor<4x1x1xi32>, tensor<4x1x1xi32>) -> tensor<4x1x1xi1>
    %11 = stablehlo.and %7, %10 : tensor<4x1x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.reduce(%11 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<4x1x1xi1>, tensor<i1>) -> tensor<4x1xi1>
    %13 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x3xf32>, tensor<4x1x1xi32>) -> tensor<4x1xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %15 = stablehlo.select %12, %13, %14 : tensor<4x1xi1>, tensor<4x1xf32>
    return %15, %5 : tensor<4x1xf32>, tensor<4x1x1xi32>
  }
  func.func private @take_along_axis_0(%arg0: tensor<4x1x1xi32>, %arg1: tensor<4x1xf32>) -> tensor<4x3xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
    %1 = "stablehlo.scatter"(%0, %arg0, %arg1) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %2 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<4x3xf32>, tensor<4x1x1xi32>, tensor<4x1xf32>) -> tensor<4x3xf32>
    return %1 : tensor<4x3xf32>
  }
  func.func private @log_softmax_1(%arg0: tensor<4x3xf32>, %arg1: tensor<4x1xf32>, %arg2: tensor<4x3xf32>) -> tensor<4x3xf32> {
    %0 = stablehlo.negate %arg2 : tensor<4x3xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
    %2 = stablehlo.reshape %1 : (tensor<4xf32>) -> tensor<4x1xf32>
    %3 = stablehlo.divide %2, %arg1 : tensor<4x1xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%3 init: %cst_0) applies stablehlo.add across dimensions = [1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<4xf32>) -> tensor<4x3xf32>
    %6 = stablehlo.multiply %5, %arg0 : tensor<4x3xf32>
    %7 = stablehlo.add %arg2, %6 : tensor<4x3xf32>
    return %7 : tensor<4x3xf32>
  }
}
