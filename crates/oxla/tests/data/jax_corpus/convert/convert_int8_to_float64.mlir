module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x10xi8>) -> (tensor<3x10xf64> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<3x10xi8>) -> tensor<3x10xf64>
    return %0 : tensor<3x10xf64>
  }
}
