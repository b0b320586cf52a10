module @jit_ndtri attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf64>) -> (tensor<20xf64> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<[-59.963350101410789, 98.001075418599967, -56.676285746907027, 13.931260938727968, -1.2391658386738125]> : tensor<5xf64>
    %cst_0 = stablehlo.constant dense<[1.000000e+00, 1.9544885833814176, 4.6762791289888153, 86.360242139089053, -225.46268785411937, 200.26021238006066, -82.037225616833339, 15.90562251262117, -1.1833162112133]> : tensor<9xf64>
    %cst_1 = stablehlo.constant dense<[3.2377489177694603, 6.9152288906898418, 3.9388102529247444, 1.3330346081580755, 0.20148538954917908, 0.012371663481782003, 3.0158155350823543E-4, 2.6580697468673755E-6, 6.2397453918498331E-9]> : tensor<9xf64>
    %cst_2 = stablehlo.constant dense<[1.000000e+00, 6.02427039364742, 3.6798356385616087, 1.3770209948908132, 0.21623699359449663, 0.013420400608854318, 3.2801446468212774E-4, 2.8924786474538068E-6, 6.7901940800998127E-9]> : tensor<9xf64>
    %cst_3 = stablehlo.constant dense<[4.0554489230596245, 31.525109459989388, 57.162819224642128, 44.080507389320083, 14.684956192885803, 2.1866330685079025, -0.14025607917135449, -0.035042462682784818, -8.5745678515468544E-4]> : tensor<9xf64>
    %cst_4 = stablehlo.constant dense<[1.000000e+00, 15.779988325646675, 45.390763512887922, 41.317203825467203, 15.04253856929075, 2.5046494620830941, -0.14218292285478779, -0.038080640769157827, -9.3325948089545744E-4]> : tensor<9xf64>
    %cst_5 = stablehlo.constant dense<0.8646647167633873> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %2 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %3 = stablehlo.subtract %2, %arg0 : tensor<20xf64>
    %4 = call @_where(%1, %3, %arg0) : (tensor<20xi1>, tensor<20xf64>, tensor<20xf64>) -> tensor<20xf64>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %5 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %6 = stablehlo.compare EQ, %4, %5, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %cst_8 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %7 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %8 = call @_where(%6, %7, %4) : (tensor<20xi1>, tensor<20xf64>, tensor<20xf64>) -> tensor<20xf64>
    %cst_9 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %9 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %10 = stablehlo.subtract %8, %9 : tensor<20xf64>
    %11 = chlo.square %10 : tensor<20xf64> -> tensor<20xf64>
    %12 = stablehlo.multiply %10, %11 : tensor<20xf64>
    %13 = call @polyval(%cst, %11) : (tensor<5xf64>, tensor<20xf64>) -> tensor<20xf64>
    %14 = call @polyval_0(%cst_0, %11) : (tensor<9xf64>, tensor<20xf64>) -> tensor<20xf64>
    %15 = stablehlo.divide %13, %14 : tensor<20xf64>
    %16 = stablehlo.multiply %12, %15 : tensor<20xf64>
    %17 = stablehlo.add %10, %16 : tensor<20xf64>
    %cst_10 = stablehlo.constant dense<-2.5066282746310002> : tensor<f64>
    %18 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %19 = stablehlo.multiply %17, %18 : tensor<20xf64>
    %20 = stablehlo.log %8 : tensor<20xf64>
    %cst_11 = stablehlo.constant dense<-2.000000e+00> : tensor<f64>
    %21 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %22 = stablehlo.multiply %21, %20 : tensor<20xf64>
    %23 = stablehlo.sqrt %22 : tensor<20xf64>
    %24 = stablehlo.log %23 : tensor<20xf64>
    %25 = stablehlo.divide %24, %23 : tensor<20xf64>
    %26 = stablehlo.subtract %23, %25 : tensor<20xf64>
    %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %27 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %28 = stablehlo.divide %27, %23 : tensor<20xf64>
    %29 = call @polyval_0(%cst_1, %28) : (tensor<9xf64>, tensor<20xf64>) -> tensor<20xf64>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %30 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %31 = stablehlo.divide %30, %23 : tensor<20xf64>
    %32 = call @polyval_0(%cst_2, %31) : (tensor<9xf64>, tensor<20xf64>) -> tensor<20xf64>
    %33 = stablehlo.divide %29, %32 : tensor<20xf64>
    %34 = stablehlo.divide %33, %23 : tensor<20xf64>
    %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %35 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %36 = stablehlo.divide %35, %23 : tensor<20xf64>
    %37 = call @polyval_0(%cst_3, %36) : (tensor<9xf64>, tensor<20xf64>) -> tensor<20xf64>
    %cst_15 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %38 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %39 = stablehlo.divide %38, %23 : tensor<20xf64>
    %40 = call @polyval_0(%cst_4, %39) : (tensor<9xf64>, tensor<20xf64>) -> tensor<20xf64>
    %41 = stablehlo.divide %37, %40 : tensor<20xf64>
    %42 = stablehlo.divide %41, %23 : tensor<20xf64>
    %43 = stablehlo.subtract %26, %34 : tensor<20xf64>
    %44 = stablehlo.subtract %26, %42 : tensor<20xf64>
    %cst_16 = stablehlo.constant dense<0.1353352832366127> : tensor<f64>
    %45 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %46 = stablehlo.compare GT, %8, %45, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %cst_17 = stablehlo.constant dense<8.000000e+00> : tensor<f64>
    %47 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %48 = stablehlo.compare GE, %23, %47, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %49 = call @_where(%48, %43, %44) : (tensor<20xi1>, tensor<20xf64>, tensor<20xf64>) -> tensor<20xf64>
    %50 = call @_where(%46, %19, %49) : (tensor<20xi1>, tensor<20xf64>, tensor<20xf64>) -> tensor<20xf64>
    %cst_18 = stablehlo.constant dense<0.8646647167633873> : tensor<f64>
    %51 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %52 = stablehlo.compare GT, %arg0, %51, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %53 = stablehlo.negate %50 : tensor<20xf64>
    %54 = call @_where(%52, %50, %53) : (tensor<20xi1>, tensor<20xf64>, tensor<20xf64>) -> tensor<20xf64>
    %cst_19 = stablehlo.constant dense<0x7FF0000000000000> : tensor<f64>
    %55 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %56 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %57 = stablehlo.compare EQ, %arg0, %56, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %58 = stablehlo.negate %55 : tensor<20xf64>
    %cst_21 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %59 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %60 = stablehlo.compare EQ, %arg0, %59, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %61 = call @_where(%60, %55, %54) : (tensor<20xi1>, tensor<20xf64>, tensor<20xf64>) -> tensor<20xf64>
    %62 = call @_where(%57, %58, %61) : (tensor<20xi1>, tensor<20xf64>, tensor<20xf64>) -> tensor<20xf64>
    return %62 : tensor<20xf64>
  }
  func.func private @_where(%arg0: tensor<20xi1>, %arg1: tensor<20xf64>, %arg2: tensor<20xf64>) -> tensor<20xf64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<20xi1>, tensor<20xf64>
    return %0 : tensor<20xf64>
  }
  func.func private @polyval(%arg0: tensor<5xf64>, %arg1: tensor<20xf64>) -> tensor<20xf64> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %1 = stablehlo.slice %arg0 [0:0] : (tensor<5xf64>) -> tensor<0xf64>
    %2 = stablehlo.slice %arg0 [0:5] : (tensor<5xf64>) -> tensor<5xf64>
    %3 = stablehlo.slice %2 [0:1] : (tensor<5xf64>) -> tensor<1xf64>
    %4 = stablehlo.reshape %3 : (tensor<1xf64>) -> tensor<f64>
    %5 = call @closed_call(%arg1, %0, %4) : (tensor<20xf64>, tensor<20xf64>, tensor<f64>) -> tensor<20xf64>
    %6 = stablehlo.slice %2 [1:2] : (tensor<5xf64>) -> tensor<1xf64>
    %7 = stablehlo.reshape %6 : (tensor<1xf64>) -> tensor<f64>
    %8 = call @closed_call(%arg1, %5, %7) : (tensor<20xf64>, tensor<20xf64>, tensor<f64>) -> tensor<20xf64>
    %9 = stablehlo.slice %2 [2:3] : (tensor<5xf64>) -> tensor<1xf64>
    %10 = stablehlo.reshape %9 : (tensor<1xf64>) -> tensor<f64>
    %11 = call @closed_call(%arg1, %8, %10) : (tensor<20xf64>, tensor<20xf64>, tensor<f64>) -> tensor<20xf64>
    %12 = stablehlo.slice %2 [3:4] : (tensor<5xf64>) -> tensor<1xf64>
    %13 = stablehlo.reshape %12 : (tensor<1xf64>) -> tensor<f64>
    %14 = call @closed_call(%arg1, %11, %13) : (tensor<20xf64>, tensor<20xf64>, tensor<f64>) -> tensor<20xf64>
    %15 = stablehlo.slice %2 [4:5] : (tensor<5xf64>) -> tensor<1xf64>
    %16 = stablehlo.reshape %15 : (tensor<1xf64>) -> tensor<f64>
    %17 = call @closed_call(%arg1, %14, %16) : (tensor<20xf64>, tensor<20xf64>, tensor<f64>) -> tensor<20xf64>
    return %17 : tensor<20xf64>
  }
  func.func private @closed_call(%arg0: tensor<20xf64>, %arg1: tensor<20xf64>, %arg2: tensor<f64>) -> tensor<20xf64> {
    %0 = stablehlo.multiply %arg1, %arg0 : tensor<20xf64>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %2 = stablehlo.add %0, %1 : tensor<20xf64>
    return %2 : tensor<20xf64>
  }
  func.func private @polyval_0(%arg0: tensor<9xf64>, %arg1: tensor<20xf64>) -> tensor<20xf64> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %1 = stablehlo.slice %arg0 [0:0] : (tensor<9xf64>) -> tensor<0xf64>
    %2 = stablehlo.slice %arg0 [0:9] : (tensor<9xf64>) -> tensor<9xf64>
    %3 = stablehlo.slice %2 [0:1] : (tensor<9xf64>) -> tensor<1xf64>
    %4 = stablehlo.reshape %3 : (tensor<1xf64>) -> tensor<f64>
    %5 = call @closed_call_1(%arg1, %0, %4) : (tensor<20xf64>, tensor<20xf64>, tensor<f64>) -> tensor<20xf64>
    %6 = stablehlo.slice %2 [1:2] : (tensor<9xf64>) -> tensor<1xf64>
    %7 = stablehlo.reshape %6 : (tensor<1xf64>) -> tensor<f64>
    %8 = call @closed_call_1(%arg1, %5, %7) : (tensor<20xf64>, tensor<20xf64>, tensor<f64>) -> tensor<20xf64>
    %9 = stablehlo.slice %2 [2:3] : (tensor<9xf64>) -> tensor<1xf64>
    %10 = stablehlo.reshape %9 : (tensor<1xf64>) -> tensor<f64>
    %11 = call @closed_call_1(%arg1, %8, %10) : (tensor<20xf64>, tensor<20xf64>, tensor<f64>) -> tensor<20xf64>
    %12 = stablehlo.slice %2 [3:4] : (tensor<9xf64>) -> tensor<1xf64>
    %13 = stablehlo.reshape %12 : (tensor<1xf64>) -> tensor<f64>
    %14 = call @closed_call_1(%arg1, %11, %13) : (tensor<20xf64>, tensor<20xf64>, tensor<f64>) -> tensor<20xf64>
    %15 = stablehlo.slice %2 [4:5] : (tensor<9xf64>) -> tensor<1xf64>
    %16 = stablehlo.reshape %15 : (tensor<1xf64>) -> tensor<f64>
    %17 = call @closed_call_1(%arg1, %14, %16) : (tensor<20xf64>, tensor<20xf64>, tensor<f64>) -> tensor<20xf64>
    %18 = stablehlo.slice %2 [5:6] : (tensor<9xf64>) -> tensor<1xf64>
    %19 = stablehlo.reshape %18 : (tensor<1xf64>) -> tensor<f64>
    %20 = call @closed_call_1(%arg1, %17, %19) : (tensor<20xf64>, tensor<20xf64>, tensor<f64>) -> tensor<20xf64>
    %21 = stablehlo.slice %2 [6:7] : (tensor<9xf64>) -> tensor<1xf64>
    %22 = stablehlo.reshape %21 : (tensor<1xf64>) -> tensor<f64>
    %23 = call @closed_call_1(%arg1, %20, %22) : (tensor<20xf64>, tensor<20xf64>, tensor<f64>) -> tensor<20xf64>
    %24 = stablehlo.slice %2 [7:8] : (tensor<9xf64>) -> tensor<1xf64>
    %25 = stablehlo.reshape %24 : (tensor<1xf64>) -> tensor<f64>
    %26 = call @closed_call_1(%arg1, %23, %25) : (tensor<20xf64>, tensor<20xf64>, tensor<f64>) -> tensor<20xf64>
    %27 = stablehlo.slice %2 [8:9] : (tensor<9xf64>) -> tensor<1xf64>
    %28 = stablehlo.reshape %27 : (tensor<1xf64>) -> tensor<f64>
    %29 = call @closed_call_1(%arg1, %26, %28) : (tensor<20xf64>, tensor<20xf64>, tensor<f64>) -> tensor<20xf64>
    return %29 : tensor<20xf64>
  }
  func.func private @closed_call_1(%arg0: tensor<20xf64>, %arg1: tensor<20xf64>, %arg2: tensor<f64>) -> tensor<20xf64> {
    %0 = stablehlo.multiply %arg1, %arg0 : tensor<20xf64>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %2 = stablehlo.add %0, %1 : tensor<20xf64>
    return %2 : tensor<20xf64>
  }
}
