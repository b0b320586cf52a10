module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x12xcomplex<f64>>) -> (tensor<3x12xcomplex<f64>> {jax.result_info = "result"}) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<3x12xcomplex<f64>>) -> tensor<12x3xcomplex<f64>>
    %1 = call @fft(%0) : (tensor<12x3xcomplex<f64>>) -> tensor<12x3xcomplex<f64>>
    %2 = stablehlo.transpose %1, dims = [1, 0] : (tensor<12x3xcomplex<f64>>) -> tensor<3x12xcomplex<f64>>
    return %2 : tensor<3x12xcomplex<f64>>
  }
  func.func private @fft(%arg0: tensor<12x3xcomplex<f64>>) -> tensor<12x3xcomplex<f64>> {
    %0 = stablehlo.fft %arg0, type = IFFT, length = [3] : (tensor<12x3xcomplex<f64>>) -> tensor<12x3xcomplex<f64>>
    return %0 : tensor<12x3xcomplex<f64>>
  }
}
