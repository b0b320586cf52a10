module @jit_betaln attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf64>, %arg1: tensor<20xf64>) -> (tensor<20xf64> {jax.result_info = "result"}) {
    %0 = stablehlo.minimum %arg0, %arg1 : tensor<20xf64>
    %1 = stablehlo.maximum %arg0, %arg1 : tensor<20xf64>
    %2 = chlo.lgamma %0 : tensor<20xf64> -> tensor<20xf64>
    %3 = chlo.lgamma %1 : tensor<20xf64> -> tensor<20xf64>
    %4 = stablehlo.add %0, %1 : tensor<20xf64>
    %5 = chlo.lgamma %4 : tensor<20xf64> -> tensor<20xf64>
    %6 = stablehlo.subtract %3, %5 : tensor<20xf64>
    %7 = stablehlo.add %2, %6 : tensor<20xf64>
    %8 = chlo.lgamma %0 : tensor<20xf64> -> tensor<20xf64>
    %9 = stablehlo.divide %0, %1 : tensor<20xf64>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %10 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %11 = stablehlo.add %10, %9 : tensor<20xf64>
    %12 = stablehlo.divide %9, %11 : tensor<20xf64>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %13 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %14 = stablehlo.add %13, %9 : tensor<20xf64>
    %15 = stablehlo.divide %9, %14 : tensor<20xf64>
    %cst_1 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %16 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %17 = stablehlo.subtract %0, %16 : tensor<20xf64>
    %18 = stablehlo.add %1, %17 : tensor<20xf64>
    %19 = stablehlo.multiply %15, %15 : tensor<20xf64>
    %20 = stablehlo.add %15, %19 : tensor<20xf64>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %21 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %22 = stablehlo.add %21, %20 : tensor<20xf64>
    %23 = stablehlo.multiply %19, %22 : tensor<20xf64>
    %24 = stablehlo.add %15, %23 : tensor<20xf64>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %25 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %26 = stablehlo.add %25, %24 : tensor<20xf64>
    %27 = stablehlo.multiply %19, %26 : tensor<20xf64>
    %28 = stablehlo.add %15, %27 : tensor<20xf64>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %29 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %30 = stablehlo.add %29, %28 : tensor<20xf64>
    %31 = stablehlo.multiply %19, %30 : tensor<20xf64>
    %32 = stablehlo.add %15, %31 : tensor<20xf64>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %33 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %34 = stablehlo.add %33, %32 : tensor<20xf64>
    %35 = stablehlo.multiply %19, %34 : tensor<20xf64>
    %36 = stablehlo.add %15, %35 : tensor<20xf64>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %37 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %38 = stablehlo.add %37, %36 : tensor<20xf64>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %39 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %40 = stablehlo.divide %39, %1 : tensor<20xf64>
    %41 = stablehlo.multiply %40, %40 : tensor<20xf64>
    %cst_8 = stablehlo.constant dense<-0.0016532296278071301> : tensor<f64>
    %42 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %43 = stablehlo.multiply %42, %38 : tensor<20xf64>
    %44 = stablehlo.multiply %43, %41 : tensor<20xf64>
    %cst_9 = stablehlo.constant dense<8.3730803403121495E-4> : tensor<f64>
    %45 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %46 = stablehlo.multiply %45, %34 : tensor<20xf64>
    %47 = stablehlo.add %44, %46 : tensor<20xf64>
    %48 = stablehlo.multiply %47, %41 : tensor<20xf64>
    %cst_10 = stablehlo.constant dense<-5.9520293135187005E-4> : tensor<f64>
    %49 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %50 = stablehlo.multiply %49, %30 : tensor<20xf64>
    %51 = stablehlo.add %48, %50 : tensor<20xf64>
    %52 = stablehlo.multiply %51, %41 : tensor<20xf64>
    %cst_11 = stablehlo.constant dense<7.9365066682538996E-4> : tensor<f64>
    %53 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %54 = stablehlo.multiply %53, %26 : tensor<20xf64>
    %55 = stablehlo.add %52, %54 : tensor<20xf64>
    %56 = stablehlo.multiply %55, %41 : tensor<20xf64>
    %cst_12 = stablehlo.constant dense<-0.00277777777760991> : tensor<f64>
    %57 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %58 = stablehlo.multiply %57, %22 : tensor<20xf64>
    %59 = stablehlo.add %56, %58 : tensor<20xf64>
    %60 = stablehlo.multiply %59, %41 : tensor<20xf64>
    %cst_13 = stablehlo.constant dense<0.083333333333333301> : tensor<f64>
    %61 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %62 = stablehlo.add %60, %61 : tensor<20xf64>
    %63 = stablehlo.divide %12, %1 : tensor<20xf64>
    %64 = stablehlo.multiply %62, %63 : tensor<20xf64>
    %65 = stablehlo.divide %0, %1 : tensor<20xf64>
    %66 = stablehlo.log_plus_one %65 : tensor<20xf64>
    %67 = stablehlo.multiply %18, %66 : tensor<20xf64>
    %68 = stablehlo.log %1 : tensor<20xf64>
    %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %69 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %70 = stablehlo.subtract %68, %69 : tensor<20xf64>
    %71 = stablehlo.multiply %0, %70 : tensor<20xf64>
    %72 = stablehlo.compare LE, %67, %71, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %73 = stablehlo.subtract %64, %71 : tensor<20xf64>
    %74 = stablehlo.subtract %73, %67 : tensor<20xf64>
    %75 = stablehlo.subtract %64, %67 : tensor<20xf64>
    %76 = stablehlo.subtract %75, %71 : tensor<20xf64>
    %77 = call @_where(%72, %74, %76) : (tensor<20xi1>, tensor<20xf64>, tensor<20xf64>) -> tensor<20xf64>
    %78 = stablehlo.add %8, %77 : tensor<20xf64>
    %cst_15 = stablehlo.constant dense<8.000000e+00> : tensor<f64>
    %79 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %80 = stablehlo.compare LT, %1, %79, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %81 = call @_where(%80, %7, %78) : (tensor<20xi1>, tensor<20xf64>, tensor<20xf64>) -> tensor<20xf64>
    return %81 : tensor<20xf64>
  }
  func.func private @_where(%arg0: tensor<20xi1>, %arg1: tensor<20xf64>, %arg2: tensor<20xf64>) -> tensor<20xf64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<20xi1>, tensor<20xf64>
    return %0 : tensor<20xf64>
  }
}
