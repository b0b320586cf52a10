module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5xi32>) -> (tensor<5xi32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<[0, 0, 2]> : tensor<3xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<3xi64>
    %1 = stablehlo.compare LT, %c, %0, SIGNED : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi1>
    %c_1 = stablehlo.constant dense<5> : tensor<i64>
    %2 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<3xi64>
    %3 = stablehlo.add %c, %2 : tensor<3xi64>
    %4 = stablehlo.select %1, %3, %c : tensor<3xi1>, tensor<3xi64>
    %5 = stablehlo.convert %4 : (tensor<3xi64>) -> tensor<3xi32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %c_2 = stablehlo.constant dense<5> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %8 = "stablehlo.scatter"(%arg0, %6, %7) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %9 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %9 : tensor<i32>
    }) : (tensor<5xi32>, tensor<3x1xi32>, tensor<3xi32>) -> tensor<5xi32>
    return %8 : tensor<5xi32>
  }
}
