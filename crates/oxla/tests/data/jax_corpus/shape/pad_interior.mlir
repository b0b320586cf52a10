module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4x5xf32>) -> (tensor<6x3x10x5xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %0 = stablehlo.pad %arg0, %cst, low = [1, 0, -1, 0], high = [2, 0, 1, 0], interior = [1, 0, 2, 0] : (tensor<2x3x4x5xf32>, tensor<f32>) -> tensor<6x3x10x5xf32>
    return %0 : tensor<6x3x10x5xf32>
  }
}
