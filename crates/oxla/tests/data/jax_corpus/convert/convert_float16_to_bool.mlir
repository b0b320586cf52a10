module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x10xf16>) -> (tensor<3x10xi1> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<3x10xf16>
    %1 = stablehlo.compare NE, %arg0, %0, FLOAT : (tensor<3x10xf16>, tensor<3x10xf16>) -> tensor<3x10xi1>
    %2 = stablehlo.convert %1 : tensor<3x10xi1>
    return %2 : tensor<3x10xi1>
  }
}
