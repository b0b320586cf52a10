module @jit_glu attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x10xf32>) -> (tensor<4x5xf32> {jax.result_info = "result"}) {
    %0 = call @glu(%arg0) : (tensor<4x10xf32>) -> tensor<4x5xf32>
    return %0 : tensor<4x5xf32>
  }
  func.func private @glu(%arg0: tensor<4x10xf32>) -> tensor<4x5xf32> {
    %0 = stablehlo.slice %arg0 [0:4, 0:5] : (tensor<4x10xf32>) -> tensor<4x5xf32>
    %1 = stablehlo.slice %arg0 [0:4, 5:10] : (tensor<4x10xf32>) -> tensor<4x5xf32>
    %2 = stablehlo.negate %1 : tensor<4x5xf32>
    %3 = stablehlo.exponential %2 : tensor<4x5xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %5 = stablehlo.add %4, %3 : tensor<4x5xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %7 = stablehlo.divide %6, %5 : tensor<4x5xf32>
    %8 = stablehlo.multiply %0, %7 : tensor<4x5xf32>
    return %8 : tensor<4x5xf32>
  }
}
