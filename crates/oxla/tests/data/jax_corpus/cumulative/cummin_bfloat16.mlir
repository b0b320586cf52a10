module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x16xbf16>) -> (tensor<5x16xbf16> {jax.result_info = "result"}) {
    %0 = call @cummin(%arg0) : (tensor<5x16xbf16>) -> tensor<5x16xbf16>
    return %0 : tensor<5x16xbf16>
  }
  func.func private @cummin(%arg0: tensor<5x16xbf16>) -> tensor<5x16xbf16> {
    %cst = stablehlo.constant dense<0x7F80> : tensor<bf16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<bf16>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 4], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 5, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<bf16>, %arg2: tensor<bf16>):
      %2 = stablehlo.minimum %arg1, %arg2 : tensor<bf16>
      stablehlo.return %2 : tensor<bf16>
    }) : (tensor<5x16xbf16>, tensor<bf16>) -> tensor<5x16xbf16>
    return %1 : tensor<5x16xbf16>
  }
}
