module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x9xf32>) -> (tensor<4xf32> {jax.result_info = "result"}) {
    %0 = call @median(%arg0) : (tensor<4x9xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @median(%arg0: tensor<4x9xf32>) -> tensor<4xf32> {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %0 = call @quantile(%arg0, %cst) : (tensor<4x9xf32>, tensor<f64>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @quantile(%arg0: tensor<4x9xf32>, %arg1: tensor<f64>) -> tensor<4xf32> {
    %0 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<4x9xf32>, tensor<4x9xf32>) -> tensor<4x9xi1>
    %c = stablehlo.constant dense<false> : tensor<i1>
    %1 = stablehlo.reduce(%0 init: %c) applies stablehlo.or across dimensions = [1] : (tensor<4x9xi1>, tensor<i1>) -> tensor<4xi1>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<4xi1>) -> tensor<4x1xi1>
    %cst = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %3 = call @_where(%2, %cst, %arg0) : (tensor<4x1xi1>, tensor<f64>, tensor<4x9xf32>) -> tensor<4x9xf32>
    %4 = "stablehlo.sort"(%3) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %24 = stablehlo.compare EQ, %arg2, %cst_10, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %25 = stablehlo.select %24, %cst_11, %arg2 : tensor<i1>, tensor<f32>
      %26 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_12 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %27 = stablehlo.select %26, %cst_12, %25 : tensor<i1>, tensor<f32>
      %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %28 = stablehlo.compare EQ, %arg3, %cst_13, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %29 = stablehlo.select %28, %cst_14, %arg3 : tensor<i1>, tensor<f32>
      %30 = stablehlo.compare NE, %arg3, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_15 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %31 = stablehlo.select %30, %cst_15, %29 : tensor<i1>, tensor<f32>
      %32 = stablehlo.compare LT, %27, %31, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %32 : tensor<i1>
    }) : (tensor<4x9xf32>) -> tensor<4x9xf32>
    %cst_0 = stablehlo.constant dense<9.000000e+00> : tensor<f64>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %5 = stablehlo.subtract %cst_0, %cst_1 : tensor<f64>
    %6 = stablehlo.multiply %arg1, %5 : tensor<f64>
    %7 = stablehlo.floor %6 : tensor<f64>
    %8 = stablehlo.ceil %6 : tensor<f64>
    %9 = stablehlo.subtract %6, %7 : tensor<f64>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %10 = stablehlo.subtract %cst_2, %9 : tensor<f64>
    %cst_3 = stablehlo.constant dense<9.000000e+00> : tensor<f64>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %11 = stablehlo.subtract %cst_3, %cst_4 : tensor<f64>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %12 = stablehlo.clamp %cst_5, %7, %11 : tensor<f64>
    %cst_6 = stablehlo.constant dense<9.000000e+00> : tensor<f64>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %13 = stablehlo.subtract %cst_6, %cst_7 : tensor<f64>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %14 = stablehlo.clamp %cst_8, %8, %13 : tensor<f64>
    %15 = stablehlo.convert %12 : (tensor<f64>) -> tensor<i64>
    %16 = stablehlo.convert %14 : (tensor<f64>) -> tensor<i64>
    %17 = stablehlo.broadcast_in_dim %15, dims = [] : (tensor<i64>) -> tensor<1xi64>
    %18 = "stablehlo.gather"(%4, %17) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1]>, indices_are_sorted = false, slice_sizes = array<i64: 4, 1>}> : (tensor<4x9xf32>, tensor<1xi64>) -> tensor<4xf32>
    %19 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<i64>) -> tensor<1xi64>
    %20 = "stablehlo.gather"(%4, %19) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1]>, indices_are_sorted = false, slice_sizes = array<i64: 4, 1>}> : (tensor<4x9xf32>, tensor<1xi64>) -> tensor<4xf32>
    %21 = stablehlo.add %18, %20 : tensor<4xf32>
    %cst_9 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %23 = stablehlo.multiply %21, %22 : tensor<4xf32>
    return %23 : tensor<4xf32>
  }
  func.func private @_where(%arg0: tensor<4x1xi1>, %arg1: tensor<f64>, %arg2: tensor<4x9xf32>) -> tensor<4x9xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<4x1xi1>) -> tensor<4x9xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x9xf32>
    %3 = stablehlo.select %1, %2, %arg2 : tensor<4x9xi1>, tensor<4x9xf32>
    return %3 : tensor<4x9xf32>
  }
}
