module @jit_remainder attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x17xf64>, %arg1: tensor<4x17xf64>) -> (tensor<4x17xf64> {jax.result_info = "result"}) {
    %0 = call @remainder(%arg0, %arg1) : (tensor<4x17xf64>, tensor<4x17xf64>) -> tensor<4x17xf64>
    return %0 : tensor<4x17xf64>
  }
  func.func private @remainder(%arg0: tensor<4x17xf64>, %arg1: tensor<4x17xf64>) -> tensor<4x17xf64> {
    %0 = stablehlo.remainder %arg0, %arg1 : tensor<4x17xf64>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<4x17xf64>
    %2 = stablehlo.compare NE, %0, %1, FLOAT : (tensor<4x17xf64>, tensor<4x17xf64>) -> tensor<4x17xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<4x17xf64>
    %4 = stablehlo.compare LT, %0, %3, FLOAT : (tensor<4x17xf64>, tensor<4x17xf64>) -> tensor<4x17xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<4x17xf64>
    %6 = stablehlo.compare LT, %arg1, %5, FLOAT : (tensor<4x17xf64>, tensor<4x17xf64>) -> tensor<4x17xi1>
    %7 = stablehlo.compare NE, %4, %6, UNSIGNED : (tensor<4x17xi1>, tensor<4x17xi1>) -> tensor<4x17xi1>
    %8 = stablehlo.and %7, %2 : tensor<4x17xi1>
    %9 = stablehlo.add %0, %arg1 : tensor<4x17xf64>
    %10 = stablehlo.select %8, %9, %0 : tensor<4x17xi1>, tensor<4x17xf64>
    return %10 : tensor<4x17xf64>
  }
}
