module @jit_sigmoid attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x33xbf16>) -> (tensor<4x33xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.negate %arg0 : tensor<4x33xbf16>
    %1 = stablehlo.exponential %0 : tensor<4x33xbf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<4x33xbf16>
    %3 = stablehlo.add %2, %1 : tensor<4x33xbf16>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<4x33xbf16>
    %5 = stablehlo.divide %4, %3 : tensor<4x33xbf16>
    return %5 : tensor<4x33xbf16>
  }
}
