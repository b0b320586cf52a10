module @jit_abs attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x11xi32>) -> (tensor<3x11xi32> {jax.result_info = "result"}) {
    %0 = stablehlo.abs %arg0 : tensor<3x11xi32>
    return %0 : tensor<3x11xi32>
  }
}
