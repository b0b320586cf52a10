module @jit_entr attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf32>) -> (tensor<20xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %1 = stablehlo.compare LT, %arg0, %0, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %4 = stablehlo.compare NE, %arg0, %3, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %5 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %6 = stablehlo.or %4, %5 : tensor<20xi1>
    %7 = stablehlo.log %arg0 : tensor<20xf32>
    %8 = stablehlo.multiply %arg0, %7 : tensor<20xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %10 = call @_where(%6, %8, %9) : (tensor<20xi1>, tensor<20xf32>, tensor<20xf32>) -> tensor<20xf32>
    %11 = stablehlo.negate %10 : tensor<20xf32>
    %12 = stablehlo.select %1, %2, %11 : tensor<20xi1>, tensor<20xf32>
    return %12 : tensor<20xf32>
  }
  func.func private @_where(%arg0: tensor<20xi1>, %arg1: tensor<20xf32>, %arg2: tensor<20xf32>) -> tensor<20xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<20xi1>, tensor<20xf32>
    return %0 : tensor<20xf32>
  }
}
