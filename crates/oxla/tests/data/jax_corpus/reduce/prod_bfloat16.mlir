module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x7x5xbf16>) -> (tensor<6x7xbf16> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<6x7x5xbf16>
    %1 = stablehlo.multiply %arg0, %0 : tensor<6x7x5xbf16>
    %cst_0 = stablehlo.constant dense<1.007810e+00> : tensor<bf16>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<6x7x5xbf16>
    %3 = stablehlo.add %1, %2 : tensor<6x7x5xbf16>
    %4 = stablehlo.convert %3 : (tensor<6x7x5xbf16>) -> tensor<6x7x5xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%4 init: %cst_1) applies stablehlo.multiply across dimensions = [2] : (tensor<6x7x5xf32>, tensor<f32>) -> tensor<6x7xf32>
    %6 = stablehlo.convert %5 : (tensor<6x7xf32>) -> tensor<6x7xbf16>
    return %6 : tensor<6x7xbf16>
  }
}
