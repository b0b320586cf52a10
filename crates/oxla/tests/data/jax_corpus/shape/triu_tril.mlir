module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x5xf32>) -> (tensor<4x5xf32> {jax.result_info = "result[0]"}, tensor<4x5xf32> {jax.result_info = "result[1]"}) {
    %0 = call @triu(%arg0) : (tensor<4x5xf32>) -> tensor<4x5xf32>
    %1 = call @tril(%arg0) : (tensor<4x5xf32>) -> tensor<4x5xf32>
    return %0, %1 : tensor<4x5xf32>, tensor<4x5xf32>
  }
  func.func private @triu(%arg0: tensor<4x5xf32>) -> tensor<4x5xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<4x5xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<4x5xi64>
    %2 = stablehlo.add %0, %1 : tensor<4x5xi64>
    %3 = stablehlo.iota dim = 1 : tensor<4x5xi64>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<4x5xi64>, tensor<4x5xi64>) -> tensor<4x5xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %6 = stablehlo.select %4, %5, %arg0 : tensor<4x5xi1>, tensor<4x5xf32>
    return %6 : tensor<4x5xf32>
  }
  func.func private @tril(%arg0: tensor<4x5xf32>) -> tensor<4x5xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<4x5xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<4x5xi64>
    %2 = stablehlo.add %0, %1 : tensor<4x5xi64>
    %3 = stablehlo.iota dim = 1 : tensor<4x5xi64>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<4x5xi64>, tensor<4x5xi64>) -> tensor<4x5xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<4x5xi1>, tensor<4x5xf32>
    return %6 : tensor<4x5xf32>
  }
}
