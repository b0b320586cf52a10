module @jit_square attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x9xcomplex<f32>>) -> (tensor<2x9xcomplex<f32>> {jax.result_info = "result"}) {
    %0 = chlo.square %arg0 : tensor<2x9xcomplex<f32>> -> tensor<2x9xcomplex<f32>>
    return %0 : tensor<2x9xcomplex<f32>>
  }
}
