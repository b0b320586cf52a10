module @jit_abs attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x11xui16>) -> (tensor<3x11xui16> {jax.result_info = "result"}) {
    return %arg0 : tensor<3x11xui16>
  }
}
