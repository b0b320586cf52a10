module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x5xf32>) -> (tensor<4xf32> {jax.result_info = "result"}) {
    %0 = call @diagonal(%arg0) : (tensor<4x5xf32>) -> tensor<4xf32>
    return %0 : tensor<4xf32>
  }
  func.func private @diagonal(%arg0: tensor<4x5xf32>) -> tensor<4xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<4xi64>
    %1 = stablehlo.iota dim = 0 : tensor<4xi64>
    %c = stablehlo.constant dense<1> : tensor<i64>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<4xi64>
    %3 = stablehlo.add %2, %1 : tensor<4xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %4 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<4xi64>
    %5 = stablehlo.compare LT, %0, %4, SIGNED : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
    %c_1 = stablehlo.constant dense<4> : tensor<i64>
    %6 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<4xi64>
    %7 = stablehlo.add %0, %6 : tensor<4xi64>
    %8 = stablehlo.select %5, %7, %0 : tensor<4xi1>, tensor<4xi64>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %9 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i64>) -> tensor<4xi64>
    %10 = stablehlo.compare LT, %3, %9, SIGNED : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
    %c_3 = stablehlo.constant dense<5> : tensor<i64>
    %11 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i64>) -> tensor<4xi64>
    %12 = stablehlo.add %3, %11 : tensor<4xi64>
    %13 = stablehlo.select %10, %12, %3 : tensor<4xi1>, tensor<4xi64>
    %14 = stablehlo.convert %8 : (tensor<4xi64>) -> tensor<4xi32>
    %15 = stablehlo.convert %13 : (tensor<4xi64>) -> tensor<4xi32>
    %16 = stablehlo.broadcast_in_dim %14, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %17 = stablehlo.broadcast_in_dim %15, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %18 = stablehlo.concatenate %16, %17, dim = 1 : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
    %19 = "stablehlo.gather"(%arg0, %18) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x5xf32>, tensor<4x2xi32>) -> tensor<4xf32>
    return %19 : tensor<4xf32>
  }
}
