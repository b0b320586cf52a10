module @jit_sinc attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf64>) -> (tensor<20xf64> {jax.result_info = "result"}) {
    %0 = call @sinc(%arg0) : (tensor<20xf64>) -> tensor<20xf64>
    return %0 : tensor<20xf64>
  }
  func.func private @sinc(%arg0: tensor<20xf64>) -> tensor<20xf64> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %1 = stablehlo.compare EQ, %arg0, %0, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %cst_0 = stablehlo.constant dense<3.1415926535897931> : tensor<f64>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %3 = stablehlo.multiply %2, %arg0 : tensor<20xf64>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %4 = call @_where(%1, %cst_1, %3) : (tensor<20xi1>, tensor<f64>, tensor<20xf64>) -> tensor<20xf64>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %5 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %6 = stablehlo.multiply %3, %5 : tensor<20xf64>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %7 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %8 = stablehlo.add %6, %7 : tensor<20xf64>
    %9 = stablehlo.sine %4 : tensor<20xf64>
    %10 = stablehlo.divide %9, %4 : tensor<20xf64>
    %11 = call @_where_0(%1, %8, %10) : (tensor<20xi1>, tensor<20xf64>, tensor<20xf64>) -> tensor<20xf64>
    return %11 : tensor<20xf64>
  }
  func.func private @_where(%arg0: tensor<20xi1>, %arg1: tensor<f64>, %arg2: tensor<20xf64>) -> tensor<20xf64> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %1 = stablehlo.select %arg0, %0, %arg2 : tensor<20xi1>, tensor<20xf64>
    return %1 : tensor<20xf64>
  }
  func.func private @_where_0(%arg0: tensor<20xi1>, %arg1: tensor<20xf64>, %arg2: tensor<20xf64>) -> tensor<20xf64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<20xi1>, tensor<20xf64>
    return %0 : tensor<20xf64>
  }
}
