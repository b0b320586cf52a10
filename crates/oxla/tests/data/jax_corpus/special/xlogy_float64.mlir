module @jit_xlogy attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf64>, %arg1: tensor<20xf64>) -> (tensor<20xf64> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %1 = stablehlo.compare NE, %arg0, %0, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %2 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %3 = stablehlo.or %1, %2 : tensor<20xi1>
    %4 = stablehlo.log %arg1 : tensor<20xf64>
    %5 = stablehlo.multiply %arg0, %4 : tensor<20xf64>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %7 = call @_where(%3, %5, %6) : (tensor<20xi1>, tensor<20xf64>, tensor<20xf64>) -> tensor<20xf64>
    return %7 : tensor<20xf64>
  }
  func.func private @_where(%arg0: tensor<20xi1>, %arg1: tensor<20xf64>, %arg2: tensor<20xf64>) -> tensor<20xf64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<20xi1>, tensor<20xf64>
    return %0 : tensor<20xf64>
  }
}
