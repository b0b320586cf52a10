module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4x6xf32>, %arg1: tensor<3x6x5xf32>) -> (tensor<3x5x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg1, %arg0, batching_dims = [0] x [0], contracting_dims = [1] x [2], precision = [DEFAULT, DEFAULT] : (tensor<3x6x5xf32>, tensor<3x4x6xf32>) -> tensor<3x5x4xf32>
    return %0 : tensor<3x5x4xf32>
  }
}
