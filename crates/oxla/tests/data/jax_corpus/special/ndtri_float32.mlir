module @jit_ndtri attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf32>) -> (tensor<20xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<[-59.9633484, 98.0010757, -56.6762848, 13.9312611, -1.23916578]> : tensor<5xf32>
    %cst_0 = stablehlo.constant dense<[1.000000e+00, 1.95448864, 4.67627907, 86.3602447, -225.462692, 200.260208, -82.0372238, 15.9056225, -1.18331623]> : tensor<9xf32>
    %cst_1 = stablehlo.constant dense<[3.23774886, 6.91522884, 3.93881035, 1.33303463, 0.201485395, 0.0123716639, 3.01581546E-4, 2.65806966E-6, 6.23974561E-9]> : tensor<9xf32>
    %cst_2 = stablehlo.constant dense<[1.000000e+00, 6.02427053, 3.67983556, 1.37702096, 2.162370e-01, 1.342040e-02, 3.28014459E-4, 2.89247873E-6, 6.79019418E-9]> : tensor<9xf32>
    %cst_3 = stablehlo.constant dense<[4.05544901, 31.5251102, 57.1628189, 44.0805092, 14.6849566, 2.18663311, -0.140256077, -0.035042461, -8.57456762E-4]> : tensor<9xf32>
    %cst_4 = stablehlo.constant dense<[1.000000e+00, 15.7799883, 45.3907623, 41.3172035, 15.0425386, 2.5046494, -0.142182916, -0.0380806401, -9.33259492E-4]> : tensor<9xf32>
    %cst_5 = stablehlo.constant dense<0.864664733> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %3 = stablehlo.subtract %2, %arg0 : tensor<20xf32>
    %4 = call @_where(%1, %3, %arg0) : (tensor<20xi1>, tensor<20xf32>, tensor<20xf32>) -> tensor<20xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %6 = stablehlo.compare EQ, %4, %5, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %cst_8 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %8 = call @_where(%6, %7, %4) : (tensor<20xi1>, tensor<20xf32>, tensor<20xf32>) -> tensor<20xf32>
    %cst_9 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %10 = stablehlo.subtract %8, %9 : tensor<20xf32>
    %11 = chlo.square %10 : tensor<20xf32> -> tensor<20xf32>
    %12 = stablehlo.multiply %10, %11 : tensor<20xf32>
    %13 = call @polyval(%cst, %11) : (tensor<5xf32>, tensor<20xf32>) -> tensor<20xf32>
    %14 = call @polyval_0(%cst_0, %11) : (tensor<9xf32>, tensor<20xf32>) -> tensor<20xf32>
    %15 = stablehlo.divide %13, %14 : tensor<20xf32>
    %16 = stablehlo.multiply %12, %15 : tensor<20xf32>
    %17 = stablehlo.add %10, %16 : tensor<20xf32>
    %cst_10 = stablehlo.constant dense<-2.50662827> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %19 = stablehlo.multiply %17, %18 : tensor<20xf32>
    %20 = stablehlo.log %8 : tensor<20xf32>
    %cst_11 = stablehlo.constant dense<-2.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %22 = stablehlo.multiply %21, %20 : tensor<20xf32>
    %23 = stablehlo.sqrt %22 : tensor<20xf32>
    %24 = stablehlo.log %23 : tensor<20xf32>
    %25 = stablehlo.divide %24, %23 : tensor<20xf32>
    %26 = stablehlo.subtract %23, %25 : tensor<20xf32>
    %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %28 = stablehlo.divide %27, %23 : tensor<20xf32>
    %29 = call @polyval_0(%cst_1, %28) : (tensor<9xf32>, tensor<20xf32>) -> tensor<20xf32>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %30 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %31 = stablehlo.divide %30, %23 : tensor<20xf32>
    %32 = call @polyval_0(%cst_2, %31) : (tensor<9xf32>, tensor<20xf32>) -> tensor<20xf32>
    %33 = stablehlo.divide %29, %32 : tensor<20xf32>
    %34 = stablehlo.divide %33, %23 : tensor<20xf32>
    %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %36 = stablehlo.divide %35, %23 : tensor<20xf32>
    %37 = call @polyval_0(%cst_3, %36) : (tensor<9xf32>, tensor<20xf32>) -> tensor<20xf32>
    %cst_15 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %39 = stablehlo.divide %38, %23 : tensor<20xf32>
    %40 = call @polyval_0(%cst_4, %39) : (tensor<9xf32>, tensor<20xf32>) -> tensor<20xf32>
    %41 = stablehlo.divide %37, %40 : tensor<20xf32>
    %42 = stablehlo.divide %41, %23 : tensor<20xf32>
    %43 = stablehlo.subtract %26, %34 : tensor<20xf32>
    %44 = stablehlo.subtract %26, %42 : tensor<20xf32>
    %cst_16 = stablehlo.constant dense<0.135335281> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %46 = stablehlo.compare GT, %8, %45, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %cst_17 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %48 = stablehlo.compare GE, %23, %47, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %49 = call @_where(%48, %43, %44) : (tensor<20xi1>, tensor<20xf32>, tensor<20xf32>) -> tensor<20xf32>
    %50 = call @_where(%46, %19, %49) : (tensor<20xi1>, tensor<20xf32>, tensor<20xf32>) -> tensor<20xf32>
    %cst_18 = stablehlo.constant dense<0.864664733> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %52 = stablehlo.compare GT, %arg0, %51, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %53 = stablehlo.negate %50 : tensor<20xf32>
    %54 = call @_where(%52, %50, %53) : (tensor<20xi1>, tensor<20xf32>, tensor<20xf32>) -> tensor<20xf32>
    %cst_19 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %55 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %57 = stablehlo.compare EQ, %arg0, %56, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %58 = stablehlo.negate %55 : tensor<20xf32>
    %cst_21 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %60 = stablehlo.compare EQ, %arg0, %59, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %61 = call @_where(%60, %55, %54) : (tensor<20xi1>, tensor<20xf32>, tensor<20xf32>) -> tensor<20xf32>
    %62 = call @_where(%57, %58, %61) : (tensor<20xi1>, tensor<20xf32>, tensor<20xf32>) -> tensor<20xf32>
    return %62 : tensor<20xf32>
  }
  func.func private @_where(%arg0: tensor<20xi1>, %arg1: tensor<20xf32>, %arg2: tensor<20xf32>) -> tensor<20xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<20xi1>, tensor<20xf32>
    return %0 : tensor<20xf32>
  }
  func.func private @polyval(%arg0: tensor<5xf32>, %arg1: tensor<20xf32>) -> tensor<20xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %1 = stablehlo.slice %arg0 [0:0] : (tensor<5xf32>) -> tensor<0xf32>
    %2 = stablehlo.slice %arg0 [0:5] : (tensor<5xf32>) -> tensor<5xf32>
    %3 = stablehlo.slice %2 [0:1] : (tensor<5xf32>) -> tensor<1xf32>
    %4 = stablehlo.reshape %3 : (tensor<1xf32>) -> tensor<f32>
    %5 = call @closed_call(%arg1, %0, %4) : (tensor<20xf32>, tensor<20xf32>, tensor<f32>) -> tensor<20xf32>
    %6 = stablehlo.slice %2 [1:2] : (tensor<5xf32>) -> tensor<1xf32>
    %7 = stablehlo.reshape %6 : (tensor<1xf32>) -> tensor<f32>
    %8 = call @closed_call(%arg1, %5, %7) : (tensor<20xf32>, tensor<20xf32>, tensor<f32>) -> tensor<20xf32>
    %9 = stablehlo.slice %2 [2:3] : (tensor<5xf32>) -> tensor<1xf32>
    %10 = stablehlo.reshape %9 : (tensor<1xf32>) -> tensor<f32>
    %11 = call @closed_call(%arg1, %8, %10) : (tensor<20xf32>, tensor<20xf32>, tensor<f32>) -> tensor<20xf32>
    %12 = stablehlo.slice %2 [3:4] : (tensor<5xf32>) -> tensor<1xf32>
    %13 = stablehlo.reshape %12 : (tensor<1xf32>) -> tensor<f32>
    %14 = call @closed_call(%arg1, %11, %13) : (tensor<20xf32>, tensor<20xf32>, tensor<f32>) -> tensor<20xf32>
    %15 = stablehlo.slice %2 [4:5] : (tensor<5xf32>) -> tensor<1xf32>
    %16 = stablehlo.reshape %15 : (tensor<1xf32>) -> tensor<f32>
    %17 = call @closed_call(%arg1, %14, %16) : (tensor<20xf32>, tensor<20xf32>, tensor<f32>) -> tensor<20xf32>
    return %17 : tensor<20xf32>
  }
  func.func private @closed_call(%arg0: tensor<20xf32>, %arg1: tensor<20xf32>, %arg2: tensor<f32>) -> tensor<20xf32> {
    %0 = stablehlo.multiply %arg1, %arg0 : tensor<20xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %2 = stablehlo.add %0, %1 : tensor<20xf32>
    return %2 : tensor<20xf32>
  }
  func.func private @polyval_0(%arg0: tensor<9xf32>, %arg1: tensor<20xf32>) -> tensor<20xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %1 = stablehlo.slice %arg0 [0:0] : (tensor<9xf32>) -> tensor<0xf32>
    %2 = stablehlo.slice %arg0 [0:9] : (tensor<9xf32>) -> tensor<9xf32>
    %3 = stablehlo.slice %2 [0:1] : (tensor<9xf32>) -> tensor<1xf32>
    %4 = stablehlo.reshape %3 : (tensor<1xf32>) -> tensor<f32>
    %5 = call @closed_call_1(%arg1, %0, %4) : (tensor<20xf32>, tensor<20xf32>, tensor<f32>) -> tensor<20xf32>
    %6 = stablehlo.slice %2 [1:2] : (tensor<9xf32>) -> tensor<1xf32>
    %7 = stablehlo.reshape %6 : (tensor<1xf32>) -> tensor<f32>
    %8 = call @closed_call_1(%arg1, %5, %7) : (tensor<20xf32>, tensor<20xf32>, tensor<f32>) -> tensor<20xf32>
    %9 = stablehlo.slice %2 [2:3] : (tensor<9xf32>) -> tensor<1xf32>
    %10 = stablehlo.reshape %9 : (tensor<1xf32>) -> tensor<f32>
    %11 = call @closed_call_1(%arg1, %8, %10) : (tensor<20xf32>, tensor<20xf32>, tensor<f32>) -> tensor<20xf32>
    %12 = stablehlo.slice %2 [3:4] : (tensor<9xf32>) -> tensor<1xf32>
    %13 = stablehlo.reshape %12 : (tensor<1xf32>) -> tensor<f32>
    %14 = call @closed_call_1(%arg1, %11, %13) : (tensor<20xf32>, tensor<20xf32>, tensor<f32>) -> tensor<20xf32>
    %15 = stablehlo.slice %2 [4:5] : (tensor<9xf32>) -> tensor<1xf32>
    %16 = stablehlo.reshape %15 : (tensor<1xf32>) -> tensor<f32>
    %17 = call @closed_call_1(%arg1, %14, %16) : (tensor<20xf32>, tensor<20xf32>, tensor<f32>) -> tensor<20xf32>
    %18 = stablehlo.slice %2 [5:6] : (tensor<9xf32>) -> tensor<1xf32>
    %19 = stablehlo.reshape %18 : (tensor<1xf32>) -> tensor<f32>
    %20 = call @closed_call_1(%arg1, %17, %19) : (tensor<20xf32>, tensor<20xf32>, tensor<f32>) -> tensor<20xf32>
    %21 = stablehlo.slice %2 [6:7] : (tensor<9xf32>) -> tensor<1xf32>
    %22 = stablehlo.reshape %21 : (tensor<1xf32>) -> tensor<f32>
    %23 = call @closed_call_1(%arg1, %20, %22) : (tensor<20xf32>, tensor<20xf32>, tensor<f32>) -> tensor<20xf32>
    %24 = stablehlo.slice %2 [7:8] : (tensor<9xf32>) -> tensor<1xf32>
    %25 = stablehlo.reshape %24 : (tensor<1xf32>) -> tensor<f32>
    %26 = call @closed_call_1(%arg1, %23, %25) : (tensor<20xf32>, tensor<20xf32>, tensor<f32>) -> tensor<20xf32>
    %27 = stablehlo.slice %2 [8:9] : (tensor<9xf32>) -> tensor<1xf32>
    %28 = stablehlo.reshape %27 : (tensor<1xf32>) -> tensor<f32>
    %29 = call @closed_call_1(%arg1, %26, %28) : (tensor<20xf32>, tensor<20xf32>, tensor<f32>) -> tensor<20xf32>
    return %29 : tensor<20xf32>
  }
  func.func private @closed_call_1(%arg0: tensor<20xf32>, %arg1: tensor<20xf32>, %arg2: tensor<f32>) -> tensor<20xf32> {
    %0 = stablehlo.multiply %arg1, %arg0 : tensor<20xf32>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %2 = stablehlo.add %0, %1 : tensor<20xf32>
    return %2 : tensor<20xf32>
  }
}
