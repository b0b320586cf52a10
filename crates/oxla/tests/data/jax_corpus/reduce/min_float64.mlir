module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x7x5xf64>) -> (tensor<7x5xf64> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0x7FF0000000000000> : tensor<f64>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.minimum across dimensions = [0] : (tensor<6x7x5xf64>, tensor<f64>) -> tensor<7x5xf64>
    return %0 : tensor<7x5xf64>
  }
}
