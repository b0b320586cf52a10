module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x16xf64>) -> (tensor<5x16xf64> {jax.result_info = "result"}) {
    %0 = call @cumsum(%arg0) : (tensor<5x16xf64>) -> tensor<5x16xf64>
    return %0 : tensor<5x16xf64>
  }
  func.func private @cumsum(%arg0: tensor<5x16xf64>) -> tensor<5x16xf64> {
    %0 = call @cumsum_0(%arg0) : (tensor<5x16xf64>) -> tensor<5x16xf64>
    return %0 : tensor<5x16xf64>
  }
  func.func private @cumsum_0(%arg0: tensor<5x16xf64>) -> tensor<5x16xf64> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<f64>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [15, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 16>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f64>, %arg2: tensor<f64>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f64>
      stablehlo.return %2 : tensor<f64>
    }) : (tensor<5x16xf64>, tensor<f64>) -> tensor<5x16xf64>
    return %1 : tensor<5x16xf64>
  }
}
