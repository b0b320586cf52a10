module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10x6xf32>) -> (tensor<3xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<[1, 3, 5]> : tensor<3xi64>
    %c_0 = stablehlo.constant dense<[0, 2, 4]> : tensor<3xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<3xi64>
    %1 = stablehlo.compare LT, %c, %0, SIGNED : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi1>
    %c_2 = stablehlo.constant dense<10> : tensor<i64>
    %2 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i64>) -> tensor<3xi64>
    %3 = stablehlo.add %c, %2 : tensor<3xi64>
    %4 = stablehlo.select %1, %3, %c : tensor<3xi1>, tensor<3xi64>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %5 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i64>) -> tensor<3xi64>
    %6 = stablehlo.compare LT, %c_0, %5, SIGNED : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi1>
    %c_4 = stablehlo.constant dense<6> : tensor<i64>
    %7 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i64>) -> tensor<3xi64>
    %8 = stablehlo.add %c_0, %7 : tensor<3xi64>
    %9 = stablehlo.select %6, %8, %c_0 : tensor<3xi1>, tensor<3xi64>
    %10 = stablehlo.convert %4 : (tensor<3xi64>) -> tensor<3xi32>
    %11 = stablehlo.convert %9 : (tensor<3xi64>) -> tensor<3xi32>
    %12 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %14 = stablehlo.concatenate %12, %13, dim = 1 : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x2xi32>
    %15 = "stablehlo.gather"(%arg0, %14) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<10x6xf32>, tensor<3x2xi32>) -> tensor<3xf32>
    return %15 : tensor<3xf32>
  }
}
