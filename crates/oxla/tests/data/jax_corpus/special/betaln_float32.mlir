module @jit_betaln attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf32>, %arg1: tensor<20xf32>) -> (tensor<20xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<20xf32>
    %1 = stablehlo.maximum %arg0, %arg1 : tensor<20xf32>
    %2 = chlo.lgamma %0 : tensor<20xf32> -> tensor<20xf32>
    %3 = chlo.lgamma %1 : tensor<20xf32> -> tensor<20xf32>
    %4 = stablehlo.add %0, %1 : tensor<20xf32>
    %5 = chlo.lgamma %4 : tensor<20xf32> -> tensor<20xf32>
    %6 = stablehlo.subtract %3, %5 : tensor<20xf32>
    %7 = stablehlo.add %2, %6 : tensor<20xf32>
    %8 = chlo.lgamma %0 : tensor<20xf32> -> tensor<20xf32>
    %9 = stablehlo.divide %0, %1 : tensor<20xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %11 = stablehlo.add %10, %9 : tensor<20xf32>
    %12 = stablehlo.divide %9, %11 : tensor<20xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %14 = stablehlo.add %13, %9 : tensor<20xf32>
    %15 = stablehlo.divide %9, %14 : tensor<20xf32>
    %cst_1 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %17 = stablehlo.subtract %0, %16 : tensor<20xf32>
    %18 = stablehlo.add %1, %17 : tensor<20xf32>
    %19 = stablehlo.multiply %15, %15 : tensor<20xf32>
    %20 = stablehlo.add %15, %19 : tensor<20xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %22 = stablehlo.add %21, %20 : tensor<20xf32>
    %23 = stablehlo.multiply %19, %22 : tensor<20xf32>
    %24 = stablehlo.add %15, %23 : tensor<20xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %26 = stablehlo.add %25, %24 : tensor<20xf32>
    %27 = stablehlo.multiply %19, %26 : tensor<20xf32>
    %28 = stablehlo.add %15, %27 : tensor<20xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %29 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %30 = stablehlo.add %29, %28 : tensor<20xf32>
    %31 = stablehlo.multiply %19, %30 : tensor<20xf32>
    %32 = stablehlo.add %15, %31 : tensor<20xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %34 = stablehlo.add %33, %32 : tensor<20xf32>
    %35 = stablehlo.multiply %19, %34 : tensor<20xf32>
    %36 = stablehlo.add %15, %35 : tensor<20xf32>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %38 = stablehlo.add %37, %36 : tensor<20xf32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %40 = stablehlo.divide %39, %1 : tensor<20xf32>
    %41 = stablehlo.multiply %40, %40 : tensor<20xf32>
    %cst_8 = stablehlo.constant dense<-0.00165322958> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %43 = stablehlo.multiply %42, %38 : tensor<20xf32>
    %44 = stablehlo.multiply %43, %41 : tensor<20xf32>
    %cst_9 = stablehlo.constant dense<8.373080e-04> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %46 = stablehlo.multiply %45, %34 : tensor<20xf32>
    %47 = stablehlo.add %44, %46 : tensor<20xf32>
    %48 = stablehlo.multiply %47, %41 : tensor<20xf32>
    %cst_10 = stablehlo.constant dense<-5.95202902E-4> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %50 = stablehlo.multiply %49, %30 : tensor<20xf32>
    %51 = stablehlo.add %48, %50 : tensor<20xf32>
    %52 = stablehlo.multiply %51, %41 : tensor<20xf32>
    %cst_11 = stablehlo.constant dense<7.93650688E-4> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %54 = stablehlo.multiply %53, %26 : tensor<20xf32>
    %55 = stablehlo.add %52, %54 : tensor<20xf32>
    %56 = stablehlo.multiply %55, %41 : tensor<20xf32>
    %cst_12 = stablehlo.constant dense<-0.00277777785> : tensor<f32>
    %57 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %58 = stablehlo.multiply %57, %22 : tensor<20xf32>
    %59 = stablehlo.add %56, %58 : tensor<20xf32>
    %60 = stablehlo.multiply %59, %41 : tensor<20xf32>
    %cst_13 = stablehlo.constant dense<0.0833333358> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %62 = stablehlo.add %60, %61 : tensor<20xf32>
    %63 = stablehlo.divide %12, %1 : tensor<20xf32>
    %64 = stablehlo.multiply %62, %63 : tensor<20xf32>
    %65 = stablehlo.divide %0, %1 : tensor<20xf32>
    %66 = stablehlo.log_plus_one %65 : tensor<20xf32>
    %67 = stablehlo.multiply %18, %66 : tensor<20xf32>
    %68 = stablehlo.log %1 : tensor<20xf32>
    %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %69 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %70 = stablehlo.subtract %68, %69 : tensor<20xf32>
    %71 = stablehlo.multiply %0, %70 : tensor<20xf32>
    %72 = stablehlo.compare LE, %67, %71, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %73 = stablehlo.subtract %64, %71 : tensor<20xf32>
    %74 = stablehlo.subtract %73, %67 : tensor<20xf32>
    %75 = stablehlo.subtract %64, %67 : tensor<20xf32>
    %76 = stablehlo.subtract %75, %71 : tensor<20xf32>
    %77 = call @_where(%72, %74, %76) : (tensor<20xi1>, tensor<20xf32>, tensor<20xf32>) -> tensor<20xf32>
    %78 = stablehlo.add %8, %77 : tensor<20xf32>
    %cst_15 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %80 = stablehlo.compare LT, %1, %79, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %81 = call @_where(%80, %7, %78) : (tensor<20xi1>, tensor<20xf32>, tensor<20xf32>) -> tensor<20xf32>
    return %81 : tensor<20xf32>
  }
  func.func private @_where(%arg0: tensor<20xi1>, %arg1: tensor<20xf32>, %arg2: tensor<20xf32>) -> tensor<20xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<20xi1>, tensor<20xf32>
    return %0 : tensor<20xf32>
  }
}
