module @jit_xlog1py attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf32>, %arg1: tensor<20xf32>) -> (tensor<20xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %1 = stablehlo.compare NE, %arg0, %0, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %2 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %3 = stablehlo.or %1, %2 : tensor<20xi1>
    %4 = stablehlo.log_plus_one %arg1 : tensor<20xf32>
    %5 = stablehlo.multiply %arg0, %4 : tensor<20xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %7 = call @_where(%3, %5, %6) : (tensor<20xi1>, tensor<20xf32>, tensor<20xf32>) -> tensor<20xf32>
    return %7 : tensor<20xf32>
  }
  func.func private @_where(%arg0: tensor<20xi1>, %arg1: tensor<20xf32>, %arg2: tensor<20xf32>) -> tensor<20xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<20xi1>, tensor<20xf32>
    return %0 : tensor<20xf32>
  }
}
