module @jit_bitwise_and attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x11xui8>, %arg1: tensor<3x11xui8>) -> (tensor<3x11xui8> {jax.result_info = "result"}) {
    %0 = stablehlo.and %arg0, %arg1 : tensor<3x11xui8>
    return %0 : tensor<3x11xui8>
  }
}
