module @jit_reciprocal attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x33xf64>) -> (tensor<4x33xf64> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<4x33xf64>
    %1 = stablehlo.divide %0, %arg0 : tensor<4x33xf64>
    return %1 : tensor<4x33xf64>
  }
}
