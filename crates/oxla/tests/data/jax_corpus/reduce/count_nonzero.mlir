module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x33xf32>) -> (tensor<8xi64> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x33xf32>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<8x33xf32>, tensor<8x33xf32>) -> tensor<8x33xi1>
    %2 = call @count_nonzero(%1) : (tensor<8x33xi1>) -> tensor<8xi64>
    return %2 : tensor<8xi64>
  }
  func.func private @count_nonzero(%arg0: tensor<8x33xi1>) -> tensor<8xi64> {
    %c = stablehlo.constant dense<false> : tensor<i1>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<8x33xi1>
    %1 = stablehlo.compare NE, %arg0, %0, UNSIGNED : (tensor<8x33xi1>, tensor<8x33xi1>) -> tensor<8x33xi1>
    %2 = stablehlo.convert %1 : (tensor<8x33xi1>) -> tensor<8x33xi32>
    %3 = stablehlo.convert %2 : (tensor<8x33xi32>) -> tensor<8x33xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %4 = stablehlo.reduce(%3 init: %c_0) applies stablehlo.add across dimensions = [1] : (tensor<8x33xi64>, tensor<i64>) -> tensor<8xi64>
    return %4 : tensor<8xi64>
  }
}
