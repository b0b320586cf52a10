module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x10xf32>, %arg1: tensor<10xf32>, %arg2: tensor<10xf32>) -> (tensor<4x10xf32> {jax.result_info = "result[0]"}, tensor<10xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<4x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x10xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<4x10xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<4x10xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x10xf32>
    %8 = stablehlo.multiply %7, %5 : tensor<4x10xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.reduce(%6 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+01> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %12 = stablehlo.divide %10, %11 : tensor<4x1xf32>
    %13 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x10xf32>
    %14 = stablehlo.subtract %arg0, %13 : tensor<4x10xf32>
    %cst_4 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %16 = stablehlo.add %12, %15 : tensor<4x1xf32>
    %17 = stablehlo.rsqrt %16 : tensor<4x1xf32>
    %18 = stablehlo.divide %17, %16 : tensor<4x1xf32>
    %cst_5 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %20 = stablehlo.multiply %19, %18 : tensor<4x1xf32>
    %21 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x10xf32>
    %22 = stablehlo.multiply %14, %21 : tensor<4x10xf32>
    %23 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<4x10xf32>
    %25 = stablehlo.multiply %22, %24 : tensor<4x10xf32>
    %26 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<10xf32>) -> tensor<1x10xf32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<4x10xf32>
    %28 = stablehlo.add %25, %27 : tensor<4x10xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %29 = stablehlo.reduce(%28 init: %cst_6) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<f32>
    %30 = stablehlo.multiply %29, %29 : tensor<f32>
    %cst_7 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %31 = stablehlo.multiply %cst_7, %29 : tensor<f32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %32 = stablehlo.multiply %cst_8, %31 : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<f32>) -> tensor<4x10xf32>
    %34 = stablehlo.multiply %22, %33 : tensor<4x10xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %35 = stablehlo.reduce(%34 init: %cst_9) applies stablehlo.add across dimensions = [0] : (tensor<4x10xf32>, tensor<f32>) -> tensor<10xf32>
    %36 = stablehlo.reshape %35 : (tensor<10xf32>) -> tensor<1x10xf32>
    %37 = stablehlo.broadcast_in_dim %23, dims = [0, 1] : (tensor<1x10xf32>) -> tensor<4x10xf32>
    %38 = stablehlo.multiply %33, %37 : tensor<4x10xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %39 = stablehlo.reduce(%36 init: %cst_10) applies stablehlo.add across dimensions = [0] : (tensor<1x10xf32>, tensor<f32>) -> tensor<10xf32>
    %40 = stablehlo.multiply %14, %38 : tensor<4x10xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %41 = stablehlo.reduce(%40 init: %cst_11) applies stablehlo.add across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %42 = stablehlo.reshape %41 : (tensor<4xf32>) -> tensor<4x1xf32>
    %43 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x10xf32>
    %44 = stablehlo.multiply %38, %43 : tensor<4x10xf32>
    %45 = stablehlo.multiply %42, %20 : tensor<4x1xf32>
    %46 = stablehlo.negate %44 : tensor<4x10xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %47 = stablehlo.reduce(%46 init: %cst_12) applies stablehlo.add across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %48 = stablehlo.reshape %47 : (tensor<4xf32>) -> tensor<4x1xf32>
    %cst_13 = stablehlo.constant dense<1.000000e+01> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %50 = stablehlo.divide %45, %49 : tensor<4x1xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %51 = stablehlo.reduce(%50 init: %cst_14) applies stablehlo.add across dimensions = [1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
    %52 = stablehlo.broadcast_in_dim %51, dims = [0] : (tensor<4xf32>) -> tensor<4x10xf32>
    %53 = stablehlo.multiply %52, %8 : tensor<4x10xf32>
    %54 = stablehlo.negate %53 : tensor<4x10xf32>
    %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %55 = stablehlo.reduce(%54 init: %cst_15) applies stablehlo.add across dimensions = [1] : (tensor<4x10xf32>, tensor<f32>) -> tensor<4xf32>
    %56 = stablehlo.reshape %55 : (tensor<4xf32>) -> tensor<4x1xf32>
    %57 = stablehlo.add %44, %53 : tensor<4x10xf32>
    %58 = stablehlo.add %48, %56 : tensor<4x1xf32>
    %cst_16 = stablehlo.constant dense<1.000000e+01> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<4x1xf32>
    %60 = stablehlo.divide %58, %59 : tensor<4x1xf32>
    %cst_17 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %61 = stablehlo.reduce(%60 init: %cst_17) applies stablehlo.add across dimensions = [1] : (tensor<4x1xf32>, tensor<f32>) -> tensor<4xf32>
    %62 = stablehlo.broadcast_in_dim %61, dims = [0] : (tensor<4xf32>) -> tensor<4x10xf32>
    %63 = stablehlo.add %57, %62 : tensor<4x10xf32>
    return %63, %39 : tensor<4x10xf32>, tensor<10xf32>
  }
}
