module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x7x5xi32>) -> (tensor<6x7xi64> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<3> : tensor<i64>
    %0 = call @remainder(%arg0, %c) : (tensor<6x7x5xi32>, tensor<i64>) -> tensor<6x7x5xi32>
    %1 = stablehlo.convert %0 : (tensor<6x7x5xi32>) -> tensor<6x7x5xi64>
    %c_0 = stablehlo.constant dense<1> : tensor<i64>
    %2 = stablehlo.reduce(%1 init: %c_0) applies stablehlo.multiply across dimensions = [2] : (tensor<6x7x5xi64>, tensor<i64>) -> tensor<6x7xi64>
    return %2 : tensor<6x7xi64>
  }
  func.func private @remainder(%arg0: tensor<6x7x5xi32>, %arg1: tensor<i64>) -> tensor<6x7x5xi32> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<6x7x5xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<6x7x5xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<6x7x5xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<6x7x5xi32>, tensor<6x7x5xi32>) -> tensor<6x7x5xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<6x7x5xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<6x7x5xi32>, tensor<6x7x5xi32>) -> tensor<6x7x5xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<6x7x5xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<6x7x5xi1>, tensor<6x7x5xi1>) -> tensor<6x7x5xi1>
    %12 = stablehlo.and %11, %6 : tensor<6x7x5xi1>
    %13 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<6x7x5xi32>
    %14 = stablehlo.add %4, %13 : tensor<6x7x5xi32>
    %15 = stablehlo.select %12, %14, %4 : tensor<6x7x5xi1>, tensor<6x7x5xi32>
    return %15 : tensor<6x7x5xi32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
