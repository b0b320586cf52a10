module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x7x5xf16>) -> (tensor<7xf16> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0xFC00> : tensor<f16>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0, 2] : (tensor<6x7x5xf16>, tensor<f16>) -> tensor<7xf16>
    return %0 : tensor<7xf16>
  }
}
