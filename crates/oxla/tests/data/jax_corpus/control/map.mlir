module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>) -> (tensor<3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.reshape %arg0 : (tensor<6xf32>) -> tensor<3x2xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %2:3 = stablehlo.while(%iterArg = %0, %iterArg_0 = %c, %iterArg_1 = %1) : tensor<3x2xf32>, tensor<i64>, tensor<3xf32>
    cond {
      %c_2 = stablehlo.constant dense<3> : tensor<i64>
      %3 = stablehlo.compare LT, %iterArg_0, %c_2, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %3 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_0) : (tensor<3x2xf32>, tensor<i64>) -> tensor<2xf32>
      %4 = func.call @closed_call(%3) : (tensor<2xf32>) -> tensor<f32>
      %5 = func.call @dynamic_update_index_in_dim(%iterArg_1, %4, %iterArg_0) : (tensor<3xf32>, tensor<f32>, tensor<i64>) -> tensor<3xf32>
      %c_2 = stablehlo.constant dense<1> : tensor<i64>
      %6 = stablehlo.add %iterArg_0, %c_2 : tensor<i64>
      stablehlo.return %iterArg, %6, %5 : tensor<3x2xf32>, tensor<i64>, tensor<3xf32>
    }
    return %2#2 : tensor<3xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<3x2xf32>, %arg1: tensor<i64>) -> tensor<2xf32> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 2] : (tensor<3x2xf32>, tensor<i64>, tensor<i64>) -> tensor<1x2xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x2xf32>) -> tensor<2xf32>
    return %1 : tensor<2xf32>
  }
  func.func private @closed_call(%arg0: tensor<2xf32>) -> tensor<f32> {
    %0 = stablehlo.dot_general %arg0, %arg0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2xf32>, tensor<2xf32>) -> tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<3xf32>, %arg1: tensor<f32>, %arg2: tensor<i64>) -> tensor<3xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2 : (tensor<3xf32>, tensor<1xf32>, tensor<i64>) -> tensor<3xf32>
    return %1 : tensor<3xf32>
  }
}
