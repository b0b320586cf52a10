module @jit_reciprocal attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x33xbf16>) -> (tensor<4x33xbf16> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<4x33xbf16>
    %1 = stablehlo.divide %0, %arg0 : tensor<4x33xbf16>
    return %1 : tensor<4x33xbf16>
  }
}
