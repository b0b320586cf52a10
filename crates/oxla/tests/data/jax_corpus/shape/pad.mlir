module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4x5xf32>) -> (tensor<3x5x6x5xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = call @_pad(%arg0, %c) : (tensor<2x3x4x5xf32>, tensor<i64>) -> tensor<3x5x6x5xf32>
    return %0 : tensor<3x5x6x5xf32>
  }
  func.func private @_pad(%arg0: tensor<2x3x4x5xf32>, %arg1: tensor<i64>) -> tensor<3x5x6x5xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [0, 2, 1, 0], high = [1, 0, 1, 0], interior = [0, 0, 0, 0] : (tensor<2x3x4x5xf32>, tensor<f32>) -> tensor<3x5x6x5xf32>
    return %1 : tensor<3x5x6x5xf32>
  }
}
