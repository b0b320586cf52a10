module @jit_i1e attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf64>) -> (tensor<20xf64> {jax.result_info = "result"}) {
    %0 = chlo.bessel_i1e %arg0 : tensor<20xf64> -> tensor<20xf64>
    return %0 : tensor<20xf64>
  }
}
