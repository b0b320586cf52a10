module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x7x5xi32>) -> (tensor<6x5xi64> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<6x7x5xi32>) -> tensor<6x7x5xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.reduce(%0 init: %c) applies stablehlo.add across dimensions = [1] : (tensor<6x7x5xi64>, tensor<i64>) -> tensor<6x5xi64>
    return %1 : tensor<6x5xi64>
  }
}
