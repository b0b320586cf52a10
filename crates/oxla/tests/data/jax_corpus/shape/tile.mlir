module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4x5xf32>) -> (tensor<8x15xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [0:1, 0:1, 0:4, 0:5] : (tensor<2x3x4x5xf32>) -> tensor<1x1x4x5xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x1x4x5xf32>) -> tensor<4x5xf32>
    %2 = stablehlo.reshape %1 : (tensor<4x5xf32>) -> tensor<1x4x1x5xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1, 2, 3] : (tensor<1x4x1x5xf32>) -> tensor<2x4x3x5xf32>
    %4 = stablehlo.reshape %3 : (tensor<2x4x3x5xf32>) -> tensor<8x15xf32>
    return %4 : tensor<8x15xf32>
  }
}
