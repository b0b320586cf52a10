module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xf32>) -> (tensor<5x5xf32> {jax.result_info = "result[0]"}, tensor<5x5xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.slice %arg0 [0:1, 0:5, 0:5] : (tensor<2x5x5xf32>) -> tensor<1x5x5xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x5x5xf32>) -> tensor<5x5xf32>
    %2:2 = call @polar(%1) : (tensor<5x5xf32>) -> (tensor<5x5xf32>, tensor<5x5xf32>)
    return %2#0, %2#1 : tensor<5x5xf32>, tensor<5x5xf32>
  }
  func.func private @polar(%arg0: tensor<5x5xf32>) -> (tensor<5x5xf32>, tensor<5x5xf32>) {
    %0:2 = call @_polar_2d(%arg0) : (tensor<5x5xf32>) -> (tensor<5x5xf32>, tensor<5x5xf32>)
    return %0#0, %0#1 : tensor<5x5xf32>, tensor<5x5xf32>
  }
  func.func private @_polar_2d(%arg0: tensor<5x5xf32>) -> (tensor<5x5xf32>, tensor<5x5xf32>) {
    %0:4 = call @qdwh(%arg0) : (tensor<5x5xf32>) -> (tensor<5x5xf32>, tensor<5x5xf32>, tensor<i64>, tensor<i1>)
    return %0#0, %0#1 : tensor<5x5xf32>, tensor<5x5xf32>
  }
  func.func private @qdwh(%arg0: tensor<5x5xf32>) -> (tensor<5x5xf32>, tensor<5x5xf32>, tensor<i64>, tensor<i1>) {
    %cst = stablehlo.constant dense<[[1.9999615517392721, 52016.457670893942, 0.99996155136969045], [1.9217820851502887, 24.016208769796364, 0.920118285731504]]> : tensor<2x3xf64>
    %cst_0 = stablehlo.constant dense<[[3.7414382875954941, 5.7202775739820115, 0.44326134651331761], [2.6715576806568375, 3.0110110887522445, 0.33394408004792808]]> : tensor<2x3xf64>
    %0 = call @norm(%arg0) : (tensor<5x5xf32>) -> tensor<f32>
    %1 = call @norm_0(%arg0) : (tensor<5x5xf32>) -> tensor<f32>
    %2 = stablehlo.rsqrt %0 : tensor<f32>
    %3 = stablehlo.rsqrt %1 : tensor<f32>
    %4 = stablehlo.multiply %2, %3 : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.compare EQ, %0, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %c = stablehlo.constant dense<1> : tensor<i64>
    %6 = call @_where(%5, %c, %4) : (tensor<i1>, tensor<i64>, tensor<f32>) -> tensor<f32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %8 = stablehlo.multiply %arg0, %7 : tensor<5x5xf32>
    %cst_2 = stablehlo.constant dense<5.9604644775390625E-7> : tensor<f64>
    %9 = stablehlo.cbrt %cst_2 : tensor<f64>
    %10 = stablehlo.convert %cst : (tensor<2x3xf64>) -> tensor<2x3xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %c_4 = stablehlo.constant dense<true> : tensor<i1>
    %c_5 = stablehlo.constant dense<0> : tensor<i64>
    %11:5 = stablehlo.while(%iterArg = %10, %iterArg_13 = %c_5, %iterArg_14 = %c_3, %iterArg_15 = %8, %iterArg_16 = %c_4) : tensor<2x3xf32>, tensor<i64>, tensor<i64>, tensor<5x5xf32>, tensor<i1>
    cond {
      %c_17 = stablehlo.constant dense<2> : tensor<i64>
      %30 = stablehlo.compare LT, %iterArg_13, %c_17, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %30 : tensor<i1>
    } do {
      %30:3 = func.call @closed_call(%iterArg, %iterArg_14, %iterArg_15, %iterArg_16) : (tensor<2x3xf32>, tensor<i64>, tensor<5x5xf32>, tensor<i1>) -> (tensor<i64>, tensor<5x5xf32>, tensor<i1>)
      %c_17 = stablehlo.constant dense<1> : tensor<i64>
      %31 = stablehlo.add %iterArg_13, %c_17 : tensor<i64>
      stablehlo.return %iterArg, %31, %30#0, %30#1, %30#2 : tensor<2x3xf32>, tensor<i64>, tensor<i64>, tensor<5x5xf32>, tensor<i1>
    }
    %12 = stablehlo.convert %cst_0 : (tensor<2x3xf64>) -> tensor<2x3xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i64>
    %c_7 = stablehlo.constant dense<true> : tensor<i1>
    %c_8 = stablehlo.constant dense<0> : tensor<i64>
    %13:6 = stablehlo.while(%iterArg = %12, %iterArg_13 = %9, %iterArg_14 = %c_8, %iterArg_15 = %c_6, %iterArg_16 = %11#3, %iterArg_17 = %c_7) : tensor<2x3xf32>, tensor<f64>, tensor<i64>, tensor<i64>, tensor<5x5xf32>, tensor<i1>
    cond {
      %c_18 = stablehlo.constant dense<2> : tensor<i64>
      %30 = stablehlo.compare LT, %iterArg_14, %c_18, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %30 : tensor<i1>
    } do {
      %30:3 = func.call @closed_call_2(%iterArg, %iterArg_13, %iterArg_15, %iterArg_16, %iterArg_17) : (tensor<2x3xf32>, tensor<f64>, tensor<i64>, tensor<5x5xf32>, tensor<i1>) -> (tensor<i64>, tensor<5x5xf32>, tensor<i1>)
      %c_18 = stablehlo.constant dense<1> : tensor<i64>
      %31 = stablehlo.add %iterArg_14, %c_18 : tensor<i64>
      stablehlo.return %iterArg, %iterArg_13, %31, %30#0, %30#1, %30#2 : tensor<2x3xf32>, tensor<f64>, tensor<i64>, tensor<i64>, tensor<5x5xf32>, tensor<i1>
    }
    %c_9 = stablehlo.constant dense<4> : tensor<i64>
    %14:4 = stablehlo.while(%iterArg = %9, %iterArg_13 = %c_9, %iterArg_14 = %13#4, %iterArg_15 = %13#5) : tensor<f64>, tensor<i64>, tensor<5x5xf32>, tensor<i1>
    cond {
      %c_16 = stablehlo.constant dense<10> : tensor<i64>
      %30 = stablehlo.compare LT, %iterArg_13, %c_16, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      %c_17 = stablehlo.constant dense<false> : tensor<i1>
      %31 = stablehlo.broadcast_in_dim %c_17, dims = [] : (tensor<i1>) -> tensor<i1>
      %32 = stablehlo.compare NE, %30, %31, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %33 = stablehlo.convert %32 : tensor<i1>
      %34 = stablehlo.and %iterArg_15, %33 : tensor<i1>
      stablehlo.return %34 : tensor<i1>
    } do {
      %30 = stablehlo.transpose %iterArg_14, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
      %31 = stablehlo.dot_general %30, %iterArg_14, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xf32>
      %cst_16 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
      %32 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
      %33 = stablehlo.multiply %32, %31 : tensor<5x5xf32>
      %34 = stablehlo.iota dim = 0 : tensor<5x5xi64>
      %35 = stablehlo.iota dim = 1 : tensor<5x5xi64>
      %c_17 = stablehlo.constant dense<0> : tensor<i64>
      %36 = stablehlo.broadcast_in_dim %c_17, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
      %37 = stablehlo.add %34, %36 : tensor<5x5xi64>
      %38 = stablehlo.compare EQ, %37, %35, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
      %39 = stablehlo.convert %38 : (tensor<5x5xi1>) -> tensor<5x5xf32>
      %40 = stablehlo.add %33, %39 : tensor<5x5xf32>
      %41 = stablehlo.iota dim = 0 : tensor<5x5xi64>
      %42 = stablehlo.iota dim = 1 : tensor<5x5xi64>
      %c_18 = stablehlo.constant dense<0> : tensor<i64>
      %43 = stablehlo.broadcast_in_dim %c_18, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
      %44 = stablehlo.add %41, %43 : tensor<5x5xi64>
      %45 = stablehlo.compare EQ, %44, %42, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
      %46 = stablehlo.convert %45 : (tensor<5x5xi1>) -> tensor<5x5xf32>
      %47 = stablehlo.iota dim = 0 : tensor<5x5xi32>
      %c_19 = stablehlo.constant dense<5> : tensor<i32>
      %48 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
      %49 = stablehlo.compare LT, %47, %48, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
      %50 = stablehlo.iota dim = 1 : tensor<5x5xi32>
      %c_20 = stablehlo.constant dense<5> : tensor<i32>
      %51 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
      %52 = stablehlo.compare LT, %50, %51, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
      %53 = stablehlo.and %49, %52 : tensor<5x5xi1>
      %54 = func.call @_where_3(%53, %40, %46) : (tensor<5x5xi1>, tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xf32>
      %55:2 = stablehlo.custom_call @lapack_spotrf_ffi(%54) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<5x5xf32>) -> (tensor<5x5xf32>, tensor<i32>)
      %c_21 = stablehlo.constant dense<0> : tensor<i32>
      %56 = stablehlo.broadcast_in_dim %c_21, dims = [] : (tensor<i32>) -> tensor<i32>
      %57 = stablehlo.compare EQ, %55#1, %56, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %58 = stablehlo.broadcast_in_dim %57, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
      %cst_22 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %59 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
      %60 = stablehlo.broadcast_in_dim %58, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<5x5xi1>
      %61 = stablehlo.select %60, %55#0, %59 : tensor<5x5xi1>, tensor<5x5xf32>
      %62 = stablehlo.iota dim = 0 : tensor<5x5xi64>
      %c_23 = stablehlo.constant dense<0> : tensor<i64>
      %63 = stablehlo.broadcast_in_dim %c_23, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
      %64 = stablehlo.add %62, %63 : tensor<5x5xi64>
      %65 = stablehlo.iota dim = 1 : tensor<5x5xi64>
      %66 = stablehlo.compare GE, %64, %65, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
      %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %67 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
      %68 = stablehlo.select %66, %61, %67 : tensor<5x5xi1>, tensor<5x5xf32>
      %69 = stablehlo.transpose %iterArg_14, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
      %70 = stablehlo.custom_call @lapack_strsm_ffi(%68, %69) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xf32>
      %71 = stablehlo.custom_call @lapack_strsm_ffi(%68, %70) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 84 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xf32>
      %72 = stablehlo.transpose %71, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
      %cst_25 = stablehlo.constant dense<0.333333343> : tensor<f32>
      %73 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
      %74 = stablehlo.multiply %73, %iterArg_14 : tensor<5x5xf32>
      %cst_26 = stablehlo.constant dense<2.66666675> : tensor<f32>
      %75 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
      %76 = stablehlo.multiply %75, %72 : tensor<5x5xf32>
      %77 = stablehlo.add %74, %76 : tensor<5x5xf32>
      %78 = stablehlo.subtract %77, %iterArg_14 : tensor<5x5xf32>
      %79 = func.call @norm_4(%78) : (tensor<5x5xf32>) -> tensor<f32>
      %80 = stablehlo.convert %iterArg : (tensor<f64>) -> tensor<f32>
      %81 = stablehlo.compare GT, %79, %80, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %c_27 = stablehlo.constant dense<1> : tensor<i64>
      %82 = stablehlo.add %iterArg_13, %c_27 : tensor<i64>
      stablehlo.return %iterArg, %82, %77, %81 : tensor<f64>, tensor<i64>, tensor<5x5xf32>, tensor<i1>
    }
    %cst_10 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %16 = stablehlo.multiply %15, %14#2 : tensor<5x5xf32>
    %cst_11 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %18 = stablehlo.multiply %17, %14#2 : tensor<5x5xf32>
    %19 = stablehlo.transpose %14#2, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %20 = stablehlo.dot_general %19, %14#2, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xf32>
    %21 = stablehlo.dot_general %18, %20, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xf32>
    %22 = stablehlo.subtract %16, %21 : tensor<5x5xf32>
    %23 = stablehlo.transpose %22, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %24 = stablehlo.dot_general %23, %arg0, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xf32>
    %25 = stablehlo.transpose %24, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %26 = stablehlo.add %24, %25 : tensor<5x5xf32>
    %cst_12 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %28 = stablehlo.divide %26, %27 : tensor<5x5xf32>
    %29 = stablehlo.not %14#3 : tensor<i1>
    return %22, %28, %14#1, %29 : tensor<5x5xf32>, tensor<5x5xf32>, tensor<i64>, tensor<i1>
  }
  func.func private @norm(%arg0: tensor<5x5xf32>) -> tensor<f32> {
    %0 = stablehlo.abs %arg0 : tensor<5x5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<5x5xf32>, tensor<f32>) -> tensor<5xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.maximum across dimensions = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.maximum %cst_1, %2 : tensor<f32>
    return %3 : tensor<f32>
  }
  func.func private @norm_0(%arg0: tensor<5x5xf32>) -> tensor<f32> {
    %0 = stablehlo.abs %arg0 : tensor<5x5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<5x5xf32>, tensor<f32>) -> tensor<5xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.maximum across dimensions = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.maximum %cst_1, %2 : tensor<f32>
    return %3 : tensor<f32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i64>, %arg2: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<f32>
    %1 = stablehlo.select %arg0, %0, %arg2 : tensor<i1>, tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @closed_call(%arg0: tensor<2x3xf32>, %arg1: tensor<i64>, %arg2: tensor<5x5xf32>, %arg3: tensor<i1>) -> (tensor<i64>, tensor<5x5xf32>, tensor<i1>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg1, %c : tensor<i64>
    %1 = call @dynamic_index_in_dim(%arg0, %arg1) : (tensor<2x3xf32>, tensor<i64>) -> tensor<3xf32>
    %2 = stablehlo.slice %1 [0:1] : (tensor<3xf32>) -> tensor<1xf32>
    %3 = stablehlo.reshape %2 : (tensor<1xf32>) -> tensor<f32>
    %4 = stablehlo.slice %1 [1:2] : (tensor<3xf32>) -> tensor<1xf32>
    %5 = stablehlo.reshape %4 : (tensor<1xf32>) -> tensor<f32>
    %6 = stablehlo.slice %1 [2:3] : (tensor<3xf32>) -> tensor<1xf32>
    %7 = stablehlo.reshape %6 : (tensor<1xf32>) -> tensor<f32>
    %8 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %9 = stablehlo.multiply %8, %arg2 : tensor<5x5xf32>
    %10 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %11 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %12 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %13 = stablehlo.add %10, %12 : tensor<5x5xi64>
    %14 = stablehlo.compare EQ, %13, %11, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %15 = stablehlo.convert %14 : (tensor<5x5xi1>) -> tensor<5x5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.pad %9, %cst, low = [0, 0], high = [5, 0], interior = [0, 0] : (tensor<5x5xf32>, tensor<f32>) -> tensor<10x5xf32>
    %c_1 = stablehlo.constant dense<5> : tensor<i64>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %17 = stablehlo.dynamic_update_slice %16, %15, %c_1, %c_2 : (tensor<10x5xf32>, tensor<5x5xf32>, tensor<i64>, tensor<i64>) -> tensor<10x5xf32>
    %18:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%17) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<10x5xf32>) -> (tensor<10x5xf32>, tensor<5xf32>)
    %19 = stablehlo.custom_call @lapack_sorgqr_ffi(%18#0, %18#1) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<10x5xf32>, tensor<5xf32>) -> tensor<10x5xf32>
    %20 = stablehlo.slice %18#0 [0:5, 0:5] : (tensor<10x5xf32>) -> tensor<5x5xf32>
    %21 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %c_3 = stablehlo.constant dense<-1> : tensor<i64>
    %22 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %23 = stablehlo.add %21, %22 : tensor<5x5xi64>
    %24 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %25 = stablehlo.compare GE, %23, %24, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %27 = stablehlo.select %25, %26, %20 : tensor<5x5xi1>, tensor<5x5xf32>
    %28 = stablehlo.slice %19 [0:5, 0:5] : (tensor<10x5xf32>) -> tensor<5x5xf32>
    %29 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %c_5 = stablehlo.constant dense<5> : tensor<i32>
    %30 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %31 = stablehlo.compare LT, %29, %30, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %32 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %c_6 = stablehlo.constant dense<5> : tensor<i32>
    %33 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %34 = stablehlo.compare LT, %32, %33, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %35 = stablehlo.and %31, %34 : tensor<5x5xi1>
    %c_7 = stablehlo.constant dense<0> : tensor<i64>
    %36 = call @_where_1(%35, %28, %c_7) : (tensor<5x5xi1>, tensor<5x5xf32>, tensor<i64>) -> tensor<5x5xf32>
    %c_8 = stablehlo.constant dense<5> : tensor<i64>
    %c_9 = stablehlo.constant dense<0> : tensor<i64>
    %37 = stablehlo.dynamic_slice %19, %c_8, %c_9, sizes = [5, 5] : (tensor<10x5xf32>, tensor<i64>, tensor<i64>) -> tensor<5x5xf32>
    %38 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %c_10 = stablehlo.constant dense<5> : tensor<i32>
    %39 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %40 = stablehlo.compare LT, %38, %39, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %41 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %c_11 = stablehlo.constant dense<5> : tensor<i32>
    %42 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %43 = stablehlo.compare LT, %41, %42, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %44 = stablehlo.and %40, %43 : tensor<5x5xi1>
    %c_12 = stablehlo.constant dense<0> : tensor<i64>
    %45 = call @_where_1(%44, %37, %c_12) : (tensor<5x5xi1>, tensor<5x5xf32>, tensor<i64>) -> tensor<5x5xf32>
    %46 = stablehlo.transpose %45, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %47 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %48 = stablehlo.multiply %47, %arg2 : tensor<5x5xf32>
    %49 = stablehlo.dot_general %36, %46, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xf32>
    %50 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %51 = stablehlo.multiply %50, %49 : tensor<5x5xf32>
    %52 = stablehlo.add %48, %51 : tensor<5x5xf32>
    %c_13 = stablehlo.constant dense<true> : tensor<i1>
    return %0, %52, %c_13 : tensor<i64>, tensor<5x5xf32>, tensor<i1>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<2x3xf32>, %arg1: tensor<i64>) -> tensor<3xf32> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.compare LT, %arg1, %c, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %1 = stablehlo.convert %arg1 : tensor<i64>
    %c_0 = stablehlo.constant dense<2> : tensor<i64>
    %2 = stablehlo.add %1, %c_0 : tensor<i64>
    %3 = stablehlo.select %0, %2, %arg1 : tensor<i1>, tensor<i64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %4 = stablehlo.dynamic_slice %arg0, %3, %c_1, sizes = [1, 3] : (tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<1x3xf32>
    %5 = stablehlo.reshape %4 : (tensor<1x3xf32>) -> tensor<3xf32>
    return %5 : tensor<3xf32>
  }
  func.func private @_where_1(%arg0: tensor<5x5xi1>, %arg1: tensor<5x5xf32>, %arg2: tensor<i64>) -> tensor<5x5xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<i64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<5x5xi1>, tensor<5x5xf32>
    return %2 : tensor<5x5xf32>
  }
  func.func private @closed_call_2(%arg0: tensor<2x3xf32>, %arg1: tensor<f64>, %arg2: tensor<i64>, %arg3: tensor<5x5xf32>, %arg4: tensor<i1>) -> (tensor<i64>, tensor<5x5xf32>, tensor<i1>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg2, %c : tensor<i64>
    %1 = call @dynamic_index_in_dim(%arg0, %arg2) : (tensor<2x3xf32>, tensor<i64>) -> tensor<3xf32>
    %2 = stablehlo.slice %1 [0:1] : (tensor<3xf32>) -> tensor<1xf32>
    %3 = stablehlo.reshape %2 : (tensor<1xf32>) -> tensor<f32>
    %4 = stablehlo.slice %1 [1:2] : (tensor<3xf32>) -> tensor<1xf32>
    %5 = stablehlo.reshape %4 : (tensor<1xf32>) -> tensor<f32>
    %6 = stablehlo.slice %1 [2:3] : (tensor<3xf32>) -> tensor<1xf32>
    %7 = stablehlo.reshape %6 : (tensor<1xf32>) -> tensor<f32>
    %8 = stablehlo.transpose %arg3, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %9 = stablehlo.dot_general %8, %arg3, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xf32>
    %10 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %11 = stablehlo.multiply %10, %9 : tensor<5x5xf32>
    %12 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %13 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %14 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %15 = stablehlo.add %12, %14 : tensor<5x5xi64>
    %16 = stablehlo.compare EQ, %15, %13, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %17 = stablehlo.convert %16 : (tensor<5x5xi1>) -> tensor<5x5xf32>
    %18 = stablehlo.add %11, %17 : tensor<5x5xf32>
    %19 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %20 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %21 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %22 = stablehlo.add %19, %21 : tensor<5x5xi64>
    %23 = stablehlo.compare EQ, %22, %20, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %24 = stablehlo.convert %23 : (tensor<5x5xi1>) -> tensor<5x5xf32>
    %25 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %c_2 = stablehlo.constant dense<5> : tensor<i32>
    %26 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %27 = stablehlo.compare LT, %25, %26, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %28 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %c_3 = stablehlo.constant dense<5> : tensor<i32>
    %29 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %30 = stablehlo.compare LT, %28, %29, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %31 = stablehlo.and %27, %30 : tensor<5x5xi1>
    %32 = call @_where_3(%31, %18, %24) : (tensor<5x5xi1>, tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xf32>
    %33:2 = stablehlo.custom_call @lapack_spotrf_ffi(%32) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<5x5xf32>) -> (tensor<5x5xf32>, tensor<i32>)
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %34 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<i32>
    %35 = stablehlo.compare EQ, %33#1, %34, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %36 = stablehlo.broadcast_in_dim %35, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %38 = stablehlo.broadcast_in_dim %36, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<5x5xi1>
    %39 = stablehlo.select %38, %33#0, %37 : tensor<5x5xi1>, tensor<5x5xf32>
    %40 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %c_5 = stablehlo.constant dense<0> : tensor<i64>
    %41 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %42 = stablehlo.add %40, %41 : tensor<5x5xi64>
    %43 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %44 = stablehlo.compare GE, %42, %43, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %46 = stablehlo.select %44, %39, %45 : tensor<5x5xi1>, tensor<5x5xf32>
    %47 = stablehlo.transpose %arg3, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %48 = stablehlo.custom_call @lapack_strsm_ffi(%46, %47) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xf32>
    %49 = stablehlo.custom_call @lapack_strsm_ffi(%46, %48) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 84 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<5x5xf32>, tensor<5x5xf32>) -> tensor<5x5xf32>
    %50 = stablehlo.transpose %49, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %51 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %52 = stablehlo.multiply %51, %arg3 : tensor<5x5xf32>
    %53 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %54 = stablehlo.multiply %53, %50 : tensor<5x5xf32>
    %55 = stablehlo.add %52, %54 : tensor<5x5xf32>
    %56 = stablehlo.subtract %55, %arg3 : tensor<5x5xf32>
    %57 = call @norm_4(%56) : (tensor<5x5xf32>) -> tensor<f32>
    %58 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<f32>
    %59 = stablehlo.compare GT, %57, %58, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    return %0, %55, %59 : tensor<i64>, tensor<5x5xf32>, tensor<i1>
  }
  func.func private @_where_3(%arg0: tensor<5x5xi1>, %arg1: tensor<5x5xf32>, %arg2: tensor<5x5xf32>) -> tensor<5x5xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<5x5xi1>, tensor<5x5xf32>
    return %0 : tensor<5x5xf32>
  }
  func.func private @norm_4(%arg0: tensor<5x5xf32>) -> tensor<f32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<5x5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<5x5xf32>, tensor<f32>) -> tensor<f32>
    %2 = stablehlo.sqrt %1 : tensor<f32>
    return %2 : tensor<f32>
  }
}
