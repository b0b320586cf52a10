module @jit_attention attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x8xf32>, %arg1: tensor<2x5x8xf32>, %arg2: tensor<2x5x8xf32>) -> (tensor<2x5x8xf64> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x5x8xf32>, tensor<2x5x8xf32>) -> tensor<2x5x5xf32>
    %1 = stablehlo.convert %0 : (tensor<2x5x5xf32>) -> tensor<2x5x5xf64>
    %cst = stablehlo.constant dense<2.8284271247461903> : tensor<f64>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %3 = stablehlo.divide %1, %2 : tensor<2x5x5xf64>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<5x5xi1>
    %5 = call @tril(%4) : (tensor<5x5xi1>) -> tensor<5x5xi1>
    %cst_0 = stablehlo.constant dense<-1.000000e+09> : tensor<f64>
    %6 = call @_where(%5, %3, %cst_0) : (tensor<5x5xi1>, tensor<2x5x5xf64>, tensor<f64>) -> tensor<2x5x5xf64>
    %cst_1 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.maximum across dimensions = [2] : (tensor<2x5x5xf64>, tensor<f64>) -> tensor<2x5xf64>
    %cst_2 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<2x5xf64>
    %9 = stablehlo.maximum %8, %7 : tensor<2x5xf64>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<2x5xf64>) -> tensor<2x5x1xf64>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<2x5x1xf64>) -> tensor<2x5x5xf64>
    %12 = stablehlo.subtract %6, %11 : tensor<2x5x5xf64>
    %13 = stablehlo.exponential %12 : tensor<2x5x5xf64>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %14 = stablehlo.reduce(%13 init: %cst_3) applies stablehlo.add across dimensions = [2] : (tensor<2x5x5xf64>, tensor<f64>) -> tensor<2x5xf64>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<2x5xf64>) -> tensor<2x5x1xf64>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1, 2] : (tensor<2x5x1xf64>) -> tensor<2x5x5xf64>
    %17 = stablehlo.divide %13, %16 : tensor<2x5x5xf64>
    %18 = stablehlo.convert %17 : tensor<2x5x5xf64>
    %19 = stablehlo.convert %arg2 : (tensor<2x5x8xf32>) -> tensor<2x5x8xf64>
    %20 = stablehlo.dot_general %18, %19, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xf64>, tensor<2x5x8xf64>) -> tensor<2x5x8xf64>
    return %20 : tensor<2x5x8xf64>
  }
  func.func private @tril(%arg0: tensor<5x5xi1>) -> tensor<5x5xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %2 = stablehlo.add %0, %1 : tensor<5x5xi64>
    %3 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<5x5xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<5x5xi1>, tensor<5x5xi1>
    return %6 : tensor<5x5xi1>
  }
  func.func private @_where(%arg0: tensor<5x5xi1>, %arg1: tensor<2x5x5xf64>, %arg2: tensor<f64>) -> tensor<2x5x5xf64> {
    %0 = stablehlo.convert %arg2 : tensor<f64>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<5x5xi1>) -> tensor<2x5x5xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    return %3 : tensor<2x5x5xf64>
  }
}
