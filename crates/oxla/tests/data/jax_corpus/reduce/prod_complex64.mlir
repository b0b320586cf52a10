module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x7x5xcomplex<f32>>) -> (tensor<6x7xcomplex<f32>> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<6x7x5xcomplex<f32>>
    %1 = stablehlo.multiply %arg0, %0 : tensor<6x7x5xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<(1.010000e+00,0.000000e+00)> : tensor<complex<f32>>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f32>>) -> tensor<6x7x5xcomplex<f32>>
    %3 = stablehlo.add %1, %2 : tensor<6x7x5xcomplex<f32>>
    %cst_1 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %4 = stablehlo.reduce(%3 init: %cst_1) applies stablehlo.multiply across dimensions = [2] : (tensor<6x7x5xcomplex<f32>>, tensor<complex<f32>>) -> tensor<6x7xcomplex<f32>>
    return %4 : tensor<6x7xcomplex<f32>>
  }
}
