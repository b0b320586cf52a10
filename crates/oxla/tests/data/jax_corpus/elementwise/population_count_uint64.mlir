module @jit_population_count attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x11xui64>) -> (tensor<3x11xui64> {jax.result_info = "result"}) {
    %0 = stablehlo.popcnt %arg0 : tensor<3x11xui64>
    return %0 : tensor<3x11xui64>
  }
}
