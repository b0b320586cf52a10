module @jit_logsumexp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf64>) -> (tensor<f64> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0] : (tensor<20xf64>, tensor<f64>) -> tensor<f64>
    %cst_0 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %1 = stablehlo.maximum %cst_0, %0 : tensor<f64>
    %2 = stablehlo.is_finite %1 : (tensor<f64>) -> tensor<i1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %3 = stablehlo.select %2, %1, %cst_1 : tensor<i1>, tensor<f64>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f64>) -> tensor<1xf64>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<1xf64>) -> tensor<20xf64>
    %6 = stablehlo.subtract %arg0, %5 : tensor<20xf64>
    %7 = stablehlo.exponential %6 : tensor<20xf64>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %8 = stablehlo.reduce(%7 init: %cst_2) applies stablehlo.add across dimensions = [0] : (tensor<20xf64>, tensor<f64>) -> tensor<f64>
    %9 = stablehlo.sign %8 : tensor<f64>
    %10 = stablehlo.abs %8 : tensor<f64>
    %11 = stablehlo.log %10 : tensor<f64>
    %12 = stablehlo.add %11, %3 : tensor<f64>
    return %12 : tensor<f64>
  }
}
