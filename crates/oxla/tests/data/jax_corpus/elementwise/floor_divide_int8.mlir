module @jit_floor_divide attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x11xi8>, %arg1: tensor<3x11xi8>) -> (tensor<3x11xi8> {jax.result_info = "result"}) {
    %0 = call @floor_divide(%arg0, %arg1) : (tensor<3x11xi8>, tensor<3x11xi8>) -> tensor<3x11xi8>
    return %0 : tensor<3x11xi8>
  }
  func.func private @floor_divide(%arg0: tensor<3x11xi8>, %arg1: tensor<3x11xi8>) -> tensor<3x11xi8> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<3x11xi8>
    %1 = stablehlo.sign %arg0 : tensor<3x11xi8>
    %2 = stablehlo.sign %arg1 : tensor<3x11xi8>
    %3 = stablehlo.compare NE, %1, %2, SIGNED : (tensor<3x11xi8>, tensor<3x11xi8>) -> tensor<3x11xi1>
    %4 = stablehlo.remainder %arg0, %arg1 : tensor<3x11xi8>
    %c = stablehlo.constant dense<0> : tensor<i8>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i8>) -> tensor<3x11xi8>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<3x11xi8>, tensor<3x11xi8>) -> tensor<3x11xi1>
    %7 = stablehlo.and %3, %6 : tensor<3x11xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i8>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i8>) -> tensor<3x11xi8>
    %9 = stablehlo.subtract %0, %8 : tensor<3x11xi8>
    %10 = call @_where(%7, %9, %0) : (tensor<3x11xi1>, tensor<3x11xi8>, tensor<3x11xi8>) -> tensor<3x11xi8>
    return %10 : tensor<3x11xi8>
  }
  func.func private @_where(%arg0: tensor<3x11xi1>, %arg1: tensor<3x11xi8>, %arg2: tensor<3x11xi8>) -> tensor<3x11xi8> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<3x11xi1>, tensor<3x11xi8>
    return %0 : tensor<3x11xi8>
  }
}
