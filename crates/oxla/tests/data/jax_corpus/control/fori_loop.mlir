module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>) -> (tensor<6xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %0:3 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %c, %iterArg_2 = %arg0) : tensor<i64>, tensor<i64>, tensor<6xf32>
    cond {
      %c_3 = stablehlo.constant dense<10> : tensor<i64>
      %1 = stablehlo.compare LT, %iterArg, %c_3, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1:2 = func.call @closed_call(%iterArg_1, %iterArg_2) : (tensor<i64>, tensor<6xf32>) -> (tensor<i64>, tensor<6xf32>)
      %c_3 = stablehlo.constant dense<1> : tensor<i64>
      %2 = stablehlo.add %iterArg, %c_3 : tensor<i64>
      stablehlo.return %2, %1#0, %1#1 : tensor<i64>, tensor<i64>, tensor<6xf32>
    }
    return %0#2 : tensor<6xf32>
  }
  func.func private @closed_call(%arg0: tensor<i64>, %arg1: tensor<6xf32>) -> (tensor<i64>, tensor<6xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg0, %c : tensor<i64>
    %cst = stablehlo.constant dense<0.899999976> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %2 = stablehlo.multiply %arg1, %1 : tensor<6xf32>
    %3 = stablehlo.convert %arg0 : (tensor<i64>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %5 = stablehlo.add %arg1, %4 : tensor<6xf32>
    %6 = stablehlo.sine %5 : tensor<6xf32>
    %7 = stablehlo.add %2, %6 : tensor<6xf32>
    return %0, %7 : tensor<i64>, tensor<6xf32>
  }
}
