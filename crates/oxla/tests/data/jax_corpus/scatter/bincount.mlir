module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<7xi32>) -> (tensor<8xi64> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<8xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %1 = call @clip(%arg0, %c_0) : (tensor<7xi32>, tensor<i64>) -> tensor<7xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<7xi32>
    %3 = stablehlo.compare LT, %1, %2, SIGNED : (tensor<7xi32>, tensor<7xi32>) -> tensor<7xi1>
    %c_2 = stablehlo.constant dense<8> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<7xi32>
    %5 = stablehlo.add %1, %4 : tensor<7xi32>
    %6 = stablehlo.select %3, %5, %1 : tensor<7xi1>, tensor<7xi32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<7xi32>) -> tensor<7x1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<i64>
    %8 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i64>) -> tensor<7xi64>
    %9 = "stablehlo.scatter"(%0, %7, %8) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<i64>, %arg2: tensor<i64>):
      %10 = stablehlo.add %arg1, %arg2 : tensor<i64>
      stablehlo.return %10 : tensor<i64>
    }) : (tensor<8xi64>, tensor<7x1xi32>, tensor<7xi64>) -> tensor<8xi64>
    return %9 : tensor<8xi64>
  }
  func.func private @clip(%arg0: tensor<7xi32>, %arg1: tensor<i64>) -> tensor<7xi32> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<7xi32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<7xi32>
    return %2 : tensor<7xi32>
  }
}
