module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x12xcomplex<f32>>) -> (tensor<3x7xcomplex<f32>> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [0:3, 0:7] : (tensor<3x12xcomplex<f32>>) -> tensor<3x7xcomplex<f32>>
    %1 = call @fft(%0) : (tensor<3x7xcomplex<f32>>) -> tensor<3x7xcomplex<f32>>
    return %1 : tensor<3x7xcomplex<f32>>
  }
  func.func private @fft(%arg0: tensor<3x7xcomplex<f32>>) -> tensor<3x7xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [7] : (tensor<3x7xcomplex<f32>>) -> tensor<3x7xcomplex<f32>>
    return %0 : tensor<3x7xcomplex<f32>>
  }
}
