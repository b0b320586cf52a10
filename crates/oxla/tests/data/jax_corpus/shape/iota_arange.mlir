module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4x5xf32>) -> (tensor<2x3x4x5xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.iota dim = 0 : tensor<5xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [3] : (tensor<5xf32>) -> tensor<1x1x1x5xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2, 3] : (tensor<1x1x1x5xf32>) -> tensor<2x3x4x5xf32>
    %3 = stablehlo.add %arg0, %2 : tensor<2x3x4x5xf32>
    return %3 : tensor<2x3x4x5xf32>
  }
}
