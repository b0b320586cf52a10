module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5xf32>, %arg1: tensor<4xf32>) -> (tensor<2x4x5xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xf32>) -> tensor<4x5xf32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<5xf32>) -> tensor<4x5xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [1, 2] : (tensor<4x5xf32>) -> tensor<1x4x5xf32>
    %3 = stablehlo.broadcast_in_dim %0, dims = [1, 2] : (tensor<4x5xf32>) -> tensor<1x4x5xf32>
    %4 = stablehlo.concatenate %2, %3, dim = 0 : (tensor<1x4x5xf32>, tensor<1x4x5xf32>) -> tensor<2x4x5xf32>
    return %4 : tensor<2x4x5xf32>
  }
}
