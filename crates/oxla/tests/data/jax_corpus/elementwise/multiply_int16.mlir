module @jit_multiply attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x11xi16>, %arg1: tensor<3x11xi16>) -> (tensor<3x11xi16> {jax.result_info = "result"}) {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<3x11xi16>
    return %0 : tensor<3x11xi16>
  }
}
