module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4x5xf32>) -> (tensor<2x2x3x4x5xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.negate %arg0 : tensor<2x3x4x5xf32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2, 3, 4] : (tensor<2x3x4x5xf32>) -> tensor<2x1x3x4x5xf32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 2, 3, 4] : (tensor<2x3x4x5xf32>) -> tensor<2x1x3x4x5xf32>
    %3 = stablehlo.concatenate %1, %2, dim = 1 : (tensor<2x1x3x4x5xf32>, tensor<2x1x3x4x5xf32>) -> tensor<2x2x3x4x5xf32>
    return %3 : tensor<2x2x3x4x5xf32>
  }
}
