module @jit_subtract attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x17xf64>, %arg1: tensor<4x17xf64>) -> (tensor<4x17xf64> {jax.result_info = "result"}) {
    %0 = stablehlo.subtract %arg0, %arg1 : tensor<4x17xf64>
    return %0 : tensor<4x17xf64>
  }
}
