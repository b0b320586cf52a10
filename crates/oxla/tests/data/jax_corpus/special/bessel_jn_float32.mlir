module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf32>) -> (tensor<3x20xf32> {jax.result_info = "result"}) {
    %0 = call @bessel_jn(%arg0) : (tensor<20xf32>) -> tensor<3x20xf32>
    return %0 : tensor<3x20xf32>
  }
  func.func private @bessel_jn(%arg0: tensor<20xf32>) -> tensor<3x20xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<51xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %cst_0 = stablehlo.constant dense<1.000000e-16> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<51x20xf32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %5:7 = stablehlo.while(%iterArg = %0, %iterArg_3 = %arg0, %iterArg_4 = %c, %iterArg_5 = %1, %iterArg_6 = %2, %iterArg_7 = %3, %iterArg_8 = %4) : tensor<51xf32>, tensor<20xf32>, tensor<i64>, tensor<20xf32>, tensor<20xf32>, tensor<20xf32>, tensor<51x20xf32>
    cond {
      %c_9 = stablehlo.constant dense<51> : tensor<i64>
      %16 = stablehlo.compare LT, %iterArg_4, %c_9, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %16 : tensor<i1>
    } do {
      %c_9 = stablehlo.constant dense<51> : tensor<i64>
      %16 = stablehlo.subtract %c_9, %iterArg_4 : tensor<i64>
      %c_10 = stablehlo.constant dense<1> : tensor<i64>
      %17 = stablehlo.subtract %16, %c_10 : tensor<i64>
      %18 = func.call @dynamic_index_in_dim(%iterArg, %17) : (tensor<51xf32>, tensor<i64>) -> tensor<f32>
      %19:4 = func.call @closed_call(%iterArg_3, %iterArg_5, %iterArg_6, %iterArg_7, %18) : (tensor<20xf32>, tensor<20xf32>, tensor<20xf32>, tensor<20xf32>, tensor<f32>) -> (tensor<20xf32>, tensor<20xf32>, tensor<20xf32>, tensor<20xf32>)
      %20 = func.call @dynamic_update_index_in_dim(%iterArg_8, %19#3, %17) : (tensor<51x20xf32>, tensor<20xf32>, tensor<i64>) -> tensor<51x20xf32>
      %c_11 = stablehlo.constant dense<1> : tensor<i64>
      %21 = stablehlo.add %iterArg_4, %c_11 : tensor<i64>
      stablehlo.return %iterArg, %iterArg_3, %21, %19#0, %19#1, %19#2, %20 : tensor<51xf32>, tensor<20xf32>, tensor<i64>, tensor<20xf32>, tensor<20xf32>, tensor<20xf32>, tensor<51x20xf32>
    }
    %6 = stablehlo.slice %5#6 [0:1, 0:20] : (tensor<51x20xf32>) -> tensor<1x20xf32>
    %7 = stablehlo.transpose %6, dims = [1, 0] : (tensor<1x20xf32>) -> tensor<20x1xf32>
    %8 = stablehlo.reshape %7 : (tensor<20x1xf32>) -> tensor<20xf32>
    %9 = stablehlo.slice %5#6 [0:3, 0:20] : (tensor<51x20xf32>) -> tensor<3x20xf32>
    %10 = stablehlo.subtract %5#5, %8 : tensor<20xf32>
    %11 = stablehlo.transpose %9, dims = [1, 0] : (tensor<3x20xf32>) -> tensor<20x3xf32>
    %12 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<20xf32>) -> tensor<20x1xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1] : (tensor<20x1xf32>) -> tensor<20x3xf32>
    %14 = stablehlo.divide %11, %13 : tensor<20x3xf32>
    %15 = stablehlo.transpose %14, dims = [1, 0] : (tensor<20x3xf32>) -> tensor<3x20xf32>
    return %15 : tensor<3x20xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<51xf32>, %arg1: tensor<i64>) -> tensor<f32> {
    %0 = stablehlo.dynamic_slice %arg0, %arg1, sizes = [1] : (tensor<51xf32>, tensor<i64>) -> tensor<1xf32>
    %1 = stablehlo.reshape %0 : (tensor<1xf32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @closed_call(%arg0: tensor<20xf32>, %arg1: tensor<20xf32>, %arg2: tensor<20xf32>, %arg3: tensor<20xf32>, %arg4: tensor<f32>) -> (tensor<20xf32>, tensor<20xf32>, tensor<20xf32>, tensor<20xf32>) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.add %arg4, %cst : tensor<f32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.multiply %cst_0, %0 : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %3 = stablehlo.multiply %2, %arg2 : tensor<20xf32>
    %4 = stablehlo.divide %3, %arg0 : tensor<20xf32>
    %5 = stablehlo.subtract %4, %arg1 : tensor<20xf32>
    %c = stablehlo.constant dense<2> : tensor<i64>
    %6 = call @remainder(%arg4, %c) : (tensor<f32>, tensor<i64>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.compare EQ, %6, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %8 = stablehlo.convert %7 : (tensor<i1>) -> tensor<i32>
    %9 = "stablehlo.case"(%8) ({
      stablehlo.return %arg3 : tensor<20xf32>
    }, {
      %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<20xf32>
      %11 = stablehlo.multiply %10, %5 : tensor<20xf32>
      %12 = stablehlo.add %arg3, %11 : tensor<20xf32>
      stablehlo.return %12 : tensor<20xf32>
    }) : (tensor<i32>) -> tensor<20xf32>
    return %arg2, %5, %9, %5 : tensor<20xf32>, tensor<20xf32>, tensor<20xf32>, tensor<20xf32>
  }
  func.func private @remainder(%arg0: tensor<f32>, %arg1: tensor<i64>) -> tensor<f32> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<f32>
    %1 = stablehlo.remainder %arg0, %0 : tensor<f32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.compare NE, %1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.compare LT, %1, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.compare LT, %0, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %5 = stablehlo.compare NE, %3, %4, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %6 = stablehlo.and %5, %2 : tensor<i1>
    %7 = stablehlo.add %1, %0 : tensor<f32>
    %8 = stablehlo.select %6, %7, %1 : tensor<i1>, tensor<f32>
    return %8 : tensor<f32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<51x20xf32>, %arg1: tensor<20xf32>, %arg2: tensor<i64>) -> tensor<51x20xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<20xf32>) -> tensor<1x20xf32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<51x20xf32>, tensor<1x20xf32>, tensor<i64>, tensor<i64>) -> tensor<51x20xf32>
    return %1 : tensor<51x20xf32>
  }
}
