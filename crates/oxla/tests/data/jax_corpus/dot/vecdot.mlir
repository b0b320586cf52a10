module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4x6xf32>) -> (tensor<f32> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [0:1, 0:1, 0:6] : (tensor<3x4x6xf32>) -> tensor<1x1x6xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x1x6xf32>) -> tensor<6xf32>
    %2 = stablehlo.slice %arg0 [1:2, 1:2, 0:6] : (tensor<3x4x6xf32>) -> tensor<1x1x6xf32>
    %3 = stablehlo.reshape %2 : (tensor<1x1x6xf32>) -> tensor<6xf32>
    %4 = stablehlo.dot_general %1, %3, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<6xf32>, tensor<6xf32>) -> tensor<f32>
    return %4 : tensor<f32>
  }
}
