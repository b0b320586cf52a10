module @jit_arcsinh attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x33xf16>) -> (tensor<4x33xf16> {jax.result_info = "result"}) {
    %0 = chlo.asinh %arg0 : tensor<4x33xf16> -> tensor<4x33xf16>
    return %0 : tensor<4x33xf16>
  }
}
