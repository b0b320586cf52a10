module @jit_log_ndtr attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf64>) -> (tensor<20xf64> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<8.000000e+00> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %2 = stablehlo.negate %arg0 : tensor<20xf64>
    %cst_0 = stablehlo.constant dense<-2.000000e+01> : tensor<f64>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %4 = stablehlo.maximum %arg0, %3 : tensor<20xf64>
    %5 = call @_where(%1, %2, %4) : (tensor<20xi1>, tensor<20xf64>, tensor<20xf64>) -> tensor<20xf64>
    %cst_1 = stablehlo.constant dense<0.70710678118654757> : tensor<f64>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %7 = stablehlo.multiply %5, %6 : tensor<20xf64>
    %8 = stablehlo.abs %7 : tensor<20xf64>
    %cst_2 = stablehlo.constant dense<0.70710678118654757> : tensor<f64>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %10 = stablehlo.compare LT, %8, %9, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %11 = chlo.erf %7 : tensor<20xf64> -> tensor<20xf64>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %12 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %13 = stablehlo.add %12, %11 : tensor<20xf64>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %14 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %15 = stablehlo.compare GT, %7, %14, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %16 = chlo.erfc %8 : tensor<20xf64> -> tensor<20xf64>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %17 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %18 = stablehlo.subtract %17, %16 : tensor<20xf64>
    %19 = chlo.erfc %8 : tensor<20xf64> -> tensor<20xf64>
    %20 = stablehlo.select %15, %18, %19 : tensor<20xi1>, tensor<20xf64>
    %21 = stablehlo.select %10, %13, %20 : tensor<20xi1>, tensor<20xf64>
    %cst_6 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %22 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %23 = stablehlo.multiply %22, %21 : tensor<20xf64>
    %24 = stablehlo.negate %23 : tensor<20xf64>
    %cst_7 = stablehlo.constant dense<-2.000000e+01> : tensor<f64>
    %25 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %26 = stablehlo.compare GT, %arg0, %25, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %27 = stablehlo.log %23 : tensor<20xf64>
    %cst_8 = stablehlo.constant dense<-2.000000e+01> : tensor<f64>
    %28 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %29 = stablehlo.minimum %arg0, %28 : tensor<20xf64>
    %30 = chlo.square %29 : tensor<20xf64> -> tensor<20xf64>
    %cst_9 = stablehlo.constant dense<-5.000000e-01> : tensor<f64>
    %31 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %32 = stablehlo.multiply %31, %30 : tensor<20xf64>
    %33 = stablehlo.negate %29 : tensor<20xf64>
    %34 = stablehlo.log %33 : tensor<20xf64>
    %35 = stablehlo.subtract %32, %34 : tensor<20xf64>
    %cst_10 = stablehlo.constant dense<0.91893853320467266> : tensor<f64>
    %36 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %37 = stablehlo.subtract %35, %36 : tensor<20xf64>
    %38 = chlo.square %29 : tensor<20xf64> -> tensor<20xf64>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %39 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %40 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %41 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %42 = stablehlo.divide %41, %38 : tensor<20xf64>
    %43 = stablehlo.add %40, %42 : tensor<20xf64>
    %44 = stablehlo.multiply %38, %38 : tensor<20xf64>
    %cst_14 = stablehlo.constant dense<3.000000e+00> : tensor<f64>
    %45 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %46 = stablehlo.divide %45, %44 : tensor<20xf64>
    %47 = stablehlo.add %39, %46 : tensor<20xf64>
    %48 = stablehlo.multiply %44, %38 : tensor<20xf64>
    %cst_15 = stablehlo.constant dense<1.500000e+01> : tensor<f64>
    %49 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %50 = stablehlo.divide %49, %48 : tensor<20xf64>
    %51 = stablehlo.add %43, %50 : tensor<20xf64>
    %52 = stablehlo.multiply %48, %38 : tensor<20xf64>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %53 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %54 = stablehlo.add %53, %47 : tensor<20xf64>
    %55 = stablehlo.subtract %54, %51 : tensor<20xf64>
    %56 = stablehlo.log %55 : tensor<20xf64>
    %57 = stablehlo.add %37, %56 : tensor<20xf64>
    %58 = call @_where(%26, %27, %57) : (tensor<20xi1>, tensor<20xf64>, tensor<20xf64>) -> tensor<20xf64>
    %59 = call @_where(%1, %24, %58) : (tensor<20xi1>, tensor<20xf64>, tensor<20xf64>) -> tensor<20xf64>
    return %59 : tensor<20xf64>
  }
  func.func private @_where(%arg0: tensor<20xi1>, %arg1: tensor<20xf64>, %arg2: tensor<20xf64>) -> tensor<20xf64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<20xi1>, tensor<20xf64>
    return %0 : tensor<20xf64>
  }
}
