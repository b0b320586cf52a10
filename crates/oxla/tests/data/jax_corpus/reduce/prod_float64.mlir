module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x7x5xf64>) -> (tensor<6x7xf64> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<6x7x5xf64>
    %1 = stablehlo.multiply %arg0, %0 : tensor<6x7x5xf64>
    %cst_0 = stablehlo.constant dense<1.010000e+00> : tensor<f64>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<6x7x5xf64>
    %3 = stablehlo.add %1, %2 : tensor<6x7x5xf64>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %4 = stablehlo.reduce(%3 init: %cst_1) applies stablehlo.multiply across dimensions = [2] : (tensor<6x7x5xf64>, tensor<f64>) -> tensor<6x7xf64>
    return %4 : tensor<6x7xf64>
  }
}
