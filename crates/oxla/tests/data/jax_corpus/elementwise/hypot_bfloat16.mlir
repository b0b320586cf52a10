module @jit_hypot attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x17xbf16>, %arg1: tensor<4x17xbf16>) -> (tensor<4x17xbf16> {jax.result_info = "result"}) {
    %0 = call @hypot(%arg0, %arg1) : (tensor<4x17xbf16>, tensor<4x17xbf16>) -> tensor<4x17xbf16>
    return %0 : tensor<4x17xbf16>
  }
  func.func private @hypot(%arg0: tensor<4x17xbf16>, %arg1: tensor<4x17xbf16>) -> tensor<4x17xbf16> {
    %0 = stablehlo.abs %arg0 : tensor<4x17xbf16>
    %1 = stablehlo.abs %arg1 : tensor<4x17xbf16>
    %cst = stablehlo.constant dense<0x7F80> : tensor<bf16>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<4x17xbf16>
    %3 = stablehlo.compare EQ, %0, %2, FLOAT : (tensor<4x17xbf16>, tensor<4x17xbf16>) -> tensor<4x17xi1>
    %cst_0 = stablehlo.constant dense<0x7F80> : tensor<bf16>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<4x17xbf16>
    %5 = stablehlo.compare EQ, %1, %4, FLOAT : (tensor<4x17xbf16>, tensor<4x17xbf16>) -> tensor<4x17xi1>
    %6 = stablehlo.or %3, %5 : tensor<4x17xi1>
    %7 = stablehlo.maximum %0, %1 : tensor<4x17xbf16>
    %8 = stablehlo.minimum %0, %1 : tensor<4x17xbf16>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<bf16>) -> tensor<4x17xbf16>
    %10 = stablehlo.compare EQ, %7, %9, FLOAT : (tensor<4x17xbf16>, tensor<4x17xbf16>) -> tensor<4x17xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %11 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<bf16>) -> tensor<4x17xbf16>
    %12 = stablehlo.compare EQ, %7, %11, FLOAT : (tensor<4x17xbf16>, tensor<4x17xbf16>) -> tensor<4x17xi1>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<bf16>) -> tensor<4x17xbf16>
    %14 = call @_where(%12, %13, %7) : (tensor<4x17xi1>, tensor<4x17xbf16>, tensor<4x17xbf16>) -> tensor<4x17xbf16>
    %15 = stablehlo.divide %8, %14 : tensor<4x17xbf16>
    %16 = chlo.square %15 : tensor<4x17xbf16> -> tensor<4x17xbf16>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<bf16>
    %17 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<bf16>) -> tensor<4x17xbf16>
    %18 = stablehlo.add %17, %16 : tensor<4x17xbf16>
    %19 = stablehlo.sqrt %18 : tensor<4x17xbf16>
    %20 = stablehlo.multiply %7, %19 : tensor<4x17xbf16>
    %21 = call @_where(%10, %7, %20) : (tensor<4x17xi1>, tensor<4x17xbf16>, tensor<4x17xbf16>) -> tensor<4x17xbf16>
    %cst_5 = stablehlo.constant dense<0x7F80> : tensor<bf16>
    %22 = call @_where_0(%6, %cst_5, %21) : (tensor<4x17xi1>, tensor<bf16>, tensor<4x17xbf16>) -> tensor<4x17xbf16>
    return %22 : tensor<4x17xbf16>
  }
  func.func private @_where(%arg0: tensor<4x17xi1>, %arg1: tensor<4x17xbf16>, %arg2: tensor<4x17xbf16>) -> tensor<4x17xbf16> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<4x17xi1>, tensor<4x17xbf16>
    return %0 : tensor<4x17xbf16>
  }
  func.func private @_where_0(%arg0: tensor<4x17xi1>, %arg1: tensor<bf16>, %arg2: tensor<4x17xbf16>) -> tensor<4x17xbf16> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<bf16>) -> tensor<4x17xbf16>
    %1 = stablehlo.select %arg0, %0, %arg2 : tensor<4x17xi1>, tensor<4x17xbf16>
    return %1 : tensor<4x17xbf16>
  }
}
