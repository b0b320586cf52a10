module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>) -> (tensor<6xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %3:6 = stablehlo.while(%iterArg = %arg0, %iterArg_6 = %c, %iterArg_7 = %cst, %iterArg_8 = %0, %iterArg_9 = %1, %iterArg_10 = %2) : tensor<6xf32>, tensor<i64>, tensor<f32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
    cond {
      %c_11 = stablehlo.constant dense<6> : tensor<i64>
      %6 = stablehlo.compare LT, %iterArg_6, %c_11, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %6 : tensor<i1>
    } do {
      %6 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_6) : (tensor<6xf32>, tensor<i64>) -> tensor<f32>
      %7:4 = func.call @closed_call(%iterArg_7, %6) : (tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>)
      %8 = func.call @dynamic_update_index_in_dim(%iterArg_8, %7#1, %iterArg_6) : (tensor<6xf32>, tensor<f32>, tensor<i64>) -> tensor<6xf32>
      %9 = func.call @dynamic_update_index_in_dim(%iterArg_9, %7#2, %iterArg_6) : (tensor<6xf32>, tensor<f32>, tensor<i64>) -> tensor<6xf32>
      %10 = func.call @dynamic_update_index_in_dim(%iterArg_10, %7#3, %iterArg_6) : (tensor<6xf32>, tensor<f32>, tensor<i64>) -> tensor<6xf32>
      %c_11 = stablehlo.constant dense<1> : tensor<i64>
      %11 = stablehlo.add %iterArg_6, %c_11 : tensor<i64>
      stablehlo.return %iterArg, %11, %7#0, %8, %9, %10 : tensor<6xf32>, tensor<i64>, tensor<f32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
    }
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %c_5 = stablehlo.constant dense<0> : tensor<i64>
    %5:6 = stablehlo.while(%iterArg = %3#3, %iterArg_6 = %3#4, %iterArg_7 = %3#5, %iterArg_8 = %c_5, %iterArg_9 = %cst_3, %iterArg_10 = %4) : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<i64>, tensor<f32>, tensor<6xf32>
    cond {
      %c_11 = stablehlo.constant dense<6> : tensor<i64>
      %6 = stablehlo.compare LT, %iterArg_8, %c_11, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %6 : tensor<i1>
    } do {
      %c_11 = stablehlo.constant dense<6> : tensor<i64>
      %6 = stablehlo.subtract %c_11, %iterArg_8 : tensor<i64>
      %c_12 = stablehlo.constant dense<1> : tensor<i64>
      %7 = stablehlo.subtract %6, %c_12 : tensor<i64>
      %8 = func.call @dynamic_index_in_dim(%iterArg, %7) : (tensor<6xf32>, tensor<i64>) -> tensor<f32>
      %9 = func.call @dynamic_index_in_dim(%iterArg_6, %7) : (tensor<6xf32>, tensor<i64>) -> tensor<f32>
      %10 = func.call @dynamic_index_in_dim(%iterArg_7, %7) : (tensor<6xf32>, tensor<i64>) -> tensor<f32>
      %11:2 = func.call @closed_call_0(%iterArg_9, %8, %9, %10) : (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<f32>, tensor<f32>)
      %12 = func.call @dynamic_update_index_in_dim(%iterArg_10, %11#1, %7) : (tensor<6xf32>, tensor<f32>, tensor<i64>) -> tensor<6xf32>
      %c_13 = stablehlo.constant dense<1> : tensor<i64>
      %13 = stablehlo.add %iterArg_8, %c_13 : tensor<i64>
      stablehlo.return %iterArg, %iterArg_6, %iterArg_7, %13, %11#0, %12 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<i64>, tensor<f32>, tensor<6xf32>
    }
    return %5#5 : tensor<6xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<6xf32>, %arg1: tensor<i64>) -> tensor<f32> {
    %0 = stablehlo.dynamic_slice %arg0, %arg1, sizes = [1] : (tensor<6xf32>, tensor<i64>) -> tensor<1xf32>
    %1 = stablehlo.reshape %0 : (tensor<1xf32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @closed_call(%arg0: tensor<f32>, %arg1: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
    %0 = stablehlo.cosine %arg1 : tensor<f32>
    %1 = stablehlo.sine %arg1 : tensor<f32>
    %2 = stablehlo.multiply %arg0, %0 : tensor<f32>
    return %2, %1, %0, %arg0 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<6xf32>, %arg1: tensor<f32>, %arg2: tensor<i64>) -> tensor<6xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2 : (tensor<6xf32>, tensor<1xf32>, tensor<i64>) -> tensor<6xf32>
    return %1 : tensor<6xf32>
  }
  func.func private @closed_call_0(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<f32>) -> (tensor<f32>, tensor<f32>) {
    %0 = stablehlo.multiply %arg3, %arg0 : tensor<f32>
    %1 = stablehlo.multiply %arg0, %arg2 : tensor<f32>
    %2 = stablehlo.negate %0 : tensor<f32>
    %3 = stablehlo.multiply %2, %arg1 : tensor<f32>
    return %1, %3 : tensor<f32>, tensor<f32>
  }
}
