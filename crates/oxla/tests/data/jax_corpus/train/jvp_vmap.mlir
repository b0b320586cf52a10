module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x10xf32>) -> (tensor<4x10xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %1 = stablehlo.tanh %arg0 : tensor<4x10xf32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<4x10xf32>
    %4 = stablehlo.multiply %3, %1 : tensor<4x10xf32>
    %5 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<4x10xf32>
    %7 = stablehlo.add %6, %4 : tensor<4x10xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x10xf32>
    %9 = stablehlo.subtract %8, %1 : tensor<4x10xf32>
    %10 = stablehlo.multiply %7, %9 : tensor<4x10xf32>
    return %10 : tensor<4x10xf32>
  }
}
