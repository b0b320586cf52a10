module @jit_sum attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x7x5xcomplex<f32>>) -> (tensor<complex<f32>> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<6x7x5xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
    return %0 : tensor<complex<f32>>
  }
}
