module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10x6xf32>, %arg1: tensor<6xi32>) -> (tensor<10x6xf32> {jax.result_info = "result"}) {
    %0 = call @_take(%arg0, %arg1) : (tensor<10x6xf32>, tensor<6xi32>) -> tensor<10x6xf32>
    return %0 : tensor<10x6xf32>
  }
  func.func private @_take(%arg0: tensor<10x6xf32>, %arg1: tensor<6xi32>) -> tensor<10x6xf32> {
    %c = stablehlo.constant dense<6> : tensor<i32>
    %0 = call @remainder(%arg1, %c) : (tensor<6xi32>, tensor<i32>) -> tensor<6xi32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %2 = "stablehlo.gather"(%arg0, %1) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 10, 1>}> : (tensor<10x6xf32>, tensor<6x1xi32>) -> tensor<10x6xf32>
    return %2 : tensor<10x6xf32>
  }
  func.func private @remainder(%arg0: tensor<6xi32>, %arg1: tensor<i32>) -> tensor<6xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare EQ, %arg1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %1 = call @_where(%0, %c_0, %arg1) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %3 = stablehlo.remainder %arg0, %2 : tensor<6xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %5 = stablehlo.compare NE, %3, %4, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %7 = stablehlo.compare LT, %3, %6, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.compare LT, %1, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %9 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<i1>) -> tensor<6xi1>
    %10 = stablehlo.compare NE, %7, %9, UNSIGNED : (tensor<6xi1>, tensor<6xi1>) -> tensor<6xi1>
    %11 = stablehlo.and %10, %5 : tensor<6xi1>
    %12 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %13 = stablehlo.add %3, %12 : tensor<6xi32>
    %14 = stablehlo.select %11, %13, %3 : tensor<6xi1>, tensor<6xi32>
    return %14 : tensor<6xi32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
