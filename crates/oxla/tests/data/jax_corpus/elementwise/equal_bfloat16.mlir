module @jit_equal attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x17xbf16>, %arg1: tensor<4x17xbf16>) -> (tensor<4x17xi1> {jax.result_info = "result"}) {
    %0 = stablehlo.compare EQ, %arg0, %arg1, FLOAT : (tensor<4x17xbf16>, tensor<4x17xbf16>) -> tensor<4x17xi1>
    return %0 : tensor<4x17xi1>
  }
}
