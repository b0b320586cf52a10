module @jit_matmul attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<7x13xf64>, %arg1: tensor<13x5xf64>) -> (tensor<7x5xf64> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<7x13xf64>, tensor<13x5xf64>) -> tensor<7x5xf64>
    return %0 : tensor<7x5xf64>
  }
}
