module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4x5xf32>) -> (tensor<2x7x4x5xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [0:2, 0:1, 0:4, 0:5] : (tensor<2x3x4x5xf32>) -> tensor<2x1x4x5xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1, 2, 3] : (tensor<2x1x4x5xf32>) -> tensor<2x7x4x5xf32>
    return %1 : tensor<2x7x4x5xf32>
  }
}
