module @jit_round attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x33xbf16>) -> (tensor<4x33xbf16> {jax.result_info = "result"}) {
    %0 = call @round(%arg0) : (tensor<4x33xbf16>) -> tensor<4x33xbf16>
    return %0 : tensor<4x33xbf16>
  }
  func.func private @round(%arg0: tensor<4x33xbf16>) -> tensor<4x33xbf16> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<4x33xbf16>
    return %0 : tensor<4x33xbf16>
  }
}
