module @jit_greater_equal attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x11xi8>, %arg1: tensor<3x11xi8>) -> (tensor<3x11xi1> {jax.result_info = "result"}) {
    %0 = stablehlo.compare GE, %arg0, %arg1, SIGNED : (tensor<3x11xi8>, tensor<3x11xi8>) -> tensor<3x11xi1>
    return %0 : tensor<3x11xi1>
  }
}
