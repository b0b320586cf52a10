module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>) -> (tensor<6xf32> {jax.result_info = "result"}) {
    %0 = call @relu(%arg0) : (tensor<6xf32>) -> tensor<6xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %2 = stablehlo.compare GT, %arg0, %1, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%0 init: %cst_1) applies stablehlo.add across dimensions = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<f32>
    %5:3 = call @softplus(%arg0) : (tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>)
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5#0 init: %cst_2) applies stablehlo.add across dimensions = [0] : (tensor<6xf32>, tensor<f32>) -> tensor<f32>
    %7 = stablehlo.add %4, %6 : tensor<f32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %9 = call @softplus_0(%5#1, %5#2, %8) : (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %12 = stablehlo.select %2, %10, %11 : tensor<6xi1>, tensor<6xf32>
    %13 = stablehlo.add %9, %12 : tensor<6xf32>
    return %13 : tensor<6xf32>
  }
  func.func private @relu(%arg0: tensor<6xf32>) -> tensor<6xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<6xf32>
    return %1 : tensor<6xf32>
  }
  func.func private @softplus(%arg0: tensor<6xf32>) -> (tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<6xf32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %3 = stablehlo.subtract %arg0, %2 : tensor<6xf32>
    %4 = stablehlo.compare NE, %3, %3, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %6 = stablehlo.add %arg0, %5 : tensor<6xf32>
    %7 = stablehlo.abs %3 : tensor<6xf32>
    %8 = stablehlo.negate %7 : tensor<6xf32>
    %9 = stablehlo.exponential %8 : tensor<6xf32>
    %10 = stablehlo.log_plus_one %9 : tensor<6xf32>
    %11 = stablehlo.add %1, %10 : tensor<6xf32>
    %12 = stablehlo.select %4, %6, %11 : tensor<6xi1>, tensor<6xf32>
    %cst_0 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %14 = stablehlo.compare EQ, %arg0, %13, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %16 = stablehlo.select %14, %15, %arg0 : tensor<6xi1>, tensor<6xf32>
    %cst_2 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %18 = stablehlo.compare EQ, %12, %17, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %20 = stablehlo.select %18, %19, %12 : tensor<6xi1>, tensor<6xf32>
    %21 = stablehlo.subtract %16, %20 : tensor<6xf32>
    %22 = stablehlo.exponential %21 : tensor<6xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_5 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %23 = stablehlo.compare EQ, %cst_4, %cst_5, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.select %23, %cst_7, %cst_6 : tensor<i1>, tensor<f32>
    %cst_8 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %26 = stablehlo.compare EQ, %12, %25, FLOAT : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %28 = stablehlo.select %26, %27, %12 : tensor<6xi1>, tensor<6xf32>
    %29 = stablehlo.broadcast_in_dim %24, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %30 = stablehlo.subtract %29, %28 : tensor<6xf32>
    %31 = stablehlo.exponential %30 : tensor<6xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %32 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %33 = stablehlo.multiply %32, %31 : tensor<6xf32>
    return %12, %22, %33 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
  }
  func.func private @softplus_0(%arg0: tensor<6xf32>, %arg1: tensor<6xf32>, %arg2: tensor<6xf32>) -> tensor<6xf32> {
    %0 = stablehlo.multiply %arg2, %arg0 : tensor<6xf32>
    return %0 : tensor<6xf32>
  }
}
