module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2xui32>) -> (tensor<6xf64> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %cst_0 = stablehlo.constant dense<3.000000e+00> : tensor<f64>
    %0 = call @_beta(%arg0, %cst, %cst_0) : (tensor<2xui32>, tensor<f64>, tensor<f64>) -> tensor<6xf64>
    return %0 : tensor<6xf64>
  }
  func.func private @_beta(%arg0: tensor<2xui32>, %arg1: tensor<f64>, %arg2: tensor<f64>) -> tensor<6xf64> {
    %0 = stablehlo.convert %arg1 : tensor<f64>
    %1 = stablehlo.convert %arg2 : tensor<f64>
    %2 = call @_threefry_split(%arg0) : (tensor<2xui32>) -> tensor<2x2xui32>
    %3 = stablehlo.slice %2 [0:1, 0:2] : (tensor<2x2xui32>) -> tensor<1x2xui32>
    %4 = stablehlo.reshape %3 : (tensor<1x2xui32>) -> tensor<2xui32>
    %5 = stablehlo.slice %2 [1:2, 0:2] : (tensor<2x2xui32>) -> tensor<1x2xui32>
    %6 = stablehlo.reshape %5 : (tensor<1x2xui32>) -> tensor<2xui32>
    %7 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %8 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %9 = call @_gamma(%4, %7) : (tensor<2xui32>, tensor<6xf64>) -> tensor<6xf64>
    %10 = call @_gamma(%6, %8) : (tensor<2xui32>, tensor<6xf64>) -> tensor<6xf64>
    %11 = stablehlo.maximum %9, %10 : tensor<6xf64>
    %12 = stablehlo.subtract %9, %11 : tensor<6xf64>
    %13 = stablehlo.exponential %12 : tensor<6xf64>
    %14 = stablehlo.subtract %10, %11 : tensor<6xf64>
    %15 = stablehlo.exponential %14 : tensor<6xf64>
    %16 = stablehlo.add %13, %15 : tensor<6xf64>
    %17 = stablehlo.divide %13, %16 : tensor<6xf64>
    return %17 : tensor<6xf64>
  }
  func.func private @_threefry_split(%arg0: tensor<2xui32>) -> tensor<2x2xui32> {
    %0 = stablehlo.slice %arg0 [0:1] : (tensor<2xui32>) -> tensor<1xui32>
    %1 = stablehlo.reshape %0 : (tensor<1xui32>) -> tensor<ui32>
    %2 = stablehlo.slice %arg0 [1:2] : (tensor<2xui32>) -> tensor<1xui32>
    %3 = stablehlo.reshape %2 : (tensor<1xui32>) -> tensor<ui32>
    %4 = stablehlo.iota dim = 0 : tensor<2xui64>
    %c = stablehlo.constant dense<1> : tensor<ui64>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<2xui64>
    %6 = stablehlo.multiply %5, %4 : tensor<2xui64>
    %c_0 = stablehlo.constant dense<32> : tensor<ui64>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<2xui64>
    %8 = stablehlo.shift_right_logical %6, %7 : tensor<2xui64>
    %9 = stablehlo.convert %6 : (tensor<2xui64>) -> tensor<2xui32>
    %10 = stablehlo.convert %8 : (tensor<2xui64>) -> tensor<2xui32>
    %11:2 = call @threefry2x32(%1, %3, %10, %9) : (tensor<ui32>, tensor<ui32>, tensor<2xui32>, tensor<2xui32>) -> (tensor<2xui32>, tensor<2xui32>)
    %12 = stablehlo.broadcast_in_dim %11#0, dims = [0] : (tensor<2xui32>) -> tensor<2x1xui32>
    %13 = stablehlo.broadcast_in_dim %11#1, dims = [0] : (tensor<2xui32>) -> tensor<2x1xui32>
    %14 = stablehlo.concatenate %12, %13, dim = 1 : (tensor<2x1xui32>, tensor<2x1xui32>) -> tensor<2x2xui32>
    return %14 : tensor<2x2xui32>
  }
  func.func private @threefry2x32(%arg0: tensor<ui32>, %arg1: tensor<ui32>, %arg2: tensor<2xui32>, %arg3: tensor<2xui32>) -> (tensor<2xui32>, tensor<2xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<ui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.xor %0, %c_1 : tensor<ui32>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %3 = stablehlo.add %arg2, %2 : tensor<2xui32>
    %4 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %5 = stablehlo.add %arg3, %4 : tensor<2xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %6:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %3, %iterArg_6 = %5, %iterArg_7 = %arg1, %iterArg_8 = %1, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i64>, tensor<i64>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i64>
      %7 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %7 : tensor<i1>
    } do {
      %7:8 = func.call @closed_call(%iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11) : (tensor<i64>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i64>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>)
      %c_12 = stablehlo.constant dense<1> : tensor<i64>
      %8 = stablehlo.add %iterArg, %c_12 : tensor<i64>
      stablehlo.return %8, %7#0, %7#1, %7#2, %7#3, %7#4, %7#5, %7#6, %7#7 : tensor<i64>, tensor<i64>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %6#2, %6#3 : tensor<2xui32>, tensor<2xui32>
  }
  func.func private @closed_call(%arg0: tensor<i64>, %arg1: tensor<2xui32>, %arg2: tensor<2xui32>, %arg3: tensor<ui32>, %arg4: tensor<ui32>, %arg5: tensor<ui32>, %arg6: tensor<4xui32>, %arg7: tensor<4xui32>) -> (tensor<i64>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg0, %c : tensor<i64>
    %1 = stablehlo.slice %arg6 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %2 = stablehlo.reshape %1 : (tensor<1xui32>) -> tensor<ui32>
    %3 = stablehlo.add %arg1, %arg2 : tensor<2xui32>
    %4 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %5 = stablehlo.shift_left %arg2, %4 : tensor<2xui32>
    %c_0 = stablehlo.constant dense<32> : tensor<ui32>
    %6 = stablehlo.subtract %c_0, %2 : tensor<ui32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %8 = stablehlo.shift_right_logical %arg2, %7 : tensor<2xui32>
    %9 = stablehlo.or %5, %8 : tensor<2xui32>
    %10 = stablehlo.xor %3, %9 : tensor<2xui32>
    %11 = stablehlo.slice %arg6 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
    %13 = stablehlo.add %3, %10 : tensor<2xui32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %15 = stablehlo.shift_left %10, %14 : tensor<2xui32>
    %c_1 = stablehlo.constant dense<32> : tensor<ui32>
    %16 = stablehlo.subtract %c_1, %12 : tensor<ui32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %18 = stablehlo.shift_right_logical %10, %17 : tensor<2xui32>
    %19 = stablehlo.or %15, %18 : tensor<2xui32>
    %20 = stablehlo.xor %13, %19 : tensor<2xui32>
    %21 = stablehlo.slice %arg6 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %22 = stablehlo.reshape %21 : (tensor<1xui32>) -> tensor<ui32>
    %23 = stablehlo.add %13, %20 : tensor<2xui32>
    %24 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %25 = stablehlo.shift_left %20, %24 : tensor<2xui32>
    %c_2 = stablehlo.constant dense<32> : tensor<ui32>
    %26 = stablehlo.subtract %c_2, %22 : tensor<ui32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %28 = stablehlo.shift_right_logical %20, %27 : tensor<2xui32>
    %29 = stablehlo.or %25, %28 : tensor<2xui32>
    %30 = stablehlo.xor %23, %29 : tensor<2xui32>
    %31 = stablehlo.slice %arg6 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %32 = stablehlo.reshape %31 : (tensor<1xui32>) -> tensor<ui32>
    %33 = stablehlo.add %23, %30 : tensor<2xui32>
    %34 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %35 = stablehlo.shift_left %30, %34 : tensor<2xui32>
    %c_3 = stablehlo.constant dense<32> : tensor<ui32>
    %36 = stablehlo.subtract %c_3, %32 : tensor<ui32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %38 = stablehlo.shift_right_logical %30, %37 : tensor<2xui32>
    %39 = stablehlo.or %35, %38 : tensor<2xui32>
    %40 = stablehlo.xor %33, %39 : tensor<2xui32>
    %41 = stablehlo.broadcast_in_dim %arg3, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %42 = stablehlo.add %33, %41 : tensor<2xui32>
    %43 = stablehlo.broadcast_in_dim %arg4, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %44 = stablehlo.add %40, %43 : tensor<2xui32>
    %c_4 = stablehlo.constant dense<1> : tensor<i64>
    %45 = stablehlo.add %arg0, %c_4 : tensor<i64>
    %46 = stablehlo.convert %45 : (tensor<i64>) -> tensor<ui32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %48 = stablehlo.add %44, %47 : tensor<2xui32>
    return %0, %42, %48, %arg4, %arg5, %arg3, %arg7, %arg6 : tensor<i64>, tensor<2xui32>, tensor<2xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
  }
  func.func private @_gamma(%arg0: tensor<2xui32>, %arg1: tensor<6xf64>) -> tensor<6xf64> {
    %0 = stablehlo.reshape %arg0 : (tensor<2xui32>) -> tensor<1x2xui32>
    %1 = call @_threefry_split_0(%0) : (tensor<1x2xui32>) -> tensor<1x6x2xui32>
    %2 = stablehlo.reshape %1 : (tensor<1x6x2xui32>) -> tensor<6x2xui32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %4 = stablehlo.compare GE, %arg1, %3, FLOAT : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xi1>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %6 = stablehlo.add %arg1, %5 : tensor<6xf64>
    %7 = stablehlo.select %4, %arg1, %6 : tensor<6xi1>, tensor<6xf64>
    %cst_1 = stablehlo.constant dense<0.33333333333333331> : tensor<f64>
    %8 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %9 = stablehlo.subtract %7, %8 : tensor<6xf64>
    %10 = stablehlo.sqrt %9 : tensor<6xf64>
    %cst_2 = stablehlo.constant dense<0.33333333333333331> : tensor<f64>
    %11 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %12 = stablehlo.divide %11, %10 : tensor<6xf64>
    %13 = call @_threefry_split_3(%2) : (tensor<6x2xui32>) -> tensor<6x2x2xui32>
    %14 = stablehlo.slice %13 [0:6, 0:1, 0:2] : (tensor<6x2x2xui32>) -> tensor<6x1x2xui32>
    %15 = stablehlo.reshape %14 : (tensor<6x1x2xui32>) -> tensor<6x2xui32>
    %16 = stablehlo.slice %13 [0:6, 1:2, 0:2] : (tensor<6x2x2xui32>) -> tensor<6x1x2xui32>
    %17 = stablehlo.reshape %16 : (tensor<6x1x2xui32>) -> tensor<6x2xui32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %18 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %19 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %20 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %21:6 = stablehlo.while(%iterArg = %9, %iterArg_9 = %12, %iterArg_10 = %15, %iterArg_11 = %18, %iterArg_12 = %19, %iterArg_13 = %20) : tensor<6xf64>, tensor<6xf64>, tensor<6x2xui32>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>
    cond {
      %36 = stablehlo.multiply %iterArg_11, %iterArg_11 : tensor<6xf64>
      %cst_14 = stablehlo.constant dense<3.310000e-02> : tensor<f64>
      %37 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f64>) -> tensor<6xf64>
      %38 = stablehlo.multiply %37, %36 : tensor<6xf64>
      %cst_15 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
      %39 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f64>) -> tensor<6xf64>
      %40 = stablehlo.subtract %39, %38 : tensor<6xf64>
      %41 = stablehlo.compare GE, %iterArg_13, %40, FLOAT : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xi1>
      %42 = stablehlo.log %iterArg_13 : tensor<6xf64>
      %cst_16 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
      %43 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f64>) -> tensor<6xf64>
      %44 = stablehlo.multiply %iterArg_11, %43 : tensor<6xf64>
      %cst_17 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
      %45 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f64>) -> tensor<6xf64>
      %46 = stablehlo.subtract %45, %iterArg_12 : tensor<6xf64>
      %47 = stablehlo.log %iterArg_12 : tensor<6xf64>
      %48 = stablehlo.add %46, %47 : tensor<6xf64>
      %49 = stablehlo.multiply %iterArg, %48 : tensor<6xf64>
      %50 = stablehlo.add %44, %49 : tensor<6xf64>
      %51 = stablehlo.compare GE, %42, %50, FLOAT : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xi1>
      %52 = stablehlo.and %41, %51 : tensor<6xi1>
      %c = stablehlo.constant dense<false> : tensor<i1>
      %53 = stablehlo.reduce(%52 init: %c) applies stablehlo.or across dimensions = [0] : (tensor<6xi1>, tensor<i1>) -> tensor<i1>
      stablehlo.return %53 : tensor<i1>
    } do {
      %36 = func.call @_threefry_split_6(%iterArg_10) : (tensor<6x2xui32>) -> tensor<6x3x2xui32>
      %37 = stablehlo.slice %36 [0:6, 0:1, 0:2] : (tensor<6x3x2xui32>) -> tensor<6x1x2xui32>
      %38 = stablehlo.reshape %37 : (tensor<6x1x2xui32>) -> tensor<6x2xui32>
      %39 = stablehlo.slice %36 [0:6, 1:2, 0:2] : (tensor<6x3x2xui32>) -> tensor<6x1x2xui32>
      %40 = stablehlo.reshape %39 : (tensor<6x1x2xui32>) -> tensor<6x2xui32>
      %41 = stablehlo.slice %36 [0:6, 2:3, 0:2] : (tensor<6x3x2xui32>) -> tensor<6x1x2xui32>
      %42 = stablehlo.reshape %41 : (tensor<6x1x2xui32>) -> tensor<6x2xui32>
      %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
      %43 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f64>) -> tensor<6xf64>
      %cst_15 = stablehlo.constant dense<-1.000000e+00> : tensor<f64>
      %44 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f64>) -> tensor<6xf64>
      %45:4 = stablehlo.while(%iterArg_22 = %iterArg_9, %iterArg_23 = %40, %iterArg_24 = %43, %iterArg_25 = %44) : tensor<6xf64>, tensor<6x2xui32>, tensor<6xf64>, tensor<6xf64>
      cond {
        %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
        %75 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f64>) -> tensor<6xf64>
        %76 = stablehlo.compare LE, %iterArg_25, %75, FLOAT : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xi1>
        %c = stablehlo.constant dense<false> : tensor<i1>
        %77 = stablehlo.reduce(%76 init: %c) applies stablehlo.or across dimensions = [0] : (tensor<6xi1>, tensor<i1>) -> tensor<i1>
        stablehlo.return %77 : tensor<i1>
      } do {
        %75 = func.call @_threefry_split_3(%iterArg_23) : (tensor<6x2xui32>) -> tensor<6x2x2xui32>
        %76 = stablehlo.slice %75 [0:6, 0:1, 0:2] : (tensor<6x2x2xui32>) -> tensor<6x1x2xui32>
        %77 = stablehlo.reshape %76 : (tensor<6x1x2xui32>) -> tensor<6x2xui32>
        %78 = stablehlo.slice %75 [0:6, 1:2, 0:2] : (tensor<6x2x2xui32>) -> tensor<6x1x2xui32>
        %79 = stablehlo.reshape %78 : (tensor<6x1x2xui32>) -> tensor<6x2xui32>
        %80 = func.call @_normal(%79) : (tensor<6x2xui32>) -> tensor<6xf64>
        %81 = stablehlo.multiply %80, %iterArg_22 : tensor<6xf64>
        %cst_26 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
        %82 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f64>) -> tensor<6xf64>
        %83 = stablehlo.add %82, %81 : tensor<6xf64>
        %cst_27 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
        %84 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f64>) -> tensor<6xf64>
        %85 = stablehlo.compare LE, %iterArg_25, %84, FLOAT : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xi1>
        %86 = stablehlo.broadcast_in_dim %85, dims = [0] : (tensor<6xi1>) -> tensor<6x2xi1>
        %87 = stablehlo.select %86, %77, %iterArg_23 : tensor<6x2xi1>, tensor<6x2xui32>
        %88 = stablehlo.broadcast_in_dim %85, dims = [0] : (tensor<6xi1>) -> tensor<6xi1>
        %89 = stablehlo.select %88, %80, %iterArg_24 : tensor<6xi1>, tensor<6xf64>
        %90 = stablehlo.broadcast_in_dim %85, dims = [0] : (tensor<6xi1>) -> tensor<6xi1>
        %91 = stablehlo.select %90, %83, %iterArg_25 : tensor<6xi1>, tensor<6xf64>
        stablehlo.return %iterArg_22, %87, %89, %91 : tensor<6xf64>, tensor<6x2xui32>, tensor<6xf64>, tensor<6xf64>
      }
      %46 = stablehlo.multiply %45#2, %45#2 : tensor<6xf64>
      %47 = stablehlo.multiply %45#3, %45#3 : tensor<6xf64>
      %48 = stablehlo.multiply %47, %45#3 : tensor<6xf64>
      %cst_16 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
      %cst_17 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
      %49 = func.call @_uniform_11(%42, %cst_16, %cst_17) : (tensor<6x2xui32>, tensor<f64>, tensor<f64>) -> tensor<6xf64>
      %50 = stablehlo.multiply %iterArg_11, %iterArg_11 : tensor<6xf64>
      %cst_18 = stablehlo.constant dense<3.310000e-02> : tensor<f64>
      %51 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f64>) -> tensor<6xf64>
      %52 = stablehlo.multiply %51, %50 : tensor<6xf64>
      %cst_19 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
      %53 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f64>) -> tensor<6xf64>
      %54 = stablehlo.subtract %53, %52 : tensor<6xf64>
      %55 = stablehlo.compare GE, %iterArg_13, %54, FLOAT : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xi1>
      %56 = stablehlo.log %iterArg_13 : tensor<6xf64>
      %cst_20 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
      %57 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f64>) -> tensor<6xf64>
      %58 = stablehlo.multiply %iterArg_11, %57 : tensor<6xf64>
      %cst_21 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
      %59 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f64>) -> tensor<6xf64>
      %60 = stablehlo.subtract %59, %iterArg_12 : tensor<6xf64>
      %61 = stablehlo.log %iterArg_12 : tensor<6xf64>
      %62 = stablehlo.add %60, %61 : tensor<6xf64>
      %63 = stablehlo.multiply %iterArg, %62 : tensor<6xf64>
      %64 = stablehlo.add %58, %63 : tensor<6xf64>
      %65 = stablehlo.compare GE, %56, %64, FLOAT : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xi1>
      %66 = stablehlo.and %55, %65 : tensor<6xi1>
      %67 = stablehlo.broadcast_in_dim %66, dims = [0] : (tensor<6xi1>) -> tensor<6x2xi1>
      %68 = stablehlo.select %67, %38, %iterArg_10 : tensor<6x2xi1>, tensor<6x2xui32>
      %69 = stablehlo.broadcast_in_dim %66, dims = [0] : (tensor<6xi1>) -> tensor<6xi1>
      %70 = stablehlo.select %69, %46, %iterArg_11 : tensor<6xi1>, tensor<6xf64>
      %71 = stablehlo.broadcast_in_dim %66, dims = [0] : (tensor<6xi1>) -> tensor<6xi1>
      %72 = stablehlo.select %71, %48, %iterArg_12 : tensor<6xi1>, tensor<6xf64>
      %73 = stablehlo.broadcast_in_dim %66, dims = [0] : (tensor<6xi1>) -> tensor<6xi1>
      %74 = stablehlo.select %73, %49, %iterArg_13 : tensor<6xi1>, tensor<6xf64>
      stablehlo.return %iterArg, %iterArg_9, %68, %70, %72, %74 : tensor<6xf64>, tensor<6xf64>, tensor<6x2xui32>, tensor<6xf64>, tensor<6xf64>, tensor<6xf64>
    }
    %22 = call @_exponential(%17) : (tensor<6x2xui32>) -> tensor<6xf64>
    %23 = stablehlo.negate %22 : tensor<6xf64>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %24 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %25 = stablehlo.compare EQ, %23, %24, FLOAT : (tensor<6xf64>, tensor<6xf64>) -> tensor<6xi1>
    %26 = stablehlo.or %4, %25 : tensor<6xi1>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %27 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %28 = stablehlo.divide %27, %arg1 : tensor<6xf64>
    %29 = stablehlo.multiply %23, %28 : tensor<6xf64>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %30 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %31 = stablehlo.select %26, %30, %29 : tensor<6xi1>, tensor<6xf64>
    %32 = stablehlo.log %9 : tensor<6xf64>
    %33 = stablehlo.log %21#4 : tensor<6xf64>
    %34 = stablehlo.add %32, %33 : tensor<6xf64>
    %35 = stablehlo.add %34, %31 : tensor<6xf64>
    return %35 : tensor<6xf64>
  }
  func.func private @_threefry_split_0(%arg0: tensor<1x2xui32>) -> tensor<1x6x2xui32> {
    %0 = stablehlo.slice %arg0 [0:1, 0:1] : (tensor<1x2xui32>) -> tensor<1x1xui32>
    %1 = stablehlo.reshape %0 : (tensor<1x1xui32>) -> tensor<1xui32>
    %2 = stablehlo.slice %arg0 [0:1, 1:2] : (tensor<1x2xui32>) -> tensor<1x1xui32>
    %3 = stablehlo.reshape %2 : (tensor<1x1xui32>) -> tensor<1xui32>
    %4 = stablehlo.iota dim = 0 : tensor<6xui64>
    %c = stablehlo.constant dense<1> : tensor<ui64>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<6xui64>
    %6 = stablehlo.multiply %5, %4 : tensor<6xui64>
    %c_0 = stablehlo.constant dense<32> : tensor<ui64>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<6xui64>
    %8 = stablehlo.shift_right_logical %6, %7 : tensor<6xui64>
    %9 = stablehlo.convert %6 : (tensor<6xui64>) -> tensor<6xui32>
    %10 = stablehlo.convert %8 : (tensor<6xui64>) -> tensor<6xui32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<6xui32>) -> tensor<1x6xui32>
    %12 = stablehlo.broadcast_in_dim %9, dims = [1] : (tensor<6xui32>) -> tensor<1x6xui32>
    %13 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<1xui32>) -> tensor<1x1xui32>
    %14 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<1xui32>) -> tensor<1x1xui32>
    %15:2 = call @threefry2x32_1(%13, %14, %11, %12) : (tensor<1x1xui32>, tensor<1x1xui32>, tensor<1x6xui32>, tensor<1x6xui32>) -> (tensor<1x6xui32>, tensor<1x6xui32>)
    %16 = stablehlo.broadcast_in_dim %15#0, dims = [0, 1] : (tensor<1x6xui32>) -> tensor<1x6x1xui32>
    %17 = stablehlo.broadcast_in_dim %15#1, dims = [0, 1] : (tensor<1x6xui32>) -> tensor<1x6x1xui32>
    %18 = stablehlo.concatenate %16, %17, dim = 2 : (tensor<1x6x1xui32>, tensor<1x6x1xui32>) -> tensor<1x6x2xui32>
    return %18 : tensor<1x6x2xui32>
  }
  func.func private @threefry2x32_1(%arg0: tensor<1x1xui32>, %arg1: tensor<1x1xui32>, %arg2: tensor<1x6xui32>, %arg3: tensor<1x6xui32>) -> (tensor<1x6xui32>, tensor<1x6xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<1x1xui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<1x1xui32>
    %2 = stablehlo.xor %0, %1 : tensor<1x1xui32>
    %3 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<1x1xui32>) -> tensor<1x6xui32>
    %4 = stablehlo.add %arg2, %3 : tensor<1x6xui32>
    %5 = stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<1x1xui32>) -> tensor<1x6xui32>
    %6 = stablehlo.add %arg3, %5 : tensor<1x6xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %7:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %4, %iterArg_6 = %6, %iterArg_7 = %arg1, %iterArg_8 = %2, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i64>, tensor<i64>, tensor<1x6xui32>, tensor<1x6xui32>, tensor<1x1xui32>, tensor<1x1xui32>, tensor<1x1xui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i64>
      %8 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %8 : tensor<i1>
    } do {
      %8:8 = func.call @closed_call_2(%iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11) : (tensor<i64>, tensor<1x6xui32>, tensor<1x6xui32>, tensor<1x1xui32>, tensor<1x1xui32>, tensor<1x1xui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i64>, tensor<1x6xui32>, tensor<1x6xui32>, tensor<1x1xui32>, tensor<1x1xui32>, tensor<1x1xui32>, tensor<4xui32>, tensor<4xui32>)
      %c_12 = stablehlo.constant dense<1> : tensor<i64>
      %9 = stablehlo.add %iterArg, %c_12 : tensor<i64>
      stablehlo.return %9, %8#0, %8#1, %8#2, %8#3, %8#4, %8#5, %8#6, %8#7 : tensor<i64>, tensor<i64>, tensor<1x6xui32>, tensor<1x6xui32>, tensor<1x1xui32>, tensor<1x1xui32>, tensor<1x1xui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %7#2, %7#3 : tensor<1x6xui32>, tensor<1x6xui32>
  }
  func.func private @closed_call_2(%arg0: tensor<i64>, %arg1: tensor<1x6xui32>, %arg2: tensor<1x6xui32>, %arg3: tensor<1x1xui32>, %arg4: tensor<1x1xui32>, %arg5: tensor<1x1xui32>, %arg6: tensor<4xui32>, %arg7: tensor<4xui32>) -> (tensor<i64>, tensor<1x6xui32>, tensor<1x6xui32>, tensor<1x1xui32>, tensor<1x1xui32>, tensor<1x1xui32>, tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg0, %c : tensor<i64>
    %1 = stablehlo.slice %arg6 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %2 = stablehlo.reshape %1 : (tensor<1xui32>) -> tensor<ui32>
    %3 = stablehlo.add %arg1, %arg2 : tensor<1x6xui32>
    %4 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<ui32>) -> tensor<1x6xui32>
    %5 = stablehlo.shift_left %arg2, %4 : tensor<1x6xui32>
    %c_0 = stablehlo.constant dense<32> : tensor<ui32>
    %6 = stablehlo.subtract %c_0, %2 : tensor<ui32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<ui32>) -> tensor<1x6xui32>
    %8 = stablehlo.shift_right_logical %arg2, %7 : tensor<1x6xui32>
    %9 = stablehlo.or %5, %8 : tensor<1x6xui32>
    %10 = stablehlo.xor %3, %9 : tensor<1x6xui32>
    %11 = stablehlo.slice %arg6 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
    %13 = stablehlo.add %3, %10 : tensor<1x6xui32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<1x6xui32>
    %15 = stablehlo.shift_left %10, %14 : tensor<1x6xui32>
    %c_1 = stablehlo.constant dense<32> : tensor<ui32>
    %16 = stablehlo.subtract %c_1, %12 : tensor<ui32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<1x6xui32>
    %18 = stablehlo.shift_right_logical %10, %17 : tensor<1x6xui32>
    %19 = stablehlo.or %15, %18 : tensor<1x6xui32>
    %20 = stablehlo.xor %13, %19 : tensor<1x6xui32>
    %21 = stablehlo.slice %arg6 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %22 = stablehlo.reshape %21 : (tensor<1xui32>) -> tensor<ui32>
    %23 = stablehlo.add %13, %20 : tensor<1x6xui32>
    %24 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<ui32>) -> tensor<1x6xui32>
    %25 = stablehlo.shift_left %20, %24 : tensor<1x6xui32>
    %c_2 = stablehlo.constant dense<32> : tensor<ui32>
    %26 = stablehlo.subtract %c_2, %22 : tensor<ui32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<ui32>) -> tensor<1x6xui32>
    %28 = stablehlo.shift_right_logical %20, %27 : tensor<1x6xui32>
    %29 = stablehlo.or %25, %28 : tensor<1x6xui32>
    %30 = stablehlo.xor %23, %29 : tensor<1x6xui32>
    %31 = stablehlo.slice %arg6 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %32 = stablehlo.reshape %31 : (tensor<1xui32>) -> tensor<ui32>
    %33 = stablehlo.add %23, %30 : tensor<1x6xui32>
    %34 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<ui32>) -> tensor<1x6xui32>
    %35 = stablehlo.shift_left %30, %34 : tensor<1x6xui32>
    %c_3 = stablehlo.constant dense<32> : tensor<ui32>
    %36 = stablehlo.subtract %c_3, %32 : tensor<ui32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<ui32>) -> tensor<1x6xui32>
    %38 = stablehlo.shift_right_logical %30, %37 : tensor<1x6xui32>
    %39 = stablehlo.or %35, %38 : tensor<1x6xui32>
    %40 = stablehlo.xor %33, %39 : tensor<1x6xui32>
    %41 = stablehlo.broadcast_in_dim %arg3, dims = [0, 1] : (tensor<1x1xui32>) -> tensor<1x6xui32>
    %42 = stablehlo.add %33, %41 : tensor<1x6xui32>
    %43 = stablehlo.broadcast_in_dim %arg4, dims = [0, 1] : (tensor<1x1xui32>) -> tensor<1x6xui32>
    %44 = stablehlo.add %40, %43 : tensor<1x6xui32>
    %c_4 = stablehlo.constant dense<1> : tensor<i64>
    %45 = stablehlo.add %arg0, %c_4 : tensor<i64>
    %46 = stablehlo.convert %45 : (tensor<i64>) -> tensor<ui32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [] : (tensor<ui32>) -> tensor<1x6xui32>
    %48 = stablehlo.add %44, %47 : tensor<1x6xui32>
    return %0, %42, %48, %arg4, %arg5, %arg3, %arg7, %arg6 : tensor<i64>, tensor<1x6xui32>, tensor<1x6xui32>, tensor<1x1xui32>, tensor<1x1xui32>, tensor<1x1xui32>, tensor<4xui32>, tensor<4xui32>
  }
  func.func private @_threefry_split_3(%arg0: tensor<6x2xui32>) -> tensor<6x2x2xui32> {
    %0 = stablehlo.slice %arg0 [0:6, 0:1] : (tensor<6x2xui32>) -> tensor<6x1xui32>
    %1 = stablehlo.reshape %0 : (tensor<6x1xui32>) -> tensor<6xui32>
    %2 = stablehlo.slice %arg0 [0:6, 1:2] : (tensor<6x2xui32>) -> tensor<6x1xui32>
    %3 = stablehlo.reshape %2 : (tensor<6x1xui32>) -> tensor<6xui32>
    %4 = stablehlo.iota dim = 0 : tensor<2xui64>
    %c = stablehlo.constant dense<1> : tensor<ui64>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<2xui64>
    %6 = stablehlo.multiply %5, %4 : tensor<2xui64>
    %c_0 = stablehlo.constant dense<32> : tensor<ui64>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<2xui64>
    %8 = stablehlo.shift_right_logical %6, %7 : tensor<2xui64>
    %9 = stablehlo.convert %6 : (tensor<2xui64>) -> tensor<2xui32>
    %10 = stablehlo.convert %8 : (tensor<2xui64>) -> tensor<2xui32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<2xui32>) -> tensor<1x2xui32>
    %12 = stablehlo.broadcast_in_dim %9, dims = [1] : (tensor<2xui32>) -> tensor<1x2xui32>
    %13 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<6xui32>) -> tensor<6x1xui32>
    %14 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<6xui32>) -> tensor<6x1xui32>
    %15:2 = call @threefry2x32_4(%13, %14, %11, %12) : (tensor<6x1xui32>, tensor<6x1xui32>, tensor<1x2xui32>, tensor<1x2xui32>) -> (tensor<6x2xui32>, tensor<6x2xui32>)
    %16 = stablehlo.broadcast_in_dim %15#0, dims = [0, 1] : (tensor<6x2xui32>) -> tensor<6x2x1xui32>
    %17 = stablehlo.broadcast_in_dim %15#1, dims = [0, 1] : (tensor<6x2xui32>) -> tensor<6x2x1xui32>
    %18 = stablehlo.concatenate %16, %17, dim = 2 : (tensor<6x2x1xui32>, tensor<6x2x1xui32>) -> tensor<6x2x2xui32>
    return %18 : tensor<6x2x2xui32>
  }
  func.func private @threefry2x32_4(%arg0: tensor<6x1xui32>, %arg1: tensor<6x1xui32>, %arg2: tensor<1x2xui32>, %arg3: tensor<1x2xui32>) -> (tensor<6x2xui32>, tensor<6x2xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<6x1xui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<6x1xui32>
    %2 = stablehlo.xor %0, %1 : tensor<6x1xui32>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [0, 1] : (tensor<1x2xui32>) -> tensor<6x2xui32>
    %4 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<6x1xui32>) -> tensor<6x2xui32>
    %5 = stablehlo.add %3, %4 : tensor<6x2xui32>
    %6 = stablehlo.broadcast_in_dim %arg3, dims = [0, 1] : (tensor<1x2xui32>) -> tensor<6x2xui32>
    %7 = stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<6x1xui32>) -> tensor<6x2xui32>
    %8 = stablehlo.add %6, %7 : tensor<6x2xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %9:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %5, %iterArg_6 = %8, %iterArg_7 = %arg1, %iterArg_8 = %2, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i64>, tensor<i64>, tensor<6x2xui32>, tensor<6x2xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i64>
      %10 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %10 : tensor<i1>
    } do {
      %10:8 = func.call @closed_call_5(%iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11) : (tensor<i64>, tensor<6x2xui32>, tensor<6x2xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i64>, tensor<6x2xui32>, tensor<6x2xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<4xui32>, tensor<4xui32>)
      %c_12 = stablehlo.constant dense<1> : tensor<i64>
      %11 = stablehlo.add %iterArg, %c_12 : tensor<i64>
      stablehlo.return %11, %10#0, %10#1, %10#2, %10#3, %10#4, %10#5, %10#6, %10#7 : tensor<i64>, tensor<i64>, tensor<6x2xui32>, tensor<6x2xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %9#2, %9#3 : tensor<6x2xui32>, tensor<6x2xui32>
  }
  func.func private @closed_call_5(%arg0: tensor<i64>, %arg1: tensor<6x2xui32>, %arg2: tensor<6x2xui32>, %arg3: tensor<6x1xui32>, %arg4: tensor<6x1xui32>, %arg5: tensor<6x1xui32>, %arg6: tensor<4xui32>, %arg7: tensor<4xui32>) -> (tensor<i64>, tensor<6x2xui32>, tensor<6x2xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg0, %c : tensor<i64>
    %1 = stablehlo.slice %arg6 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %2 = stablehlo.reshape %1 : (tensor<1xui32>) -> tensor<ui32>
    %3 = stablehlo.add %arg1, %arg2 : tensor<6x2xui32>
    %4 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<ui32>) -> tensor<6x2xui32>
    %5 = stablehlo.shift_left %arg2, %4 : tensor<6x2xui32>
    %c_0 = stablehlo.constant dense<32> : tensor<ui32>
    %6 = stablehlo.subtract %c_0, %2 : tensor<ui32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<ui32>) -> tensor<6x2xui32>
    %8 = stablehlo.shift_right_logical %arg2, %7 : tensor<6x2xui32>
    %9 = stablehlo.or %5, %8 : tensor<6x2xui32>
    %10 = stablehlo.xor %3, %9 : tensor<6x2xui32>
    %11 = stablehlo.slice %arg6 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
    %13 = stablehlo.add %3, %10 : tensor<6x2xui32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<6x2xui32>
    %15 = stablehlo.shift_left %10, %14 : tensor<6x2xui32>
    %c_1 = stablehlo.constant dense<32> : tensor<ui32>
    %16 = stablehlo.subtract %c_1, %12 : tensor<ui32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<6x2xui32>
    %18 = stablehlo.shift_right_logical %10, %17 : tensor<6x2xui32>
    %19 = stablehlo.or %15, %18 : tensor<6x2xui32>
    %20 = stablehlo.xor %13, %19 : tensor<6x2xui32>
    %21 = stablehlo.slice %arg6 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %22 = stablehlo.reshape %21 : (tensor<1xui32>) -> tensor<ui32>
    %23 = stablehlo.add %13, %20 : tensor<6x2xui32>
    %24 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<ui32>) -> tensor<6x2xui32>
    %25 = stablehlo.shift_left %20, %24 : tensor<6x2xui32>
    %c_2 = stablehlo.constant dense<32> : tensor<ui32>
    %26 = stablehlo.subtract %c_2, %22 : tensor<ui32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<ui32>) -> tensor<6x2xui32>
    %28 = stablehlo.shift_right_logical %20, %27 : tensor<6x2xui32>
    %29 = stablehlo.or %25, %28 : tensor<6x2xui32>
    %30 = stablehlo.xor %23, %29 : tensor<6x2xui32>
    %31 = stablehlo.slice %arg6 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %32 = stablehlo.reshape %31 : (tensor<1xui32>) -> tensor<ui32>
    %33 = stablehlo.add %23, %30 : tensor<6x2xui32>
    %34 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<ui32>) -> tensor<6x2xui32>
    %35 = stablehlo.shift_left %30, %34 : tensor<6x2xui32>
    %c_3 = stablehlo.constant dense<32> : tensor<ui32>
    %36 = stablehlo.subtract %c_3, %32 : tensor<ui32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<ui32>) -> tensor<6x2xui32>
    %38 = stablehlo.shift_right_logical %30, %37 : tensor<6x2xui32>
    %39 = stablehlo.or %35, %38 : tensor<6x2xui32>
    %40 = stablehlo.xor %33, %39 : tensor<6x2xui32>
    %41 = stablehlo.broadcast_in_dim %arg3, dims = [0, 1] : (tensor<6x1xui32>) -> tensor<6x2xui32>
    %42 = stablehlo.add %33, %41 : tensor<6x2xui32>
    %43 = stablehlo.broadcast_in_dim %arg4, dims = [0, 1] : (tensor<6x1xui32>) -> tensor<6x2xui32>
    %44 = stablehlo.add %40, %43 : tensor<6x2xui32>
    %c_4 = stablehlo.constant dense<1> : tensor<i64>
    %45 = stablehlo.add %arg0, %c_4 : tensor<i64>
    %46 = stablehlo.convert %45 : (tensor<i64>) -> tensor<ui32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [] : (tensor<ui32>) -> tensor<6x2xui32>
    %48 = stablehlo.add %44, %47 : tensor<6x2xui32>
    return %0, %42, %48, %arg4, %arg5, %arg3, %arg7, %arg6 : tensor<i64>, tensor<6x2xui32>, tensor<6x2xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<4xui32>, tensor<4xui32>
  }
  func.func private @_threefry_split_6(%arg0: tensor<6x2xui32>) -> tensor<6x3x2xui32> {
    %0 = stablehlo.slice %arg0 [0:6, 0:1] : (tensor<6x2xui32>) -> tensor<6x1xui32>
    %1 = stablehlo.reshape %0 : (tensor<6x1xui32>) -> tensor<6xui32>
    %2 = stablehlo.slice %arg0 [0:6, 1:2] : (tensor<6x2xui32>) -> tensor<6x1xui32>
    %3 = stablehlo.reshape %2 : (tensor<6x1xui32>) -> tensor<6xui32>
    %4 = stablehlo.iota dim = 0 : tensor<3xui64>
    %c = stablehlo.constant dense<1> : tensor<ui64>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui64>) -> tensor<3xui64>
    %6 = stablehlo.multiply %5, %4 : tensor<3xui64>
    %c_0 = stablehlo.constant dense<32> : tensor<ui64>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui64>) -> tensor<3xui64>
    %8 = stablehlo.shift_right_logical %6, %7 : tensor<3xui64>
    %9 = stablehlo.convert %6 : (tensor<3xui64>) -> tensor<3xui32>
    %10 = stablehlo.convert %8 : (tensor<3xui64>) -> tensor<3xui32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [1] : (tensor<3xui32>) -> tensor<1x3xui32>
    %12 = stablehlo.broadcast_in_dim %9, dims = [1] : (tensor<3xui32>) -> tensor<1x3xui32>
    %13 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<6xui32>) -> tensor<6x1xui32>
    %14 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<6xui32>) -> tensor<6x1xui32>
    %15:2 = call @threefry2x32_7(%13, %14, %11, %12) : (tensor<6x1xui32>, tensor<6x1xui32>, tensor<1x3xui32>, tensor<1x3xui32>) -> (tensor<6x3xui32>, tensor<6x3xui32>)
    %16 = stablehlo.broadcast_in_dim %15#0, dims = [0, 1] : (tensor<6x3xui32>) -> tensor<6x3x1xui32>
    %17 = stablehlo.broadcast_in_dim %15#1, dims = [0, 1] : (tensor<6x3xui32>) -> tensor<6x3x1xui32>
    %18 = stablehlo.concatenate %16, %17, dim = 2 : (tensor<6x3x1xui32>, tensor<6x3x1xui32>) -> tensor<6x3x2xui32>
    return %18 : tensor<6x3x2xui32>
  }
  func.func private @threefry2x32_7(%arg0: tensor<6x1xui32>, %arg1: tensor<6x1xui32>, %arg2: tensor<1x3xui32>, %arg3: tensor<1x3xui32>) -> (tensor<6x3xui32>, tensor<6x3xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<6x1xui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<6x1xui32>
    %2 = stablehlo.xor %0, %1 : tensor<6x1xui32>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [0, 1] : (tensor<1x3xui32>) -> tensor<6x3xui32>
    %4 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<6x1xui32>) -> tensor<6x3xui32>
    %5 = stablehlo.add %3, %4 : tensor<6x3xui32>
    %6 = stablehlo.broadcast_in_dim %arg3, dims = [0, 1] : (tensor<1x3xui32>) -> tensor<6x3xui32>
    %7 = stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<6x1xui32>) -> tensor<6x3xui32>
    %8 = stablehlo.add %6, %7 : tensor<6x3xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %9:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %5, %iterArg_6 = %8, %iterArg_7 = %arg1, %iterArg_8 = %2, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i64>, tensor<i64>, tensor<6x3xui32>, tensor<6x3xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i64>
      %10 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %10 : tensor<i1>
    } do {
      %10:8 = func.call @closed_call_8(%iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11) : (tensor<i64>, tensor<6x3xui32>, tensor<6x3xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i64>, tensor<6x3xui32>, tensor<6x3xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<4xui32>, tensor<4xui32>)
      %c_12 = stablehlo.constant dense<1> : tensor<i64>
      %11 = stablehlo.add %iterArg, %c_12 : tensor<i64>
      stablehlo.return %11, %10#0, %10#1, %10#2, %10#3, %10#4, %10#5, %10#6, %10#7 : tensor<i64>, tensor<i64>, tensor<6x3xui32>, tensor<6x3xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %9#2, %9#3 : tensor<6x3xui32>, tensor<6x3xui32>
  }
  func.func private @closed_call_8(%arg0: tensor<i64>, %arg1: tensor<6x3xui32>, %arg2: tensor<6x3xui32>, %arg3: tensor<6x1xui32>, %arg4: tensor<6x1xui32>, %arg5: tensor<6x1xui32>, %arg6: tensor<4xui32>, %arg7: tensor<4xui32>) -> (tensor<i64>, tensor<6x3xui32>, tensor<6x3xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg0, %c : tensor<i64>
    %1 = stablehlo.slice %arg6 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %2 = stablehlo.reshape %1 : (tensor<1xui32>) -> tensor<ui32>
    %3 = stablehlo.add %arg1, %arg2 : tensor<6x3xui32>
    %4 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<ui32>) -> tensor<6x3xui32>
    %5 = stablehlo.shift_left %arg2, %4 : tensor<6x3xui32>
    %c_0 = stablehlo.constant dense<32> : tensor<ui32>
    %6 = stablehlo.subtract %c_0, %2 : tensor<ui32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<ui32>) -> tensor<6x3xui32>
    %8 = stablehlo.shift_right_logical %arg2, %7 : tensor<6x3xui32>
    %9 = stablehlo.or %5, %8 : tensor<6x3xui32>
    %10 = stablehlo.xor %3, %9 : tensor<6x3xui32>
    %11 = stablehlo.slice %arg6 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
    %13 = stablehlo.add %3, %10 : tensor<6x3xui32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<6x3xui32>
    %15 = stablehlo.shift_left %10, %14 : tensor<6x3xui32>
    %c_1 = stablehlo.constant dense<32> : tensor<ui32>
    %16 = stablehlo.subtract %c_1, %12 : tensor<ui32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<6x3xui32>
    %18 = stablehlo.shift_right_logical %10, %17 : tensor<6x3xui32>
    %19 = stablehlo.or %15, %18 : tensor<6x3xui32>
    %20 = stablehlo.xor %13, %19 : tensor<6x3xui32>
    %21 = stablehlo.slice %arg6 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %22 = stablehlo.reshape %21 : (tensor<1xui32>) -> tensor<ui32>
    %23 = stablehlo.add %13, %20 : tensor<6x3xui32>
    %24 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<ui32>) -> tensor<6x3xui32>
    %25 = stablehlo.shift_left %20, %24 : tensor<6x3xui32>
    %c_2 = stablehlo.constant dense<32> : tensor<ui32>
    %26 = stablehlo.subtract %c_2, %22 : tensor<ui32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<ui32>) -> tensor<6x3xui32>
    %28 = stablehlo.shift_right_logical %20, %27 : tensor<6x3xui32>
    %29 = stablehlo.or %25, %28 : tensor<6x3xui32>
    %30 = stablehlo.xor %23, %29 : tensor<6x3xui32>
    %31 = stablehlo.slice %arg6 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %32 = stablehlo.reshape %31 : (tensor<1xui32>) -> tensor<ui32>
    %33 = stablehlo.add %23, %30 : tensor<6x3xui32>
    %34 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<ui32>) -> tensor<6x3xui32>
    %35 = stablehlo.shift_left %30, %34 : tensor<6x3xui32>
    %c_3 = stablehlo.constant dense<32> : tensor<ui32>
    %36 = stablehlo.subtract %c_3, %32 : tensor<ui32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<ui32>) -> tensor<6x3xui32>
    %38 = stablehlo.shift_right_logical %30, %37 : tensor<6x3xui32>
    %39 = stablehlo.or %35, %38 : tensor<6x3xui32>
    %40 = stablehlo.xor %33, %39 : tensor<6x3xui32>
    %41 = stablehlo.broadcast_in_dim %arg3, dims = [0, 1] : (tensor<6x1xui32>) -> tensor<6x3xui32>
    %42 = stablehlo.add %33, %41 : tensor<6x3xui32>
    %43 = stablehlo.broadcast_in_dim %arg4, dims = [0, 1] : (tensor<6x1xui32>) -> tensor<6x3xui32>
    %44 = stablehlo.add %40, %43 : tensor<6x3xui32>
    %c_4 = stablehlo.constant dense<1> : tensor<i64>
    %45 = stablehlo.add %arg0, %c_4 : tensor<i64>
    %46 = stablehlo.convert %45 : (tensor<i64>) -> tensor<ui32>
    %47 = stablehlo.broadcast_in_dim %46, dims = [] : (tensor<ui32>) -> tensor<6x3xui32>
    %48 = stablehlo.add %44, %47 : tensor<6x3xui32>
    return %0, %42, %48, %arg4, %arg5, %arg3, %arg7, %arg6 : tensor<i64>, tensor<6x3xui32>, tensor<6x3xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<6x1xui32>, tensor<4xui32>, tensor<4xui32>
  }
  func.func private @_normal(%arg0: tensor<6x2xui32>) -> tensor<6xf64> {
    %0 = call @_normal_real(%arg0) : (tensor<6x2xui32>) -> tensor<6xf64>
    return %0 : tensor<6xf64>
  }
  func.func private @_normal_real(%arg0: tensor<6x2xui32>) -> tensor<6xf64> {
    %cst = stablehlo.constant dense<-0.99999999999999988> : tensor<f64>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %0 = call @_uniform(%arg0, %cst, %cst_0) : (tensor<6x2xui32>, tensor<f64>, tensor<f64>) -> tensor<6xf64>
    %1 = chlo.erf_inv %0 : tensor<6xf64> -> tensor<6xf64>
    %cst_1 = stablehlo.constant dense<1.4142135623730951> : tensor<f64>
    %2 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %3 = stablehlo.multiply %2, %1 : tensor<6xf64>
    return %3 : tensor<6xf64>
  }
  func.func private @_uniform(%arg0: tensor<6x2xui32>, %arg1: tensor<f64>, %arg2: tensor<f64>) -> tensor<6xf64> {
    %0 = stablehlo.slice %arg0 [0:6, 0:1] : (tensor<6x2xui32>) -> tensor<6x1xui32>
    %1 = stablehlo.reshape %0 : (tensor<6x1xui32>) -> tensor<6xui32>
    %2 = stablehlo.slice %arg0 [0:6, 1:2] : (tensor<6x2xui32>) -> tensor<6x1xui32>
    %3 = stablehlo.reshape %2 : (tensor<6x1xui32>) -> tensor<6xui32>
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %c_0 = stablehlo.constant dense<0> : tensor<ui32>
    %4:2 = call @threefry2x32_9(%1, %3, %c, %c_0) : (tensor<6xui32>, tensor<6xui32>, tensor<ui32>, tensor<ui32>) -> (tensor<6xui32>, tensor<6xui32>)
    %5 = stablehlo.convert %4#0 : (tensor<6xui32>) -> tensor<6xui64>
    %6 = stablehlo.convert %4#1 : (tensor<6xui32>) -> tensor<6xui64>
    %c_1 = stablehlo.constant dense<32> : tensor<ui64>
    %7 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui64>) -> tensor<6xui64>
    %8 = stablehlo.shift_left %5, %7 : tensor<6xui64>
    %9 = stablehlo.or %8, %6 : tensor<6xui64>
    %c_2 = stablehlo.constant dense<12> : tensor<ui64>
    %10 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui64>) -> tensor<6xui64>
    %11 = stablehlo.shift_right_logical %9, %10 : tensor<6xui64>
    %c_3 = stablehlo.constant dense<4607182418800017408> : tensor<ui64>
    %12 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<ui64>) -> tensor<6xui64>
    %13 = stablehlo.or %11, %12 : tensor<6xui64>
    %14 = stablehlo.bitcast_convert %13 : (tensor<6xui64>) -> tensor<6xf64>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %16 = stablehlo.subtract %14, %15 : tensor<6xf64>
    %17 = stablehlo.subtract %arg2, %arg1 : tensor<f64>
    %18 = stablehlo.broadcast_in_dim %17, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %19 = stablehlo.multiply %16, %18 : tensor<6xf64>
    %20 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %21 = stablehlo.add %19, %20 : tensor<6xf64>
    %22 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %23 = stablehlo.maximum %22, %21 : tensor<6xf64>
    return %23 : tensor<6xf64>
  }
  func.func private @threefry2x32_9(%arg0: tensor<6xui32>, %arg1: tensor<6xui32>, %arg2: tensor<ui32>, %arg3: tensor<ui32>) -> (tensor<6xui32>, tensor<6xui32>) {
    %c = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_0 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg0, %arg1 : tensor<6xui32>
    %c_1 = stablehlo.constant dense<466688986> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui32>) -> tensor<6xui32>
    %2 = stablehlo.xor %0, %1 : tensor<6xui32>
    %3 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<ui32>) -> tensor<6xui32>
    %4 = stablehlo.add %3, %arg0 : tensor<6xui32>
    %5 = stablehlo.broadcast_in_dim %arg3, dims = [] : (tensor<ui32>) -> tensor<6xui32>
    %6 = stablehlo.add %5, %arg1 : tensor<6xui32>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %7:9 = stablehlo.while(%iterArg = %c_3, %iterArg_4 = %c_2, %iterArg_5 = %4, %iterArg_6 = %6, %iterArg_7 = %arg1, %iterArg_8 = %2, %iterArg_9 = %arg0, %iterArg_10 = %c, %iterArg_11 = %c_0) : tensor<i64>, tensor<i64>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %c_12 = stablehlo.constant dense<5> : tensor<i64>
      %8 = stablehlo.compare LT, %iterArg, %c_12, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %8 : tensor<i1>
    } do {
      %8:8 = func.call @closed_call_10(%iterArg_4, %iterArg_5, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11) : (tensor<i64>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i64>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<4xui32>, tensor<4xui32>)
      %c_12 = stablehlo.constant dense<1> : tensor<i64>
      %9 = stablehlo.add %iterArg, %c_12 : tensor<i64>
      stablehlo.return %9, %8#0, %8#1, %8#2, %8#3, %8#4, %8#5, %8#6, %8#7 : tensor<i64>, tensor<i64>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %7#2, %7#3 : tensor<6xui32>, tensor<6xui32>
  }
  func.func private @closed_call_10(%arg0: tensor<i64>, %arg1: tensor<6xui32>, %arg2: tensor<6xui32>, %arg3: tensor<6xui32>, %arg4: tensor<6xui32>, %arg5: tensor<6xui32>, %arg6: tensor<4xui32>, %arg7: tensor<4xui32>) -> (tensor<i64>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg0, %c : tensor<i64>
    %1 = stablehlo.slice %arg6 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %2 = stablehlo.reshape %1 : (tensor<1xui32>) -> tensor<ui32>
    %3 = stablehlo.add %arg1, %arg2 : tensor<6xui32>
    %4 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<ui32>) -> tensor<6xui32>
    %5 = stablehlo.shift_left %arg2, %4 : tensor<6xui32>
    %c_0 = stablehlo.constant dense<32> : tensor<ui32>
    %6 = stablehlo.subtract %c_0, %2 : tensor<ui32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<ui32>) -> tensor<6xui32>
    %8 = stablehlo.shift_right_logical %arg2, %7 : tensor<6xui32>
    %9 = stablehlo.or %5, %8 : tensor<6xui32>
    %10 = stablehlo.xor %3, %9 : tensor<6xui32>
    %11 = stablehlo.slice %arg6 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %12 = stablehlo.reshape %11 : (tensor<1xui32>) -> tensor<ui32>
    %13 = stablehlo.add %3, %10 : tensor<6xui32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<ui32>) -> tensor<6xui32>
    %15 = stablehlo.shift_left %10, %14 : tensor<6xui32>
    %c_1 = stablehlo.constant dense<32> : tensor<ui32>
    %16 = stablehlo.subtract %c_1, %12 : tensor<ui32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<ui32>) -> tensor<6xui32>
    %18 = stablehlo.shift_right_logical %10, %17 : tensor<6xui32>
    %19 = stablehlo.or %15, %18 : tensor<6xui32>
    %20 = stablehlo.xor %13, %19 : tensor<6xui32>
    %21 = stablehlo.slice %arg6 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %22 = stablehlo.reshape %21 : (tensor<1xui32>) -> tensor<ui32>
    %23 = stablehlo.add %13, %20 : tensor<6xui32>
    %24 = stablehlo.broadcast_in_dim %22, dims = [] : (tensor<ui32>) -> tensor<6xui32>
    %25 = stablehlo.shift_left %20, %24 : tensor<6xui32>
    %c_2 = stablehlo.constant dense<32> : tensor<ui32>
    %26 = stablehlo.subtract %c_2, %22 : tensor<ui32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<ui32>) -> tensor<6xui32>
    %28 = stablehlo.shift_right_logical %20, %27 : tensor<6xui32>
    %29 = stablehlo.or %25, %28 : tensor<6xui32>
    %30 = stablehlo.xor %23, %29 : tensor<6xui32>
    %31 = stablehlo.slice %arg6 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %32 = stablehlo.reshape %31 : (tensor<1xui32>) -> tensor<ui32>
    %33 = stablehlo.add %23, %30 : tensor<6xui32>
    %34 = stablehlo.broadcast_in_dim %32, dims = [] : (tensor<ui32>) -> tensor<6xui32>
    %35 = stablehlo.shift_left %30, %34 : tensor<6xui32>
    %c_3 = stablehlo.constant dense<32> : tensor<ui32>
    %36 = stablehlo.subtract %c_3, %32 : tensor<ui32>
    %37 = stablehlo.broadcast_in_dim %36, dims = [] : (tensor<ui32>) -> tensor<6xui32>
    %38 = stablehlo.shift_right_logical %30, %37 : tensor<6xui32>
    %39 = stablehlo.or %35, %38 : tensor<6xui32>
    %40 = stablehlo.xor %33, %39 : tensor<6xui32>
    %41 = stablehlo.add %33, %arg3 : tensor<6xui32>
    %42 = stablehlo.add %40, %arg4 : tensor<6xui32>
    %c_4 = stablehlo.constant dense<1> : tensor<i64>
    %43 = stablehlo.add %arg0, %c_4 : tensor<i64>
    %44 = stablehlo.convert %43 : (tensor<i64>) -> tensor<ui32>
    %45 = stablehlo.broadcast_in_dim %44, dims = [] : (tensor<ui32>) -> tensor<6xui32>
    %46 = stablehlo.add %42, %45 : tensor<6xui32>
    return %0, %41, %46, %arg4, %arg5, %arg3, %arg7, %arg6 : tensor<i64>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<6xui32>, tensor<4xui32>, tensor<4xui32>
  }
  func.func private @_uniform_11(%arg0: tensor<6x2xui32>, %arg1: tensor<f64>, %arg2: tensor<f64>) -> tensor<6xf64> {
    %0 = stablehlo.convert %arg1 : tensor<f64>
    %1 = stablehlo.convert %arg2 : tensor<f64>
    %2 = stablehlo.slice %arg0 [0:6, 0:1] : (tensor<6x2xui32>) -> tensor<6x1xui32>
    %3 = stablehlo.reshape %2 : (tensor<6x1xui32>) -> tensor<6xui32>
    %4 = stablehlo.slice %arg0 [0:6, 1:2] : (tensor<6x2xui32>) -> tensor<6x1xui32>
    %5 = stablehlo.reshape %4 : (tensor<6x1xui32>) -> tensor<6xui32>
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %c_0 = stablehlo.constant dense<0> : tensor<ui32>
    %6:2 = call @threefry2x32_9(%3, %5, %c, %c_0) : (tensor<6xui32>, tensor<6xui32>, tensor<ui32>, tensor<ui32>) -> (tensor<6xui32>, tensor<6xui32>)
    %7 = stablehlo.convert %6#0 : (tensor<6xui32>) -> tensor<6xui64>
    %8 = stablehlo.convert %6#1 : (tensor<6xui32>) -> tensor<6xui64>
    %c_1 = stablehlo.constant dense<32> : tensor<ui64>
    %9 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<ui64>) -> tensor<6xui64>
    %10 = stablehlo.shift_left %7, %9 : tensor<6xui64>
    %11 = stablehlo.or %10, %8 : tensor<6xui64>
    %c_2 = stablehlo.constant dense<12> : tensor<ui64>
    %12 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<ui64>) -> tensor<6xui64>
    %13 = stablehlo.shift_right_logical %11, %12 : tensor<6xui64>
    %c_3 = stablehlo.constant dense<4607182418800017408> : tensor<ui64>
    %14 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<ui64>) -> tensor<6xui64>
    %15 = stablehlo.or %13, %14 : tensor<6xui64>
    %16 = stablehlo.bitcast_convert %15 : (tensor<6xui64>) -> tensor<6xf64>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %17 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %18 = stablehlo.subtract %16, %17 : tensor<6xf64>
    %19 = stablehlo.subtract %1, %0 : tensor<f64>
    %20 = stablehlo.broadcast_in_dim %19, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %21 = stablehlo.multiply %18, %20 : tensor<6xf64>
    %22 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %23 = stablehlo.add %21, %22 : tensor<6xf64>
    %24 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f64>) -> tensor<6xf64>
    %25 = stablehlo.maximum %24, %23 : tensor<6xf64>
    return %25 : tensor<6xf64>
  }
  func.func private @_exponential(%arg0: tensor<6x2xui32>) -> tensor<6xf64> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %0 = call @_uniform_11(%arg0, %cst, %cst_0) : (tensor<6x2xui32>, tensor<f64>, tensor<f64>) -> tensor<6xf64>
    %1 = stablehlo.negate %0 : tensor<6xf64>
    %2 = stablehlo.log_plus_one %1 : tensor<6xf64>
    %3 = stablehlo.negate %2 : tensor<6xf64>
    return %3 : tensor<6xf64>
  }
}
