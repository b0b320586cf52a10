module @jit_log_sigmoid attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x10xf32>) -> (tensor<4x10xf32> {jax.result_info = "result"}) {
    %0 = call @log_sigmoid(%arg0) : (tensor<4x10xf32>) -> tensor<4x10xf32>
    return %0 : tensor<4x10xf32>
  }
  func.func private @log_sigmoid(%arg0: tensor<4x10xf32>) -> tensor<4x10xf32> {
    %0 = stablehlo.negate %arg0 : tensor<4x10xf32>
    %1 = call @softplus(%0) : (tensor<4x10xf32>) -> tensor<4x10xf32>
    %2 = stablehlo.negate %1 : tensor<4x10xf32>
    return %2 : tensor<4x10xf32>
  }
  func.func private @softplus(%arg0: tensor<4x10xf32>) -> tensor<4x10xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x10xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x10xf32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x10xf32>
    %3 = stablehlo.subtract %arg0, %2 : tensor<4x10xf32>
    %4 = stablehlo.compare NE, %3, %3, FLOAT : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xi1>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x10xf32>
    %6 = stablehlo.add %arg0, %5 : tensor<4x10xf32>
    %7 = stablehlo.abs %3 : tensor<4x10xf32>
    %8 = stablehlo.negate %7 : tensor<4x10xf32>
    %9 = stablehlo.exponential %8 : tensor<4x10xf32>
    %10 = stablehlo.log_plus_one %9 : tensor<4x10xf32>
    %11 = stablehlo.add %1, %10 : tensor<4x10xf32>
    %12 = stablehlo.select %4, %6, %11 : tensor<4x10xi1>, tensor<4x10xf32>
    return %12 : tensor<4x10xf32>
  }
}
