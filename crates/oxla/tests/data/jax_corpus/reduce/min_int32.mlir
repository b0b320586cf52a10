module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x7x5xi32>) -> (tensor<7x5xi32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<2147483647> : tensor<i32>
    %0 = stablehlo.reduce(%arg0 init: %c) applies stablehlo.minimum across dimensions = [0] : (tensor<6x7x5xi32>, tensor<i32>) -> tensor<7x5xi32>
    return %0 : tensor<7x5xi32>
  }
}
