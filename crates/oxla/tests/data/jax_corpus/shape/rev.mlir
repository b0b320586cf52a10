module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4x5xf32>) -> (tensor<2x3x4x5xf32> {jax.result_info = "result"}) {
    %0 = call @_flip(%arg0) : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
    return %0 : tensor<2x3x4x5xf32>
  }
  func.func private @_flip(%arg0: tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32> {
    %0 = stablehlo.reverse %arg0, dims = [0, 3] : tensor<2x3x4x5xf32>
    return %0 : tensor<2x3x4x5xf32>
  }
}
