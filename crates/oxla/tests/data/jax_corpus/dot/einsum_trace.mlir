module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4x6xf32>) -> (tensor<3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [0:3, 0:4, 0:4] : (tensor<3x4x6xf32>) -> tensor<3x4x4xf32>
    %1 = stablehlo.iota dim = 0 : tensor<4x4xui32>
    %2 = stablehlo.iota dim = 1 : tensor<4x4xui32>
    %3 = stablehlo.compare EQ, %1, %2, UNSIGNED : (tensor<4x4xui32>, tensor<4x4xui32>) -> tensor<4x4xi1>
    %4 = stablehlo.broadcast_in_dim %3, dims = [1, 2] : (tensor<4x4xi1>) -> tensor<3x4x4xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x4x4xf32>
    %6 = stablehlo.select %4, %0, %5 : tensor<3x4x4xi1>, tensor<3x4x4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_0) applies stablehlo.add across dimensions = [1, 2] : (tensor<3x4x4xf32>, tensor<f32>) -> tensor<3xf32>
    return %7 : tensor<3xf32>
  }
}
