module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4x5xf32>) -> (tensor<3x4x5xf32> {jax.result_info = "result"}) {
    %0 = call @argmax(%arg0) : (tensor<2x3x4x5xf32>) -> tensor<3x4x5xi64>
    %c = stablehlo.constant dense<3> : tensor<i64>
    %1 = call @remainder(%0, %c) : (tensor<3x4x5xi64>, tensor<i64>) -> tensor<3x4x5xi64>
    %2 = stablehlo.slice %arg0 [0:1, 0:3, 0:4, 0:5] : (tensor<2x3x4x5xf32>) -> tensor<1x3x4x5xf32>
    %3 = stablehlo.reshape %2 : (tensor<1x3x4x5xf32>) -> tensor<3x4x5xf32>
    %4 = stablehlo.slice %arg0 [1:2, 0:3, 0:4, 0:5] : (tensor<2x3x4x5xf32>) -> tensor<1x3x4x5xf32>
    %5 = stablehlo.reshape %4 : (tensor<1x3x4x5xf32>) -> tensor<3x4x5xf32>
    %6 = stablehlo.slice %arg0 [0:1, 0:3, 0:4, 0:5] : (tensor<2x3x4x5xf32>) -> tensor<1x3x4x5xf32>
    %7 = stablehlo.reshape %6 : (tensor<1x3x4x5xf32>) -> tensor<3x4x5xf32>
    %8 = stablehlo.negate %7 : tensor<3x4x5xf32>
    %c_0 = stablehlo.constant dense<1> : tensor<i64>
    %9 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<3x4x5xi64>
    %10 = stablehlo.compare LT, %1, %9, SIGNED : (tensor<3x4x5xi64>, tensor<3x4x5xi64>) -> tensor<3x4x5xi1>
    %c_1 = stablehlo.constant dense<2> : tensor<i64>
    %11 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<3x4x5xi64>
    %12 = stablehlo.compare LT, %1, %11, SIGNED : (tensor<3x4x5xi64>, tensor<3x4x5xi64>) -> tensor<3x4x5xi1>
    %13 = stablehlo.select %12, %5, %8 : tensor<3x4x5xi1>, tensor<3x4x5xf32>
    %14 = stablehlo.select %10, %3, %13 : tensor<3x4x5xi1>, tensor<3x4x5xf32>
    return %14 : tensor<3x4x5xf32>
  }
  func.func private @argmax(%arg0: tensor<2x3x4x5xf32>) -> tensor<3x4x5xi64> {
    %0 = stablehlo.iota dim = 0 : tensor<2x3x4x5xi64>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [0] : (tensor<2x3x4x5xf32>, tensor<2x3x4x5xi64>, tensor<f32>, tensor<i64>) -> (tensor<3x4x5xf32>, tensor<3x4x5xi64>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i64>, %arg4: tensor<i64>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i64>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i64>
    }
    return %1#1 : tensor<3x4x5xi64>
  }
  func.func private @remainder(%arg0: tensor<3x4x5xi64>, %arg1: tensor<i64>) -> tensor<3x4x5xi64> {
    %0 = stablehlo.convert %arg1 : tensor<i64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i64>
    %2 = call @_where(%1, %c_0, %0) : (tensor<i1>, tensor<i64>, tensor<i64>) -> tensor<i64>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i64>) -> tensor<3x4x5xi64>
    %4 = stablehlo.remainder %arg0, %3 : tensor<3x4x5xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<3x4x5xi64>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<3x4x5xi64>, tensor<3x4x5xi64>) -> tensor<3x4x5xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i64>) -> tensor<3x4x5xi64>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<3x4x5xi64>, tensor<3x4x5xi64>) -> tensor<3x4x5xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %9 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<3x4x5xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<3x4x5xi1>, tensor<3x4x5xi1>) -> tensor<3x4x5xi1>
    %12 = stablehlo.and %11, %6 : tensor<3x4x5xi1>
    %13 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i64>) -> tensor<3x4x5xi64>
    %14 = stablehlo.add %4, %13 : tensor<3x4x5xi64>
    %15 = stablehlo.select %12, %14, %4 : tensor<3x4x5xi1>, tensor<3x4x5xi64>
    return %15 : tensor<3x4x5xi64>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i64>, %arg2: tensor<i64>) -> tensor<i64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i64>
    return %0 : tensor<i64>
  }
}
