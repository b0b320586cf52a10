module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5xf32>) -> (tensor<5x5xf64> {jax.result_info = "result"}) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<5xf32>) -> tensor<5x1xf32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<5x1xf32>) -> tensor<5x5xf32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<5x5xf32>
    %4 = stablehlo.multiply %2, %3 : tensor<5x5xf32>
    %5 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %6 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %7 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %8 = stablehlo.add %5, %7 : tensor<5x5xi64>
    %9 = stablehlo.compare EQ, %8, %6, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %10 = stablehlo.convert %9 : (tensor<5x5xi1>) -> tensor<5x5xf64>
    %11 = stablehlo.convert %4 : (tensor<5x5xf32>) -> tensor<5x5xf64>
    %12 = stablehlo.add %11, %10 : tensor<5x5xf64>
    return %12 : tensor<5x5xf64>
  }
}
