module @jit_entr attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf64>) -> (tensor<20xf64> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %1 = stablehlo.compare LT, %arg0, %0, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %cst_0 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %3 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %4 = stablehlo.compare NE, %arg0, %3, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %5 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %6 = stablehlo.or %4, %5 : tensor<20xi1>
    %7 = stablehlo.log %arg0 : tensor<20xf64>
    %8 = stablehlo.multiply %arg0, %7 : tensor<20xf64>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %10 = call @_where(%6, %8, %9) : (tensor<20xi1>, tensor<20xf64>, tensor<20xf64>) -> tensor<20xf64>
    %11 = stablehlo.negate %10 : tensor<20xf64>
    %12 = stablehlo.select %1, %2, %11 : tensor<20xi1>, tensor<20xf64>
    return %12 : tensor<20xf64>
  }
  func.func private @_where(%arg0: tensor<20xi1>, %arg1: tensor<20xf64>, %arg2: tensor<20xf64>) -> tensor<20xf64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<20xi1>, tensor<20xf64>
    return %0 : tensor<20xf64>
  }
}
