module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<6xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.reshape %arg0 : (tensor<6xf32>) -> tensor<3x2xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x2xf32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %2:4 = stablehlo.while(%iterArg = %0, %iterArg_1 = %c, %iterArg_2 = %cst, %iterArg_3 = %1) : tensor<3x2xf32>, tensor<i64>, tensor<f32>, tensor<3x2xf32>
    cond {
      %c_4 = stablehlo.constant dense<3> : tensor<i64>
      %4 = stablehlo.compare LT, %iterArg_1, %c_4, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %c_4 = stablehlo.constant dense<3> : tensor<i64>
      %4 = stablehlo.subtract %c_4, %iterArg_1 : tensor<i64>
      %c_5 = stablehlo.constant dense<1> : tensor<i64>
      %5 = stablehlo.subtract %4, %c_5 : tensor<i64>
      %6 = func.call @dynamic_index_in_dim(%iterArg, %5) : (tensor<3x2xf32>, tensor<i64>) -> tensor<2xf32>
      %7 = stablehlo.slice %6 [1:2] : (tensor<2xf32>) -> tensor<1xf32>
      %8 = stablehlo.reshape %7 : (tensor<1xf32>) -> tensor<f32>
      %9:2 = func.call @closed_call(%iterArg_2, %8) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
      %10 = stablehlo.slice %6 [0:1] : (tensor<2xf32>) -> tensor<1xf32>
      %11 = stablehlo.reshape %10 : (tensor<1xf32>) -> tensor<f32>
      %12:2 = func.call @closed_call(%9#0, %11) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
      %13 = stablehlo.broadcast_in_dim %12#1, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %14 = stablehlo.broadcast_in_dim %9#1, dims = [] : (tensor<f32>) -> tensor<1xf32>
      %15 = stablehlo.concatenate %13, %14, dim = 0 : (tensor<1xf32>, tensor<1xf32>) -> tensor<2xf32>
      %16 = func.call @dynamic_update_index_in_dim(%iterArg_3, %15, %5) : (tensor<3x2xf32>, tensor<2xf32>, tensor<i64>) -> tensor<3x2xf32>
      %c_6 = stablehlo.constant dense<1> : tensor<i64>
      %17 = stablehlo.add %iterArg_1, %c_6 : tensor<i64>
      stablehlo.return %iterArg, %17, %12#0, %16 : tensor<3x2xf32>, tensor<i64>, tensor<f32>, tensor<3x2xf32>
    }
    %3 = stablehlo.reshape %2#3 : (tensor<3x2xf32>) -> tensor<6xf32>
    return %2#2, %3 : tensor<f32>, tensor<6xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<3x2xf32>, %arg1: tensor<i64>) -> tensor<2xf32> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 2] : (tensor<3x2xf32>, tensor<i64>, tensor<i64>) -> tensor<1x2xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x2xf32>) -> tensor<2xf32>
    return %1 : tensor<2xf32>
  }
  func.func private @closed_call(%arg0: tensor<f32>, %arg1: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %0 = stablehlo.multiply %arg0, %cst : tensor<f32>
    %1 = stablehlo.add %0, %arg1 : tensor<f32>
    return %1, %arg0 : tensor<f32>, tensor<f32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<3x2xf32>, %arg1: tensor<2xf32>, %arg2: tensor<i64>) -> tensor<3x2xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<3x2xf32>, tensor<1x2xf32>, tensor<i64>, tensor<i64>) -> tensor<3x2xf32>
    return %1 : tensor<3x2xf32>
  }
}
