module @jit_ndtr attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf64>) -> (tensor<20xf64> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.70710678118654757> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %1 = stablehlo.multiply %arg0, %0 : tensor<20xf64>
    %2 = stablehlo.abs %1 : tensor<20xf64>
    %cst_0 = stablehlo.constant dense<0.70710678118654757> : tensor<f64>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %4 = stablehlo.compare LT, %2, %3, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %5 = chlo.erf %1 : tensor<20xf64> -> tensor<20xf64>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %7 = stablehlo.add %6, %5 : tensor<20xf64>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %9 = stablehlo.compare GT, %1, %8, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %10 = chlo.erfc %2 : tensor<20xf64> -> tensor<20xf64>
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %12 = stablehlo.subtract %11, %10 : tensor<20xf64>
    %13 = chlo.erfc %2 : tensor<20xf64> -> tensor<20xf64>
    %14 = stablehlo.select %9, %12, %13 : tensor<20xi1>, tensor<20xf64>
    %15 = stablehlo.select %4, %7, %14 : tensor<20xi1>, tensor<20xf64>
    %cst_4 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %16 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %17 = stablehlo.multiply %16, %15 : tensor<20xf64>
    return %17 : tensor<20xf64>
  }
}
