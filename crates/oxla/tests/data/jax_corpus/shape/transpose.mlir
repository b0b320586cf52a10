module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4x5xf32>) -> (tensor<4x2x5x3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.transpose %arg0, dims = [2, 0, 3, 1] : (tensor<2x3x4x5xf32>) -> tensor<4x2x5x3xf32>
    return %0 : tensor<4x2x5x3xf32>
  }
}
