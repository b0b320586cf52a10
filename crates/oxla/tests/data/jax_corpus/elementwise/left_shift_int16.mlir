module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x11xi16>, %arg1: tensor<3x11xi16>) -> (tensor<3x11xi16> {jax.result_info = "result"}) {
    %0 = stablehlo.abs %arg1 : tensor<3x11xi16>
    %c = stablehlo.constant dense<8> : tensor<i64>
    %1 = call @remainder(%0, %c) : (tensor<3x11xi16>, tensor<i64>) -> tensor<3x11xi16>
    %2 = stablehlo.shift_left %arg0, %1 : tensor<3x11xi16>
    return %2 : tensor<3x11xi16>
  }
  func.func private @remainder(%arg0: tensor<3x11xi16>, %arg1: tensor<i64>) -> tensor<3x11xi16> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<i16>
    %c = stablehlo.constant dense<0> : tensor<i16>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i16>, tensor<i16>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i16>
    %2 = call @_where(%1, %c_0, %0) : (tensor<i1>, tensor<i16>, tensor<i16>) -> tensor<i16>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i16>) -> tensor<3x11xi16>
    %4 = stablehlo.remainder %arg0, %3 : tensor<3x11xi16>
    %c_1 = stablehlo.constant dense<0> : tensor<i16>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i16>) -> tensor<3x11xi16>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<3x11xi16>, tensor<3x11xi16>) -> tensor<3x11xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i16>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i16>) -> tensor<3x11xi16>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<3x11xi16>, tensor<3x11xi16>) -> tensor<3x11xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i16>
    %9 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i16>, tensor<i16>) -> tensor<i1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<3x11xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<3x11xi1>, tensor<3x11xi1>) -> tensor<3x11xi1>
    %12 = stablehlo.and %11, %6 : tensor<3x11xi1>
    %13 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i16>) -> tensor<3x11xi16>
    %14 = stablehlo.add %4, %13 : tensor<3x11xi16>
    %15 = stablehlo.select %12, %14, %4 : tensor<3x11xi1>, tensor<3x11xi16>
    return %15 : tensor<3x11xi16>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i16>, %arg2: tensor<i16>) -> tensor<i16> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i16>
    return %0 : tensor<i16>
  }
}
