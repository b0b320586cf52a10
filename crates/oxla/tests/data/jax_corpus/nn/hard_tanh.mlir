module @jit_hard_tanh attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x10xf32>) -> (tensor<4x10xf32> {jax.result_info = "result"}) {
    %0 = call @hard_tanh(%arg0) : (tensor<4x10xf32>) -> tensor<4x10xf32>
    return %0 : tensor<4x10xf32>
  }
  func.func private @hard_tanh(%arg0: tensor<4x10xf32>) -> tensor<4x10xf32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x10xf32>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xi1>
    %cst_0 = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x10xf32>
    %3 = stablehlo.compare LT, %arg0, %2, FLOAT : (tensor<4x10xf32>, tensor<4x10xf32>) -> tensor<4x10xi1>
    %c = stablehlo.constant dense<-1> : tensor<i64>
    %4 = call @_where(%3, %c, %arg0) : (tensor<4x10xi1>, tensor<i64>, tensor<4x10xf32>) -> tensor<4x10xf32>
    %c_1 = stablehlo.constant dense<1> : tensor<i64>
    %5 = call @_where(%1, %c_1, %4) : (tensor<4x10xi1>, tensor<i64>, tensor<4x10xf32>) -> tensor<4x10xf32>
    return %5 : tensor<4x10xf32>
  }
  func.func private @_where(%arg0: tensor<4x10xi1>, %arg1: tensor<i64>, %arg2: tensor<4x10xf32>) -> tensor<4x10xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x10xf32>
    %2 = stablehlo.select %arg0, %1, %arg2 : tensor<4x10xi1>, tensor<4x10xf32>
    return %2 : tensor<4x10xf32>
  }
}
