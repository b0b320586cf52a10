module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x16xf64>) -> (tensor<3x16xf64> {jax.result_info = "result"}) {
    %0 = call @fft(%arg0) : (tensor<3x16xf64>) -> tensor<3x9xcomplex<f64>>
    %1 = call @fft_0(%0) : (tensor<3x9xcomplex<f64>>) -> tensor<3x16xf64>
    return %1 : tensor<3x16xf64>
  }
  func.func private @fft(%arg0: tensor<3x16xf64>) -> tensor<3x9xcomplex<f64>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [16] : (tensor<3x16xf64>) -> tensor<3x9xcomplex<f64>>
    return %0 : tensor<3x9xcomplex<f64>>
  }
  func.func private @fft_0(%arg0: tensor<3x9xcomplex<f64>>) -> tensor<3x16xf64> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [16] : (tensor<3x9xcomplex<f64>>) -> tensor<3x16xf64>
    return %0 : tensor<3x16xf64>
  }
}
