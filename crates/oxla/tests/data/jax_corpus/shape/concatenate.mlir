module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4x5xf32>) -> (tensor<2x3x8x5xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3x4x5xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<2x3x4x5xf32>
    %2 = stablehlo.concatenate %arg0, %1, dim = 2 : (tensor<2x3x4x5xf32>, tensor<2x3x4x5xf32>) -> tensor<2x3x8x5xf32>
    return %2 : tensor<2x3x8x5xf32>
  }
}
