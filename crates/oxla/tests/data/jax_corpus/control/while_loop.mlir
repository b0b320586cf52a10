module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>) -> (tensor<i64> {jax.result_info = "result[0]"}, tensor<6xf32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i64>, tensor<6xf32>
    cond {
      %c_1 = stablehlo.constant dense<20> : tensor<i64>
      %1 = stablehlo.compare LT, %iterArg, %c_1, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i64>
      %1 = stablehlo.add %iterArg, %c_1 : tensor<i64>
      %cst = stablehlo.constant dense<1.100000e+00> : tensor<f32>
      %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
      %3 = stablehlo.multiply %iterArg_0, %2 : tensor<6xf32>
      %cst_2 = stablehlo.constant dense<0.00999999977> : tensor<f32>
      %4 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<6xf32>
      %5 = stablehlo.add %3, %4 : tensor<6xf32>
      stablehlo.return %1, %5 : tensor<i64>, tensor<6xf32>
    }
    return %0#0, %0#1 : tensor<i64>, tensor<6xf32>
  }
}
