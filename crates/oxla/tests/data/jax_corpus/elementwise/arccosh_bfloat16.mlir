module @jit_arccosh attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x33xbf16>) -> (tensor<4x33xbf16> {jax.result_info = "result"}) {
    %0 = call @arccosh(%arg0) : (tensor<4x33xbf16>) -> tensor<4x33xbf16>
    return %0 : tensor<4x33xbf16>
  }
  func.func private @arccosh(%arg0: tensor<4x33xbf16>) -> tensor<4x33xbf16> {
    %0 = chlo.acosh %arg0 : tensor<4x33xbf16> -> tensor<4x33xbf16>
    return %0 : tensor<4x33xbf16>
  }
}
