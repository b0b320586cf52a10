module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5x5xcomplex<f32>> {jax.result_info = "result"}) {
    %0 = call @matrix_power(%arg0) : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    return %0 : tensor<2x5x5xcomplex<f32>>
  }
  func.func private @matrix_power(%arg0: tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>> {
    %0 = stablehlo.dot_general %arg0, %arg0, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %1 = stablehlo.dot_general %0, %arg0, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    return %1 : tensor<2x5x5xcomplex<f32>>
  }
}
