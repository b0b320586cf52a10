module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5x5xcomplex<f32>> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<(3.000000e-01,0.000000e+00)> : tensor<complex<f32>>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %1 = stablehlo.multiply %arg0, %0 : tensor<2x5x5xcomplex<f32>>
    %2 = call @expm(%1) : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    return %2 : tensor<2x5x5xcomplex<f32>>
  }
  func.func private @expm(%arg0: tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>> {
    %0 = call @expm_0(%arg0) : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    return %0 : tensor<2x5x5xcomplex<f32>>
  }
  func.func private @expm_0(%arg0: tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>> {
    %0:3 = call @_calc_P_Q(%arg0) : (tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>, tensor<2xf32>)
    %cst = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %2 = stablehlo.compare GT, %0#2, %1, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %3 = stablehlo.convert %2 : (tensor<2xi1>) -> tensor<2xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %5 = stablehlo.compare EQ, %3, %4, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %6 = stablehlo.select %5, %0#2, %0#2 : tensor<2xi1>, tensor<2xf32>
    %7 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %8 = stablehlo.select %7, %arg0, %arg0 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %9 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %10 = stablehlo.select %9, %0#0, %0#0 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %11 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %12 = stablehlo.select %11, %0#1, %0#1 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %13 = call @solve(%12, %10) : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %14 = call @_squaring(%13, %6) : (tensor<2x5x5xcomplex<f32>>, tensor<2xf32>) -> tensor<2x5x5xcomplex<f32>>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %15 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %16 = stablehlo.compare EQ, %3, %15, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %17 = stablehlo.select %16, %0#2, %0#2 : tensor<2xi1>, tensor<2xf32>
    %18 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %19 = stablehlo.select %18, %arg0, %arg0 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %20 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %21 = stablehlo.select %20, %0#0, %0#0 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %22 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %23 = stablehlo.select %22, %0#1, %0#1 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %cst_1 = stablehlo.constant dense<(0x7FC00000,0.000000e+00)> : tensor<complex<f32>>
    %24 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %25 = stablehlo.broadcast_in_dim %24, dims = [1, 2] : (tensor<5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %26 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<2xi32>) -> tensor<2x5x5xi32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %27 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %28 = stablehlo.compare LT, %26, %27, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %29 = stablehlo.select %28, %14, %25 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    return %29 : tensor<2x5x5xcomplex<f32>>
  }
  func.func private @_calc_P_Q(%arg0: tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>, tensor<2xf32>) {
    %cst = stablehlo.constant dense<[4.258730e-01, 1.8801527]> : tensor<2xf32>
    %0 = call @norm(%arg0) : (tensor<2x5x5xcomplex<f32>>) -> tensor<2xf32>
    %cst_0 = stablehlo.constant dense<3.92572474> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %2 = stablehlo.divide %0, %1 : tensor<2xf32>
    %3 = stablehlo.log %2 : tensor<2xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %4 = stablehlo.log %cst_1 : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %6 = stablehlo.divide %3, %5 : tensor<2xf32>
    %7 = stablehlo.floor %6 : tensor<2xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %9 = stablehlo.maximum %8, %7 : tensor<2xf32>
    %10 = stablehlo.convert %9 : (tensor<2xf32>) -> tensor<2xcomplex<f32>>
    %cst_3 = stablehlo.constant dense<(2.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<complex<f32>>) -> tensor<2xcomplex<f32>>
    %12 = stablehlo.power %11, %10 : tensor<2xcomplex<f32>>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<2xcomplex<f32>>) -> tensor<2x1x1xcomplex<f32>>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2] : (tensor<2x1x1xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %15 = stablehlo.divide %arg0, %14 : tensor<2x5x5xcomplex<f32>>
    %16 = call @digitize(%0, %cst) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_4 = stablehlo.constant dense<2> : tensor<i32>
    %17 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %18 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %19 = stablehlo.clamp %17, %16, %18 : tensor<2xi32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %20 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %21 = stablehlo.compare EQ, %19, %20, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %23 = stablehlo.select %22, %15, %15 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %24 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %25 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_6 = stablehlo.constant dense<0> : tensor<i64>
    %26 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %27 = stablehlo.add %24, %26 : tensor<5x5xi64>
    %28 = stablehlo.compare EQ, %27, %25, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %29 = stablehlo.convert %28 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f32>>
    %30 = stablehlo.dot_general %23, %23, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %cst_7 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %31 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %32 = stablehlo.multiply %31, %30 : tensor<2x5x5xcomplex<f32>>
    %cst_8 = stablehlo.constant dense<(6.000000e+01,0.000000e+00)> : tensor<complex<f32>>
    %33 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %34 = stablehlo.multiply %33, %29 : tensor<5x5xcomplex<f32>>
    %35 = stablehlo.broadcast_in_dim %34, dims = [1, 2] : (tensor<5x5xcomplex<f32>>) -> tensor<1x5x5xcomplex<f32>>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %37 = stablehlo.add %32, %36 : tensor<2x5x5xcomplex<f32>>
    %38 = stablehlo.dot_general %23, %37, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %cst_9 = stablehlo.constant dense<(1.200000e+01,0.000000e+00)> : tensor<complex<f32>>
    %39 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %40 = stablehlo.multiply %39, %30 : tensor<2x5x5xcomplex<f32>>
    %cst_10 = stablehlo.constant dense<(1.200000e+02,0.000000e+00)> : tensor<complex<f32>>
    %41 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %42 = stablehlo.multiply %41, %29 : tensor<5x5xcomplex<f32>>
    %43 = stablehlo.broadcast_in_dim %42, dims = [1, 2] : (tensor<5x5xcomplex<f32>>) -> tensor<1x5x5xcomplex<f32>>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %45 = stablehlo.add %40, %44 : tensor<2x5x5xcomplex<f32>>
    %c_11 = stablehlo.constant dense<1> : tensor<i32>
    %46 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %47 = stablehlo.compare EQ, %19, %46, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %48 = stablehlo.broadcast_in_dim %47, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %49 = stablehlo.select %48, %15, %15 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %50 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %51 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_12 = stablehlo.constant dense<0> : tensor<i64>
    %52 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %53 = stablehlo.add %50, %52 : tensor<5x5xi64>
    %54 = stablehlo.compare EQ, %53, %51, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %55 = stablehlo.convert %54 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f32>>
    %56 = stablehlo.dot_general %49, %49, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %57 = stablehlo.dot_general %56, %56, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %cst_13 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %58 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %59 = stablehlo.multiply %58, %57 : tensor<2x5x5xcomplex<f32>>
    %cst_14 = stablehlo.constant dense<(4.200000e+02,0.000000e+00)> : tensor<complex<f32>>
    %60 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %61 = stablehlo.multiply %60, %56 : tensor<2x5x5xcomplex<f32>>
    %62 = stablehlo.add %59, %61 : tensor<2x5x5xcomplex<f32>>
    %cst_15 = stablehlo.constant dense<(1.512000e+04,0.000000e+00)> : tensor<complex<f32>>
    %63 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %64 = stablehlo.multiply %63, %55 : tensor<5x5xcomplex<f32>>
    %65 = stablehlo.broadcast_in_dim %64, dims = [1, 2] : (tensor<5x5xcomplex<f32>>) -> tensor<1x5x5xcomplex<f32>>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %67 = stablehlo.add %62, %66 : tensor<2x5x5xcomplex<f32>>
    %68 = stablehlo.dot_general %49, %67, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %cst_16 = stablehlo.constant dense<(3.000000e+01,0.000000e+00)> : tensor<complex<f32>>
    %69 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %70 = stablehlo.multiply %69, %57 : tensor<2x5x5xcomplex<f32>>
    %cst_17 = stablehlo.constant dense<(3.360000e+03,0.000000e+00)> : tensor<complex<f32>>
    %71 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %72 = stablehlo.multiply %71, %56 : tensor<2x5x5xcomplex<f32>>
    %73 = stablehlo.add %70, %72 : tensor<2x5x5xcomplex<f32>>
    %cst_18 = stablehlo.constant dense<(3.024000e+04,0.000000e+00)> : tensor<complex<f32>>
    %74 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %75 = stablehlo.multiply %74, %55 : tensor<5x5xcomplex<f32>>
    %76 = stablehlo.broadcast_in_dim %75, dims = [1, 2] : (tensor<5x5xcomplex<f32>>) -> tensor<1x5x5xcomplex<f32>>
    %77 = stablehlo.broadcast_in_dim %76, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %78 = stablehlo.add %73, %77 : tensor<2x5x5xcomplex<f32>>
    %c_19 = stablehlo.constant dense<2> : tensor<i32>
    %79 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %80 = stablehlo.compare EQ, %19, %79, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %82 = stablehlo.select %81, %15, %15 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %83 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %84 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_20 = stablehlo.constant dense<0> : tensor<i64>
    %85 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %86 = stablehlo.add %83, %85 : tensor<5x5xi64>
    %87 = stablehlo.compare EQ, %86, %84, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %88 = stablehlo.convert %87 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f32>>
    %89 = stablehlo.dot_general %82, %82, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %90 = stablehlo.dot_general %89, %89, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %91 = stablehlo.dot_general %90, %89, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %cst_21 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %92 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %93 = stablehlo.multiply %92, %91 : tensor<2x5x5xcomplex<f32>>
    %cst_22 = stablehlo.constant dense<(1.512000e+03,0.000000e+00)> : tensor<complex<f32>>
    %94 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %95 = stablehlo.multiply %94, %90 : tensor<2x5x5xcomplex<f32>>
    %96 = stablehlo.add %93, %95 : tensor<2x5x5xcomplex<f32>>
    %cst_23 = stablehlo.constant dense<(2.772000e+05,0.000000e+00)> : tensor<complex<f32>>
    %97 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %98 = stablehlo.multiply %97, %89 : tensor<2x5x5xcomplex<f32>>
    %99 = stablehlo.add %96, %98 : tensor<2x5x5xcomplex<f32>>
    %cst_24 = stablehlo.constant dense<(8.648640e+06,0.000000e+00)> : tensor<complex<f32>>
    %100 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %101 = stablehlo.multiply %100, %88 : tensor<5x5xcomplex<f32>>
    %102 = stablehlo.broadcast_in_dim %101, dims = [1, 2] : (tensor<5x5xcomplex<f32>>) -> tensor<1x5x5xcomplex<f32>>
    %103 = stablehlo.broadcast_in_dim %102, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %104 = stablehlo.add %99, %103 : tensor<2x5x5xcomplex<f32>>
    %105 = stablehlo.dot_general %82, %104, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %cst_25 = stablehlo.constant dense<(5.600000e+01,0.000000e+00)> : tensor<complex<f32>>
    %106 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %107 = stablehlo.multiply %106, %91 : tensor<2x5x5xcomplex<f32>>
    %cst_26 = stablehlo.constant dense<(2.520000e+04,0.000000e+00)> : tensor<complex<f32>>
    %108 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %109 = stablehlo.multiply %108, %90 : tensor<2x5x5xcomplex<f32>>
    %110 = stablehlo.add %107, %109 : tensor<2x5x5xcomplex<f32>>
    %cst_27 = stablehlo.constant dense<(1.995840e+06,0.000000e+00)> : tensor<complex<f32>>
    %111 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %112 = stablehlo.multiply %111, %89 : tensor<2x5x5xcomplex<f32>>
    %113 = stablehlo.add %110, %112 : tensor<2x5x5xcomplex<f32>>
    %cst_28 = stablehlo.constant dense<(0x4B83F7C0,0.000000e+00)> : tensor<complex<f32>>
    %114 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %115 = stablehlo.multiply %114, %88 : tensor<5x5xcomplex<f32>>
    %116 = stablehlo.broadcast_in_dim %115, dims = [1, 2] : (tensor<5x5xcomplex<f32>>) -> tensor<1x5x5xcomplex<f32>>
    %117 = stablehlo.broadcast_in_dim %116, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %118 = stablehlo.add %113, %117 : tensor<2x5x5xcomplex<f32>>
    %119 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<2xi32>) -> tensor<2x5x5xi32>
    %c_29 = stablehlo.constant dense<1> : tensor<i32>
    %120 = stablehlo.broadcast_in_dim %c_29, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %121 = stablehlo.compare LT, %119, %120, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %c_30 = stablehlo.constant dense<2> : tensor<i32>
    %122 = stablehlo.broadcast_in_dim %c_30, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %123 = stablehlo.compare LT, %119, %122, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %124 = stablehlo.select %123, %68, %105 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %125 = stablehlo.select %121, %38, %124 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %126 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<2xi32>) -> tensor<2x5x5xi32>
    %c_31 = stablehlo.constant dense<1> : tensor<i32>
    %127 = stablehlo.broadcast_in_dim %c_31, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %128 = stablehlo.compare LT, %126, %127, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %c_32 = stablehlo.constant dense<2> : tensor<i32>
    %129 = stablehlo.broadcast_in_dim %c_32, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %130 = stablehlo.compare LT, %126, %129, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %131 = stablehlo.select %130, %78, %118 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %132 = stablehlo.select %128, %45, %131 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %133 = stablehlo.add %125, %132 : tensor<2x5x5xcomplex<f32>>
    %134 = stablehlo.negate %125 : tensor<2x5x5xcomplex<f32>>
    %135 = stablehlo.add %134, %132 : tensor<2x5x5xcomplex<f32>>
    return %133, %135, %9 : tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>, tensor<2xf32>
  }
  func.func private @norm(%arg0: tensor<2x5x5xcomplex<f32>>) -> tensor<2xf32> {
    %0 = stablehlo.abs %arg0 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x5x5xf32>, tensor<f32>) -> tensor<2x5xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<2x5xf32>, tensor<f32>) -> tensor<2xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %4 = stablehlo.maximum %3, %2 : tensor<2xf32>
    return %4 : tensor<2xf32>
  }
  func.func private @digitize(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> tensor<2xi32> {
    %0 = stablehlo.slice %arg1 [1:2] : (tensor<2xf32>) -> tensor<1xf32>
    %1 = stablehlo.reshape %0 : (tensor<1xf32>) -> tensor<f32>
    %2 = stablehlo.slice %arg1 [0:1] : (tensor<2xf32>) -> tensor<1xf32>
    %3 = stablehlo.reshape %2 : (tensor<1xf32>) -> tensor<f32>
    %4 = stablehlo.compare GE, %1, %3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %5 = call @searchsorted(%arg1, %arg0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi32>
    %6 = stablehlo.reverse %arg1, dims = [0] : tensor<2xf32>
    %7 = call @searchsorted(%6, %arg0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi32>
    %c = stablehlo.constant dense<2> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %9 = stablehlo.subtract %8, %7 : tensor<2xi32>
    %10 = call @_where(%4, %5, %9) : (tensor<i1>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    return %10 : tensor<2xi32>
  }
  func.func private @searchsorted(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> tensor<2xi32> {
    %0 = call @_searchsorted_scan_impl(%arg0, %arg1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi32>
    return %0 : tensor<2xi32>
  }
  func.func private @_searchsorted_scan_impl(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> tensor<2xi32> {
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %c_0 = stablehlo.constant dense<2> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %2:5 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %arg1, %iterArg_3 = %c_1, %iterArg_4 = %0, %iterArg_5 = %1) : tensor<2xf32>, tensor<2xf32>, tensor<i64>, tensor<2xui32>, tensor<2xui32>
    cond {
      %c_6 = stablehlo.constant dense<2> : tensor<i64>
      %4 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %4:2 = func.call @closed_call(%iterArg, %iterArg_2, %iterArg_4, %iterArg_5) : (tensor<2xf32>, tensor<2xf32>, tensor<2xui32>, tensor<2xui32>) -> (tensor<2xui32>, tensor<2xui32>)
      %c_6 = stablehlo.constant dense<1> : tensor<i64>
      %5 = stablehlo.add %iterArg_3, %c_6 : tensor<i64>
      stablehlo.return %iterArg, %iterArg_2, %5, %4#0, %4#1 : tensor<2xf32>, tensor<2xf32>, tensor<i64>, tensor<2xui32>, tensor<2xui32>
    }
    %3 = stablehlo.convert %2#4 : (tensor<2xui32>) -> tensor<2xi32>
    return %3 : tensor<2xi32>
  }
  func.func private @closed_call(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>, %arg2: tensor<2xui32>, %arg3: tensor<2xui32>) -> (tensor<2xui32>, tensor<2xui32>) {
    %0 = stablehlo.subtract %arg3, %arg2 : tensor<2xui32>
    %c = stablehlo.constant dense<2> : tensor<i64>
    %1 = call @floor_divide(%0, %c) : (tensor<2xui32>, tensor<i64>) -> tensor<2xui32>
    %2 = stablehlo.add %arg2, %1 : tensor<2xui32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xui32>) -> tensor<2x1xui32>
    %4 = "stablehlo.gather"(%arg0, %3) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<2xf32>, tensor<2x1xui32>) -> tensor<2x1xf32>
    %5 = stablehlo.reshape %4 : (tensor<2x1xf32>) -> tensor<2xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %7 = stablehlo.compare EQ, %arg1, %6, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %9 = stablehlo.select %7, %8, %arg1 : tensor<2xi1>, tensor<2xf32>
    %10 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %12 = stablehlo.select %10, %11, %9 : tensor<2xi1>, tensor<2xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %14 = stablehlo.compare EQ, %5, %13, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %16 = stablehlo.select %14, %15, %5 : tensor<2xi1>, tensor<2xf32>
    %17 = stablehlo.compare NE, %5, %5, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %19 = stablehlo.select %17, %18, %16 : tensor<2xi1>, tensor<2xf32>
    %20 = stablehlo.compare LT, %12, %19, TOTALORDER : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %21 = stablehlo.select %20, %arg2, %2 : tensor<2xi1>, tensor<2xui32>
    %22 = stablehlo.select %20, %2, %arg3 : tensor<2xi1>, tensor<2xui32>
    return %21, %22 : tensor<2xui32>, tensor<2xui32>
  }
  func.func private @floor_divide(%arg0: tensor<2xui32>, %arg1: tensor<i64>) -> tensor<2xui32> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %2 = stablehlo.divide %arg0, %1 : tensor<2xui32>
    return %2 : tensor<2xui32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<2xi32>, %arg2: tensor<2xi32>) -> tensor<2xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<2xi32>
    return %0 : tensor<2xi32>
  }
  func.func private @solve(%arg0: tensor<2x5x5xcomplex<f32>>, %arg1: tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>> {
    %0:3 = stablehlo.custom_call @lapack_cgetrf_ffi(%arg0) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i, n], [i]) {i=2, j=5, k=5, l=5, m=5, n=5}, custom>} : (tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5x5xcomplex<f32>>, tensor<2x5xi32>, tensor<2xi32>)
    %c = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x5xi32>
    %2 = stablehlo.subtract %0#1, %1 : tensor<2x5xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %4 = stablehlo.compare GE, %0#2, %3, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %7 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %8 = stablehlo.select %7, %0#0, %6 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %9 = stablehlo.iota dim = 1 : tensor<2x5xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %10:4 = stablehlo.while(%iterArg = %2, %iterArg_3 = %c_2, %iterArg_4 = %c_1, %iterArg_5 = %9) : tensor<2x5xi32>, tensor<i64>, tensor<i64>, tensor<2x5xi32>
    cond {
      %c_6 = stablehlo.constant dense<5> : tensor<i64>
      %14 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %14 : tensor<i1>
    } do {
      %14:2 = func.call @closed_call_1(%iterArg, %iterArg_4, %iterArg_5) : (tensor<2x5xi32>, tensor<i64>, tensor<2x5xi32>) -> (tensor<i64>, tensor<2x5xi32>)
      %c_6 = stablehlo.constant dense<1> : tensor<i64>
      %15 = stablehlo.add %iterArg_3, %c_6 : tensor<i64>
      stablehlo.return %iterArg, %15, %14#0, %14#1 : tensor<2x5xi32>, tensor<i64>, tensor<i64>, tensor<2x5xi32>
    }
    %11 = stablehlo.transpose %arg1, dims = [0, 2, 1] : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %12 = call @_lu_solve(%8, %10#3, %11) : (tensor<2x5x5xcomplex<f32>>, tensor<2x5xi32>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %13 = stablehlo.transpose %12, dims = [0, 2, 1] : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    return %13 : tensor<2x5x5xcomplex<f32>>
  }
  func.func private @closed_call_1(%arg0: tensor<2x5xi32>, %arg1: tensor<i64>, %arg2: tensor<2x5xi32>) -> (tensor<i64>, tensor<2x5xi32>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg1, %c : tensor<i64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.compare LT, %arg1, %c_0, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %2 = stablehlo.convert %arg1 : tensor<i64>
    %c_1 = stablehlo.constant dense<5> : tensor<i64>
    %3 = stablehlo.add %2, %c_1 : tensor<i64>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<i1>, tensor<i64>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<i64>) -> tensor<1xi64>
    %6 = "stablehlo.gather"(%arg0, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [1]>, indices_are_sorted = true, slice_sizes = array<i64: 2, 1>}> : (tensor<2x5xi32>, tensor<1xi64>) -> tensor<2x1xi32>
    %7 = stablehlo.reshape %6 : (tensor<2x1xi32>) -> tensor<2xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %8 = stablehlo.compare LT, %arg1, %c_2, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %9 = stablehlo.convert %arg1 : tensor<i64>
    %c_3 = stablehlo.constant dense<5> : tensor<i64>
    %10 = stablehlo.add %9, %c_3 : tensor<i64>
    %11 = stablehlo.select %8, %10, %arg1 : tensor<i1>, tensor<i64>
    %12 = stablehlo.broadcast_in_dim %11, dims = [] : (tensor<i64>) -> tensor<1xi64>
    %13 = "stablehlo.gather"(%arg2, %12) <{dimension_numbers = #stablehlo.gather<offset_dims = [0, 1], start_index_map = [1]>, indices_are_sorted = true, slice_sizes = array<i64: 2, 1>}> : (tensor<2x5xi32>, tensor<1xi64>) -> tensor<2x1xi32>
    %14 = stablehlo.reshape %13 : (tensor<2x1xi32>) -> tensor<2xi32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %15 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %16 = stablehlo.compare LT, %7, %15, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %c_5 = stablehlo.constant dense<5> : tensor<i32>
    %17 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %18 = stablehlo.add %7, %17 : tensor<2xi32>
    %19 = stablehlo.select %16, %18, %7 : tensor<2xi1>, tensor<2xi32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %21 = "stablehlo.gather"(%arg2, %20) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = true, slice_sizes = array<i64: 1, 1>}> : (tensor<2x5xi32>, tensor<2x1xi32>) -> tensor<2x1xi32>
    %22 = stablehlo.reshape %21 : (tensor<2x1xi32>) -> tensor<2xi32>
    %c_6 = stablehlo.constant dense<0> : tensor<i64>
    %23 = stablehlo.compare LT, %arg1, %c_6, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %c_7 = stablehlo.constant dense<5> : tensor<i64>
    %24 = stablehlo.add %arg1, %c_7 : tensor<i64>
    %25 = stablehlo.select %23, %24, %arg1 : tensor<i1>, tensor<i64>
    %26 = stablehlo.convert %25 : (tensor<i64>) -> tensor<i32>
    %27 = stablehlo.broadcast_in_dim %26, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %28 = "stablehlo.scatter"(%arg2, %27, %22) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], inserted_window_dims = [1], scatter_dims_to_operand_dims = [1]>, unique_indices = true}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      stablehlo.return %arg4 : tensor<i32>
    }) : (tensor<2x5xi32>, tensor<1xi32>, tensor<2xi32>) -> tensor<2x5xi32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %29 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %30 = stablehlo.compare LT, %7, %29, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %c_9 = stablehlo.constant dense<5> : tensor<i32>
    %31 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %32 = stablehlo.add %7, %31 : tensor<2xi32>
    %33 = stablehlo.select %30, %32, %7 : tensor<2xi1>, tensor<2xi32>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %35 = "stablehlo.scatter"(%28, %34, %14) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 1>, unique_indices = true}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>):
      stablehlo.return %arg4 : tensor<i32>
    }) : (tensor<2x5xi32>, tensor<2x1xi32>, tensor<2xi32>) -> tensor<2x5xi32>
    return %0, %35 : tensor<i64>, tensor<2x5xi32>
  }
  func.func private @_lu_solve(%arg0: tensor<2x5x5xcomplex<f32>>, %arg1: tensor<2x5xi32>, %arg2: tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [0, 1, 2] : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5x1xcomplex<f32>>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x5xi32>
    %2 = stablehlo.compare LT, %arg1, %1, SIGNED : (tensor<2x5xi32>, tensor<2x5xi32>) -> tensor<2x5xi1>
    %c_0 = stablehlo.constant dense<5> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x5xi32>
    %4 = stablehlo.add %arg1, %3 : tensor<2x5xi32>
    %5 = stablehlo.select %2, %4, %arg1 : tensor<2x5xi1>, tensor<2x5xi32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<2x5xi32>) -> tensor<2x5x1xi32>
    %7 = "stablehlo.gather"(%0, %6) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 3], collapsed_slice_dims = [2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [2], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 5, 1, 1>}> : (tensor<2x5x5x1xcomplex<f32>>, tensor<2x5x1xi32>) -> tensor<2x5x5x1xcomplex<f32>>
    %8 = stablehlo.transpose %7, dims = [0, 2, 3, 1] : (tensor<2x5x5x1xcomplex<f32>>) -> tensor<2x5x1x5xcomplex<f32>>
    %9 = stablehlo.reshape %8 : (tensor<2x5x1x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %10 = stablehlo.custom_call @lapack_ctrsm_ffi(%arg0, %9) {backend_config = "", mhlo.backend_config = {diag = 85 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l, m])->([i, n, o]) {i=2, j=5, k=5, l=5, m=5, n=5, o=5}, custom>} : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %11 = stablehlo.reshape %10 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x1x5xcomplex<f32>>
    %12 = stablehlo.reshape %11 : (tensor<2x5x1x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %13 = stablehlo.custom_call @lapack_ctrsm_ffi(%arg0, %12) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 85 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l, m])->([i, n, o]) {i=2, j=5, k=5, l=5, m=5, n=5, o=5}, custom>} : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %14 = stablehlo.reshape %13 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x1x5xcomplex<f32>>
    %15 = stablehlo.transpose %14, dims = [0, 3, 1, 2] : (tensor<2x5x1x5xcomplex<f32>>) -> tensor<2x5x5x1xcomplex<f32>>
    %16 = stablehlo.reshape %15 : (tensor<2x5x5x1xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    return %16 : tensor<2x5x5xcomplex<f32>>
  }
  func.func private @_squaring(%arg0: tensor<2x5x5xcomplex<f32>>, %arg1: tensor<2xf32>) -> tensor<2x5x5xcomplex<f32>> {
    %0 = stablehlo.iota dim = 0 : tensor<16xf32>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1:4 = stablehlo.while(%iterArg = %0, %iterArg_0 = %arg1, %iterArg_1 = %c, %iterArg_2 = %arg0) : tensor<16xf32>, tensor<2xf32>, tensor<i64>, tensor<2x5x5xcomplex<f32>>
    cond {
      %c_3 = stablehlo.constant dense<16> : tensor<i64>
      %2 = stablehlo.compare LT, %iterArg_1, %c_3, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_1) : (tensor<16xf32>, tensor<i64>) -> tensor<f32>
      %3 = func.call @closed_call_2(%iterArg_0, %iterArg_2, %2) : (tensor<2xf32>, tensor<2x5x5xcomplex<f32>>, tensor<f32>) -> tensor<2x5x5xcomplex<f32>>
      %c_3 = stablehlo.constant dense<1> : tensor<i64>
      %4 = stablehlo.add %iterArg_1, %c_3 : tensor<i64>
      stablehlo.return %iterArg, %iterArg_0, %4, %3 : tensor<16xf32>, tensor<2xf32>, tensor<i64>, tensor<2x5x5xcomplex<f32>>
    }
    return %1#3 : tensor<2x5x5xcomplex<f32>>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<16xf32>, %arg1: tensor<i64>) -> tensor<f32> {
    %0 = stablehlo.dynamic_slice %arg0, %arg1, sizes = [1] : (tensor<16xf32>, tensor<i64>) -> tensor<1xf32>
    %1 = stablehlo.reshape %0 : (tensor<1xf32>) -> tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @closed_call_2(%arg0: tensor<2xf32>, %arg1: tensor<2x5x5xcomplex<f32>>, %arg2: tensor<f32>) -> tensor<2x5x5xcomplex<f32>> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %1 = stablehlo.compare LT, %0, %arg0, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    %2 = stablehlo.convert %1 : (tensor<2xi1>) -> tensor<2xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %6 = stablehlo.select %5, %arg1, %arg1 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %8 = stablehlo.compare EQ, %2, %7, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %10 = stablehlo.select %9, %arg1, %arg1 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %11 = stablehlo.dot_general %10, %10, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %12 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi32>) -> tensor<2x5x5xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %14 = stablehlo.compare LT, %12, %13, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %15 = stablehlo.select %14, %6, %11 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    return %15 : tensor<2x5x5xcomplex<f32>>
  }
}
