module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10xf32>) -> (tensor<10xf32> {jax.result_info = "result"}) {
    %0 = call @fft(%arg0) : (tensor<10xf32>) -> tensor<10xcomplex<f32>>
    %1 = stablehlo.abs %0 : (tensor<10xcomplex<f32>>) -> tensor<10xf32>
    %2 = call @_roll_static(%1) : (tensor<10xf32>) -> tensor<10xf32>
    return %2 : tensor<10xf32>
  }
  func.func private @fft(%arg0: tensor<10xf32>) -> tensor<10xcomplex<f32>> {
    %0 = stablehlo.convert %arg0 : (tensor<10xf32>) -> tensor<10xcomplex<f32>>
    %1 = stablehlo.fft %0, type = FFT, length = [10] : (tensor<10xcomplex<f32>>) -> tensor<10xcomplex<f32>>
    return %1 : tensor<10xcomplex<f32>>
  }
  func.func private @_roll_static(%arg0: tensor<10xf32>) -> tensor<10xf32> {
    %0 = stablehlo.slice %arg0 [5:10] : (tensor<10xf32>) -> tensor<5xf32>
    %1 = stablehlo.slice %arg0 [0:5] : (tensor<10xf32>) -> tensor<5xf32>
    %2 = stablehlo.concatenate %0, %1, dim = 0 : (tensor<5xf32>, tensor<5xf32>) -> tensor<10xf32>
    return %2 : tensor<10xf32>
  }
}
