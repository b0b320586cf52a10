module @jit_logit attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf32>) -> (tensor<20xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %1 = stablehlo.subtract %0, %arg0 : tensor<20xf32>
    %2 = stablehlo.divide %arg0, %1 : tensor<20xf32>
    %3 = stablehlo.log %2 : tensor<20xf32>
    return %3 : tensor<20xf32>
  }
}
