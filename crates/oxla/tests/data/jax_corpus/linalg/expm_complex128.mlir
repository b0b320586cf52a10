module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xcomplex<f64>>) -> (tensor<2x5x5xcomplex<f64>> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<(3.000000e-01,0.000000e+00)> : tensor<complex<f64>>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %1 = stablehlo.multiply %arg0, %0 : tensor<2x5x5xcomplex<f64>>
    %2 = call @expm(%1) : (tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    return %2 : tensor<2x5x5xcomplex<f64>>
  }
  func.func private @expm(%arg0: tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>> {
    %0 = call @expm_0(%arg0) : (tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    return %0 : tensor<2x5x5xcomplex<f64>>
  }
  func.func private @expm_0(%arg0: tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>> {
    %0:3 = call @_calc_P_Q(%arg0) : (tensor<2x5x5xcomplex<f64>>) -> (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>, tensor<2xf64>)
    %cst = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<2xf64>
    %2 = stablehlo.compare GT, %0#2, %1, FLOAT : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %3 = stablehlo.convert %2 : (tensor<2xi1>) -> tensor<2xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %5 = stablehlo.compare EQ, %3, %4, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %6 = stablehlo.select %5, %0#2, %0#2 : tensor<2xi1>, tensor<2xf64>
    %7 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %8 = stablehlo.select %7, %arg0, %arg0 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %9 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %10 = stablehlo.select %9, %0#0, %0#0 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %11 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %12 = stablehlo.select %11, %0#1, %0#1 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %13 = call @solve(%12, %10) : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %14 = call @_squaring(%13, %6) : (tensor<2x5x5xcomplex<f64>>, tensor<2xf64>) -> tensor<2x5x5xcomplex<f64>>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %15 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %16 = stablehlo.compare EQ, %3, %15, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %17 = stablehlo.select %16, %0#2, %0#2 : tensor<2xi1>, tensor<2xf64>
    %18 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %19 = stablehlo.select %18, %arg0, %arg0 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %20 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %21 = stablehlo.select %20, %0#0, %0#0 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %22 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %23 = stablehlo.select %22, %0#1, %0#1 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %cst_1 = stablehlo.constant dense<(0x7FF8000000000000,0.000000e+00)> : tensor<complex<f64>>
    %24 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %25 = stablehlo.broadcast_in_dim %24, dims = [1, 2] : (tensor<5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %26 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<2xi32>) -> tensor<2x5x5xi32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %27 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %28 = stablehlo.compare LT, %26, %27, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %29 = stablehlo.select %28, %14, %25 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    return %29 : tensor<2x5x5xcomplex<f64>>
  }
  func.func private @_calc_P_Q(%arg0: tensor<2x5x5xcomplex<f64>>) -> (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>, tensor<2xf64>) {
    %cst = stablehlo.constant dense<[0.01495585217958292, 0.253939833006323, 0.95041789961629319, 2.097847961257068]> : tensor<4xf64>
    %0 = call @norm(%arg0) : (tensor<2x5x5xcomplex<f64>>) -> tensor<2xf64>
    %cst_0 = stablehlo.constant dense<5.3719203511481517> : tensor<f64>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<2xf64>
    %2 = stablehlo.divide %0, %1 : tensor<2xf64>
    %3 = stablehlo.log %2 : tensor<2xf64>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %4 = stablehlo.log %cst_1 : tensor<f64>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f64>) -> tensor<2xf64>
    %6 = stablehlo.divide %3, %5 : tensor<2xf64>
    %7 = stablehlo.floor %6 : tensor<2xf64>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<2xf64>
    %9 = stablehlo.maximum %8, %7 : tensor<2xf64>
    %10 = stablehlo.convert %9 : (tensor<2xf64>) -> tensor<2xcomplex<f64>>
    %cst_3 = stablehlo.constant dense<(2.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<complex<f64>>) -> tensor<2xcomplex<f64>>
    %12 = stablehlo.power %11, %10 : tensor<2xcomplex<f64>>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<2xcomplex<f64>>) -> tensor<2x1x1xcomplex<f64>>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1, 2] : (tensor<2x1x1xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %15 = stablehlo.divide %arg0, %14 : tensor<2x5x5xcomplex<f64>>
    %16 = call @digitize(%0, %cst) : (tensor<2xf64>, tensor<4xf64>) -> tensor<2xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_4 = stablehlo.constant dense<4> : tensor<i32>
    %17 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %18 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %19 = stablehlo.clamp %17, %16, %18 : tensor<2xi32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %20 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %21 = stablehlo.compare EQ, %19, %20, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %23 = stablehlo.select %22, %15, %15 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %24 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %25 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_6 = stablehlo.constant dense<0> : tensor<i64>
    %26 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %27 = stablehlo.add %24, %26 : tensor<5x5xi64>
    %28 = stablehlo.compare EQ, %27, %25, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %29 = stablehlo.convert %28 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f64>>
    %30 = stablehlo.dot_general %23, %23, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %cst_7 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %31 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %32 = stablehlo.multiply %31, %30 : tensor<2x5x5xcomplex<f64>>
    %cst_8 = stablehlo.constant dense<(6.000000e+01,0.000000e+00)> : tensor<complex<f64>>
    %33 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %34 = stablehlo.multiply %33, %29 : tensor<5x5xcomplex<f64>>
    %35 = stablehlo.broadcast_in_dim %34, dims = [1, 2] : (tensor<5x5xcomplex<f64>>) -> tensor<1x5x5xcomplex<f64>>
    %36 = stablehlo.broadcast_in_dim %35, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %37 = stablehlo.add %32, %36 : tensor<2x5x5xcomplex<f64>>
    %38 = stablehlo.dot_general %23, %37, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %cst_9 = stablehlo.constant dense<(1.200000e+01,0.000000e+00)> : tensor<complex<f64>>
    %39 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %40 = stablehlo.multiply %39, %30 : tensor<2x5x5xcomplex<f64>>
    %cst_10 = stablehlo.constant dense<(1.200000e+02,0.000000e+00)> : tensor<complex<f64>>
    %41 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %42 = stablehlo.multiply %41, %29 : tensor<5x5xcomplex<f64>>
    %43 = stablehlo.broadcast_in_dim %42, dims = [1, 2] : (tensor<5x5xcomplex<f64>>) -> tensor<1x5x5xcomplex<f64>>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %45 = stablehlo.add %40, %44 : tensor<2x5x5xcomplex<f64>>
    %c_11 = stablehlo.constant dense<1> : tensor<i32>
    %46 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %47 = stablehlo.compare EQ, %19, %46, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %48 = stablehlo.broadcast_in_dim %47, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %49 = stablehlo.select %48, %15, %15 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %50 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %51 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_12 = stablehlo.constant dense<0> : tensor<i64>
    %52 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %53 = stablehlo.add %50, %52 : tensor<5x5xi64>
    %54 = stablehlo.compare EQ, %53, %51, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %55 = stablehlo.convert %54 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f64>>
    %56 = stablehlo.dot_general %49, %49, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %57 = stablehlo.dot_general %56, %56, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %cst_13 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %58 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %59 = stablehlo.multiply %58, %57 : tensor<2x5x5xcomplex<f64>>
    %cst_14 = stablehlo.constant dense<(4.200000e+02,0.000000e+00)> : tensor<complex<f64>>
    %60 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %61 = stablehlo.multiply %60, %56 : tensor<2x5x5xcomplex<f64>>
    %62 = stablehlo.add %59, %61 : tensor<2x5x5xcomplex<f64>>
    %cst_15 = stablehlo.constant dense<(1.512000e+04,0.000000e+00)> : tensor<complex<f64>>
    %63 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %64 = stablehlo.multiply %63, %55 : tensor<5x5xcomplex<f64>>
    %65 = stablehlo.broadcast_in_dim %64, dims = [1, 2] : (tensor<5x5xcomplex<f64>>) -> tensor<1x5x5xcomplex<f64>>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %67 = stablehlo.add %62, %66 : tensor<2x5x5xcomplex<f64>>
    %68 = stablehlo.dot_general %49, %67, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %cst_16 = stablehlo.constant dense<(3.000000e+01,0.000000e+00)> : tensor<complex<f64>>
    %69 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %70 = stablehlo.multiply %69, %57 : tensor<2x5x5xcomplex<f64>>
    %cst_17 = stablehlo.constant dense<(3.360000e+03,0.000000e+00)> : tensor<complex<f64>>
    %71 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %72 = stablehlo.multiply %71, %56 : tensor<2x5x5xcomplex<f64>>
    %73 = stablehlo.add %70, %72 : tensor<2x5x5xcomplex<f64>>
    %cst_18 = stablehlo.constant dense<(3.024000e+04,0.000000e+00)> : tensor<complex<f64>>
    %74 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %75 = stablehlo.multiply %74, %55 : tensor<5x5xcomplex<f64>>
    %76 = stablehlo.broadcast_in_dim %75, dims = [1, 2] : (tensor<5x5xcomplex<f64>>) -> tensor<1x5x5xcomplex<f64>>
    %77 = stablehlo.broadcast_in_dim %76, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %78 = stablehlo.add %73, %77 : tensor<2x5x5xcomplex<f64>>
    %c_19 = stablehlo.constant dense<2> : tensor<i32>
    %79 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %80 = stablehlo.compare EQ, %19, %79, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %82 = stablehlo.select %81, %15, %15 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %83 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %84 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_20 = stablehlo.constant dense<0> : tensor<i64>
    %85 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %86 = stablehlo.add %83, %85 : tensor<5x5xi64>
    %87 = stablehlo.compare EQ, %86, %84, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %88 = stablehlo.convert %87 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f64>>
    %89 = stablehlo.dot_general %82, %82, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %90 = stablehlo.dot_general %89, %89, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %91 = stablehlo.dot_general %90, %89, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %cst_21 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %92 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %93 = stablehlo.multiply %92, %91 : tensor<2x5x5xcomplex<f64>>
    %cst_22 = stablehlo.constant dense<(1.512000e+03,0.000000e+00)> : tensor<complex<f64>>
    %94 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %95 = stablehlo.multiply %94, %90 : tensor<2x5x5xcomplex<f64>>
    %96 = stablehlo.add %93, %95 : tensor<2x5x5xcomplex<f64>>
    %cst_23 = stablehlo.constant dense<(2.772000e+05,0.000000e+00)> : tensor<complex<f64>>
    %97 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %98 = stablehlo.multiply %97, %89 : tensor<2x5x5xcomplex<f64>>
    %99 = stablehlo.add %96, %98 : tensor<2x5x5xcomplex<f64>>
    %cst_24 = stablehlo.constant dense<(8.648640e+06,0.000000e+00)> : tensor<complex<f64>>
    %100 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %101 = stablehlo.multiply %100, %88 : tensor<5x5xcomplex<f64>>
    %102 = stablehlo.broadcast_in_dim %101, dims = [1, 2] : (tensor<5x5xcomplex<f64>>) -> tensor<1x5x5xcomplex<f64>>
    %103 = stablehlo.broadcast_in_dim %102, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %104 = stablehlo.add %99, %103 : tensor<2x5x5xcomplex<f64>>
    %105 = stablehlo.dot_general %82, %104, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %cst_25 = stablehlo.constant dense<(5.600000e+01,0.000000e+00)> : tensor<complex<f64>>
    %106 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %107 = stablehlo.multiply %106, %91 : tensor<2x5x5xcomplex<f64>>
    %cst_26 = stablehlo.constant dense<(2.520000e+04,0.000000e+00)> : tensor<complex<f64>>
    %108 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %109 = stablehlo.multiply %108, %90 : tensor<2x5x5xcomplex<f64>>
    %110 = stablehlo.add %107, %109 : tensor<2x5x5xcomplex<f64>>
    %cst_27 = stablehlo.constant dense<(1.995840e+06,0.000000e+00)> : tensor<complex<f64>>
    %111 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %112 = stablehlo.multiply %111, %89 : tensor<2x5x5xcomplex<f64>>
    %113 = stablehlo.add %110, %112 : tensor<2x5x5xcomplex<f64>>
    %cst_28 = stablehlo.constant dense<(0x41707EF800000000,0.000000e+00)> : tensor<complex<f64>>
    %114 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %115 = stablehlo.multiply %114, %88 : tensor<5x5xcomplex<f64>>
    %116 = stablehlo.broadcast_in_dim %115, dims = [1, 2] : (tensor<5x5xcomplex<f64>>) -> tensor<1x5x5xcomplex<f64>>
    %117 = stablehlo.broadcast_in_dim %116, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %118 = stablehlo.add %113, %117 : tensor<2x5x5xcomplex<f64>>
    %c_29 = stablehlo.constant dense<3> : tensor<i32>
    %119 = stablehlo.broadcast_in_dim %c_29, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %120 = stablehlo.compare EQ, %19, %119, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %121 = stablehlo.broadcast_in_dim %120, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %122 = stablehlo.select %121, %15, %15 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %123 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %124 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_30 = stablehlo.constant dense<0> : tensor<i64>
    %125 = stablehlo.broadcast_in_dim %c_30, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %126 = stablehlo.add %123, %125 : tensor<5x5xi64>
    %127 = stablehlo.compare EQ, %126, %124, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %128 = stablehlo.convert %127 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f64>>
    %129 = stablehlo.dot_general %122, %122, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %130 = stablehlo.dot_general %129, %129, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %131 = stablehlo.dot_general %130, %129, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %132 = stablehlo.dot_general %131, %129, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %cst_31 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %133 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %134 = stablehlo.multiply %133, %132 : tensor<2x5x5xcomplex<f64>>
    %cst_32 = stablehlo.constant dense<(3.960000e+03,0.000000e+00)> : tensor<complex<f64>>
    %135 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %136 = stablehlo.multiply %135, %131 : tensor<2x5x5xcomplex<f64>>
    %137 = stablehlo.add %134, %136 : tensor<2x5x5xcomplex<f64>>
    %cst_33 = stablehlo.constant dense<(2.162160e+06,0.000000e+00)> : tensor<complex<f64>>
    %138 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %139 = stablehlo.multiply %138, %130 : tensor<2x5x5xcomplex<f64>>
    %140 = stablehlo.add %137, %139 : tensor<2x5x5xcomplex<f64>>
    %cst_34 = stablehlo.constant dense<(0x41B20ADF40000000,0.000000e+00)> : tensor<complex<f64>>
    %141 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %142 = stablehlo.multiply %141, %129 : tensor<2x5x5xcomplex<f64>>
    %143 = stablehlo.add %140, %142 : tensor<2x5x5xcomplex<f64>>
    %cst_35 = stablehlo.constant dense<(0x42006E7908000000,0.000000e+00)> : tensor<complex<f64>>
    %144 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %145 = stablehlo.multiply %144, %128 : tensor<5x5xcomplex<f64>>
    %146 = stablehlo.broadcast_in_dim %145, dims = [1, 2] : (tensor<5x5xcomplex<f64>>) -> tensor<1x5x5xcomplex<f64>>
    %147 = stablehlo.broadcast_in_dim %146, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %148 = stablehlo.add %143, %147 : tensor<2x5x5xcomplex<f64>>
    %149 = stablehlo.dot_general %122, %148, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %cst_36 = stablehlo.constant dense<(9.000000e+01,0.000000e+00)> : tensor<complex<f64>>
    %150 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %151 = stablehlo.multiply %150, %132 : tensor<2x5x5xcomplex<f64>>
    %cst_37 = stablehlo.constant dense<(1.108800e+05,0.000000e+00)> : tensor<complex<f64>>
    %152 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %153 = stablehlo.multiply %152, %131 : tensor<2x5x5xcomplex<f64>>
    %154 = stablehlo.add %151, %153 : tensor<2x5x5xcomplex<f64>>
    %cst_38 = stablehlo.constant dense<(0x417CDE3200000000,0.000000e+00)> : tensor<complex<f64>>
    %155 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %156 = stablehlo.multiply %155, %130 : tensor<2x5x5xcomplex<f64>>
    %157 = stablehlo.add %154, %156 : tensor<2x5x5xcomplex<f64>>
    %cst_39 = stablehlo.constant dense<(0x41DEEE1100000000,0.000000e+00)> : tensor<complex<f64>>
    %158 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %159 = stablehlo.multiply %158, %129 : tensor<2x5x5xcomplex<f64>>
    %160 = stablehlo.add %157, %159 : tensor<2x5x5xcomplex<f64>>
    %cst_40 = stablehlo.constant dense<(0x42106E7908000000,0.000000e+00)> : tensor<complex<f64>>
    %161 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %162 = stablehlo.multiply %161, %128 : tensor<5x5xcomplex<f64>>
    %163 = stablehlo.broadcast_in_dim %162, dims = [1, 2] : (tensor<5x5xcomplex<f64>>) -> tensor<1x5x5xcomplex<f64>>
    %164 = stablehlo.broadcast_in_dim %163, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %165 = stablehlo.add %160, %164 : tensor<2x5x5xcomplex<f64>>
    %c_41 = stablehlo.constant dense<4> : tensor<i32>
    %166 = stablehlo.broadcast_in_dim %c_41, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %167 = stablehlo.compare EQ, %19, %166, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %168 = stablehlo.broadcast_in_dim %167, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %169 = stablehlo.select %168, %15, %15 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %170 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %171 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_42 = stablehlo.constant dense<0> : tensor<i64>
    %172 = stablehlo.broadcast_in_dim %c_42, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %173 = stablehlo.add %170, %172 : tensor<5x5xi64>
    %174 = stablehlo.compare EQ, %173, %171, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %175 = stablehlo.convert %174 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f64>>
    %176 = stablehlo.dot_general %169, %169, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %177 = stablehlo.dot_general %176, %176, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %178 = stablehlo.dot_general %177, %176, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %cst_43 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %179 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %180 = stablehlo.multiply %179, %178 : tensor<2x5x5xcomplex<f64>>
    %cst_44 = stablehlo.constant dense<(1.638000e+04,0.000000e+00)> : tensor<complex<f64>>
    %181 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %182 = stablehlo.multiply %181, %177 : tensor<2x5x5xcomplex<f64>>
    %183 = stablehlo.add %180, %182 : tensor<2x5x5xcomplex<f64>>
    %cst_45 = stablehlo.constant dense<(4.084080e+07,0.000000e+00)> : tensor<complex<f64>>
    %184 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %185 = stablehlo.multiply %184, %176 : tensor<2x5x5xcomplex<f64>>
    %186 = stablehlo.add %183, %185 : tensor<2x5x5xcomplex<f64>>
    %187 = stablehlo.dot_general %178, %186, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %cst_46 = stablehlo.constant dense<(0x421F384C5C000000,0.000000e+00)> : tensor<complex<f64>>
    %188 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %189 = stablehlo.multiply %188, %178 : tensor<2x5x5xcomplex<f64>>
    %190 = stablehlo.add %187, %189 : tensor<2x5x5xcomplex<f64>>
    %cst_47 = stablehlo.constant dense<(0x42A33522FA9A0000,0.000000e+00)> : tensor<complex<f64>>
    %191 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %192 = stablehlo.multiply %191, %177 : tensor<2x5x5xcomplex<f64>>
    %193 = stablehlo.add %190, %192 : tensor<2x5x5xcomplex<f64>>
    %cst_48 = stablehlo.constant dense<(0x4310DF9165091000,0.000000e+00)> : tensor<complex<f64>>
    %194 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %195 = stablehlo.multiply %194, %176 : tensor<2x5x5xcomplex<f64>>
    %196 = stablehlo.add %193, %195 : tensor<2x5x5xcomplex<f64>>
    %cst_49 = stablehlo.constant dense<(3.238237626624E+16,0.000000e+00)> : tensor<complex<f64>>
    %197 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %198 = stablehlo.multiply %197, %175 : tensor<5x5xcomplex<f64>>
    %199 = stablehlo.broadcast_in_dim %198, dims = [1, 2] : (tensor<5x5xcomplex<f64>>) -> tensor<1x5x5xcomplex<f64>>
    %200 = stablehlo.broadcast_in_dim %199, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %201 = stablehlo.add %196, %200 : tensor<2x5x5xcomplex<f64>>
    %202 = stablehlo.dot_general %169, %201, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %cst_50 = stablehlo.constant dense<(1.820000e+02,0.000000e+00)> : tensor<complex<f64>>
    %203 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %204 = stablehlo.multiply %203, %178 : tensor<2x5x5xcomplex<f64>>
    %cst_51 = stablehlo.constant dense<(9.609600e+05,0.000000e+00)> : tensor<complex<f64>>
    %205 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %206 = stablehlo.multiply %205, %177 : tensor<2x5x5xcomplex<f64>>
    %207 = stablehlo.add %204, %206 : tensor<2x5x5xcomplex<f64>>
    %cst_52 = stablehlo.constant dense<(0x41D3B7C470000000,0.000000e+00)> : tensor<complex<f64>>
    %208 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %209 = stablehlo.multiply %208, %176 : tensor<2x5x5xcomplex<f64>>
    %210 = stablehlo.add %207, %209 : tensor<2x5x5xcomplex<f64>>
    %211 = stablehlo.dot_general %178, %210, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %cst_53 = stablehlo.constant dense<(0x4263832FB9800000,0.000000e+00)> : tensor<complex<f64>>
    %212 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %213 = stablehlo.multiply %212, %178 : tensor<2x5x5xcomplex<f64>>
    %214 = stablehlo.add %211, %213 : tensor<2x5x5xcomplex<f64>>
    %cst_54 = stablehlo.constant dense<(0x42DD584AC5F98000,0.000000e+00)> : tensor<complex<f64>>
    %215 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %216 = stablehlo.multiply %215, %177 : tensor<2x5x5xcomplex<f64>>
    %217 = stablehlo.add %214, %216 : tensor<2x5x5xcomplex<f64>>
    %cst_55 = stablehlo.constant dense<(0x433B9C62483D6000,0.000000e+00)> : tensor<complex<f64>>
    %218 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %219 = stablehlo.multiply %218, %176 : tensor<2x5x5xcomplex<f64>>
    %220 = stablehlo.add %217, %219 : tensor<2x5x5xcomplex<f64>>
    %cst_56 = stablehlo.constant dense<(6.476475253248E+16,0.000000e+00)> : tensor<complex<f64>>
    %221 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %222 = stablehlo.multiply %221, %175 : tensor<5x5xcomplex<f64>>
    %223 = stablehlo.broadcast_in_dim %222, dims = [1, 2] : (tensor<5x5xcomplex<f64>>) -> tensor<1x5x5xcomplex<f64>>
    %224 = stablehlo.broadcast_in_dim %223, dims = [0, 1, 2] : (tensor<1x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %225 = stablehlo.add %220, %224 : tensor<2x5x5xcomplex<f64>>
    %226 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<2xi32>) -> tensor<2x5x5xi32>
    %c_57 = stablehlo.constant dense<2> : tensor<i32>
    %227 = stablehlo.broadcast_in_dim %c_57, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %228 = stablehlo.compare LT, %226, %227, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %c_58 = stablehlo.constant dense<1> : tensor<i32>
    %229 = stablehlo.broadcast_in_dim %c_58, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %230 = stablehlo.compare LT, %226, %229, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %231 = stablehlo.select %230, %38, %68 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %c_59 = stablehlo.constant dense<3> : tensor<i32>
    %232 = stablehlo.broadcast_in_dim %c_59, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %233 = stablehlo.compare LT, %226, %232, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %c_60 = stablehlo.constant dense<4> : tensor<i32>
    %234 = stablehlo.broadcast_in_dim %c_60, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %235 = stablehlo.compare LT, %226, %234, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %236 = stablehlo.select %235, %149, %202 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %237 = stablehlo.select %233, %105, %236 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %238 = stablehlo.select %228, %231, %237 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %239 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<2xi32>) -> tensor<2x5x5xi32>
    %c_61 = stablehlo.constant dense<2> : tensor<i32>
    %240 = stablehlo.broadcast_in_dim %c_61, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %241 = stablehlo.compare LT, %239, %240, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %c_62 = stablehlo.constant dense<1> : tensor<i32>
    %242 = stablehlo.broadcast_in_dim %c_62, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %243 = stablehlo.compare LT, %239, %242, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %244 = stablehlo.select %243, %45, %78 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %c_63 = stablehlo.constant dense<3> : tensor<i32>
    %245 = stablehlo.broadcast_in_dim %c_63, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %246 = stablehlo.compare LT, %239, %245, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %c_64 = stablehlo.constant dense<4> : tensor<i32>
    %247 = stablehlo.broadcast_in_dim %c_64, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %248 = stablehlo.compare LT, %239, %247, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %249 = stablehlo.select %248, %165, %225 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %250 = stablehlo.select %246, %118, %249 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %251 = stablehlo.select %241, %244, %250 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %252 = stablehlo.add %238, %251 : tensor<2x5x5xcomplex<f64>>
    %253 = stablehlo.negate %238 : tensor<2x5x5xcomplex<f64>>
    %254 = stablehlo.add %253, %251 : tensor<2x5x5xcomplex<f64>>
    return %252, %254, %9 : tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>, tensor<2xf64>
  }
  func.func private @norm(%arg0: tensor<2x5x5xcomplex<f64>>) -> tensor<2xf64> {
    %0 = stablehlo.abs %arg0 : (tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xf64>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x5x5xf64>, tensor<f64>) -> tensor<2x5xf64>
    %cst_0 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %2 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<2x5xf64>, tensor<f64>) -> tensor<2xf64>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %3 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<2xf64>
    %4 = stablehlo.maximum %3, %2 : tensor<2xf64>
    return %4 : tensor<2xf64>
  }
  func.func private @digitize(%arg0: tensor<2xf64>, %arg1: tensor<4xf64>) -> tensor<2xi32> {
    %0 = stablehlo.slice %arg1 [3:4] : (tensor<4xf64>) -> tensor<1xf64>
    %1 = stablehlo.reshape %0 : (tensor<1xf64>) -> tensor<f64>
    %2 = stablehlo.slice %arg1 [0:1] : (tensor<4xf64>) -> tensor<1xf64>
    %3 = stablehlo.reshape %2 : (tensor<1xf64>) -> tensor<f64>
    %4 = stablehlo.compare GE, %1, %3, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
    %5 = call @searchsorted(%arg1, %arg0) : (tensor<4xf64>, tensor<2xf64>) -> tensor<2xi32>
    %6 = stablehlo.reverse %arg1, dims = [0] : tensor<4xf64>
    %7 = call @searchsorted(%6, %arg0) : (tensor<4xf64>, tensor<2xf64>) -> tensor<2xi32>
    %c = stablehlo.constant dense<4> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %9 = stablehlo.subtract %8, %7 : tensor<2xi32>
    %10 = call @_where(%4, %5, %9) : (tensor<i1>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    return %10 : tensor<2xi32>
  }
  func.func private @searchsorted(%arg0: tensor<4xf64>, %arg1: tensor<2xf64>) -> tensor<2xi32> {
    %0 = call @_searchsorted_scan_impl(%arg0, %arg1) : (tensor<4xf64>, tensor<2xf64>) -> tensor<2xi32>
    return %0 : tensor<2xi32>
  }
  func.func private @_searchsorted_scan_impl(%arg0: tensor<4xf64>, %arg1: tensor<2xf64>) -> tensor<2xi32> {
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %c_0 = stablehlo.constant dense<4> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<2xui32>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %2:5 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %arg1, %iterArg_3 = %c_1, %iterArg_4 = %0, %iterArg_5 = %1) : tensor<4xf64>, tensor<2xf64>, tensor<i64>, tensor<2xui32>, tensor<2xui32>
    cond {
      %c_6 = stablehlo.constant dense<3> : tensor<i64>
      %4 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %4:2 = func.call @closed_call(%iterArg, %iterArg_2, %iterArg_4, %iterArg_5) : (tensor<4xf64>, tensor<2xf64>, tensor<2xui32>, tensor<2xui32>) -> (tensor<2xui32>, tensor<2xui32>)
      %c_6 = stablehlo.constant dense<1> : tensor<i64>
      %5 = stablehlo.add %iterArg_3, %c_6 : tensor<i64>
      stablehlo.return %iterArg, %iterArg_2, %5, %4#0, %4#1 : tensor<4xf64>, tensor<2xf64>, tensor<i64>, tensor<2xui32>, tensor<2xui32>
    }
    %3 = stablehlo.convert %2#4 : (tensor<2xui32>) -> tensor<2xi32>
    return %3 : tensor<2xi32>
  }
  func.func private @closed_call(%arg0: tensor<4xf64>, %arg1: tensor<2xf64>, %arg2: tensor<2xui32>, %arg3: tensor<2xui32>) -> (tensor<2xui32>, tensor<2xui32>) {
    %0 = stablehlo.subtract %arg3, %arg2 : tensor<2xui32>
    %c = stablehlo.constant dense<2> : tensor<i64>
    %1 = call @floor_divide(%0, %c) : (tensor<2xui32>, tensor<i64>) -> tensor<2xui32>
    %2 = stablehlo.add %arg2, %1 : tensor<2xui32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xui32>) -> tensor<2x1xui32>
    %4 = "stablehlo.gather"(%arg0, %3) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<4xf64>, tensor<2x1xui32>) -> tensor<2x1xf64>
    %5 = stablehlo.reshape %4 : (tensor<2x1xf64>) -> tensor<2xf64>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<2xf64>
    %7 = stablehlo.compare EQ, %arg1, %6, FLOAT : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<2xf64>
    %9 = stablehlo.select %7, %8, %arg1 : tensor<2xi1>, tensor<2xf64>
    %10 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %cst_1 = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<2xf64>
    %12 = stablehlo.select %10, %11, %9 : tensor<2xi1>, tensor<2xf64>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<2xf64>
    %14 = stablehlo.compare EQ, %5, %13, FLOAT : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %15 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f64>) -> tensor<2xf64>
    %16 = stablehlo.select %14, %15, %5 : tensor<2xi1>, tensor<2xf64>
    %17 = stablehlo.compare NE, %5, %5, FLOAT : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %cst_4 = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %18 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f64>) -> tensor<2xf64>
    %19 = stablehlo.select %17, %18, %16 : tensor<2xi1>, tensor<2xf64>
    %20 = stablehlo.compare LT, %12, %19, TOTALORDER : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
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
  func.func private @solve(%arg0: tensor<2x5x5xcomplex<f64>>, %arg1: tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>> {
    %0:3 = stablehlo.custom_call @lapack_zgetrf_ffi(%arg0) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i, n], [i]) {i=2, j=5, k=5, l=5, m=5, n=5}, custom>} : (tensor<2x5x5xcomplex<f64>>) -> (tensor<2x5x5xcomplex<f64>>, tensor<2x5xi32>, tensor<2xi32>)
    %c = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x5xi32>
    %2 = stablehlo.subtract %0#1, %1 : tensor<2x5xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %4 = stablehlo.compare GE, %0#2, %3, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst = stablehlo.constant dense<(0x7FF8000000000000,0x7FF8000000000000)> : tensor<complex<f64>>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %7 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %8 = stablehlo.select %7, %0#0, %6 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
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
    %11 = stablehlo.transpose %arg1, dims = [0, 2, 1] : (tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %12 = call @_lu_solve(%8, %10#3, %11) : (tensor<2x5x5xcomplex<f64>>, tensor<2x5xi32>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %13 = stablehlo.transpose %12, dims = [0, 2, 1] : (tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    return %13 : tensor<2x5x5xcomplex<f64>>
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
  func.func private @_lu_solve(%arg0: tensor<2x5x5xcomplex<f64>>, %arg1: tensor<2x5xi32>, %arg2: tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [0, 1, 2] : (tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5x1xcomplex<f64>>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x5xi32>
    %2 = stablehlo.compare LT, %arg1, %1, SIGNED : (tensor<2x5xi32>, tensor<2x5xi32>) -> tensor<2x5xi1>
    %c_0 = stablehlo.constant dense<5> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x5xi32>
    %4 = stablehlo.add %arg1, %3 : tensor<2x5xi32>
    %5 = stablehlo.select %2, %4, %arg1 : tensor<2x5xi1>, tensor<2x5xi32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<2x5xi32>) -> tensor<2x5x1xi32>
    %7 = "stablehlo.gather"(%0, %6) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 3], collapsed_slice_dims = [2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [2], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 5, 1, 1>}> : (tensor<2x5x5x1xcomplex<f64>>, tensor<2x5x1xi32>) -> tensor<2x5x5x1xcomplex<f64>>
    %8 = stablehlo.transpose %7, dims = [0, 2, 3, 1] : (tensor<2x5x5x1xcomplex<f64>>) -> tensor<2x5x1x5xcomplex<f64>>
    %9 = stablehlo.reshape %8 : (tensor<2x5x1x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %10 = stablehlo.custom_call @lapack_ztrsm_ffi(%arg0, %9) {backend_config = "", mhlo.backend_config = {diag = 85 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l, m])->([i, n, o]) {i=2, j=5, k=5, l=5, m=5, n=5, o=5}, custom>} : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %11 = stablehlo.reshape %10 : (tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x1x5xcomplex<f64>>
    %12 = stablehlo.reshape %11 : (tensor<2x5x1x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %13 = stablehlo.custom_call @lapack_ztrsm_ffi(%arg0, %12) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 85 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l, m])->([i, n, o]) {i=2, j=5, k=5, l=5, m=5, n=5, o=5}, custom>} : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %14 = stablehlo.reshape %13 : (tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x1x5xcomplex<f64>>
    %15 = stablehlo.transpose %14, dims = [0, 3, 1, 2] : (tensor<2x5x1x5xcomplex<f64>>) -> tensor<2x5x5x1xcomplex<f64>>
    %16 = stablehlo.reshape %15 : (tensor<2x5x5x1xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    return %16 : tensor<2x5x5xcomplex<f64>>
  }
  func.func private @_squaring(%arg0: tensor<2x5x5xcomplex<f64>>, %arg1: tensor<2xf64>) -> tensor<2x5x5xcomplex<f64>> {
    %0 = stablehlo.iota dim = 0 : tensor<16xf64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1:4 = stablehlo.while(%iterArg = %0, %iterArg_0 = %arg1, %iterArg_1 = %c, %iterArg_2 = %arg0) : tensor<16xf64>, tensor<2xf64>, tensor<i64>, tensor<2x5x5xcomplex<f64>>
    cond {
      %c_3 = stablehlo.constant dense<16> : tensor<i64>
      %2 = stablehlo.compare LT, %iterArg_1, %c_3, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_1) : (tensor<16xf64>, tensor<i64>) -> tensor<f64>
      %3 = func.call @closed_call_2(%iterArg_0, %iterArg_2, %2) : (tensor<2xf64>, tensor<2x5x5xcomplex<f64>>, tensor<f64>) -> tensor<2x5x5xcomplex<f64>>
      %c_3 = stablehlo.constant dense<1> : tensor<i64>
      %4 = stablehlo.add %iterArg_1, %c_3 : tensor<i64>
      stablehlo.return %iterArg, %iterArg_0, %4, %3 : tensor<16xf64>, tensor<2xf64>, tensor<i64>, tensor<2x5x5xcomplex<f64>>
    }
    return %1#3 : tensor<2x5x5xcomplex<f64>>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<16xf64>, %arg1: tensor<i64>) -> tensor<f64> {
    %0 = stablehlo.dynamic_slice %arg0, %arg1, sizes = [1] : (tensor<16xf64>, tensor<i64>) -> tensor<1xf64>
    %1 = stablehlo.reshape %0 : (tensor<1xf64>) -> tensor<f64>
    return %1 : tensor<f64>
  }
  func.func private @closed_call_2(%arg0: tensor<2xf64>, %arg1: tensor<2x5x5xcomplex<f64>>, %arg2: tensor<f64>) -> tensor<2x5x5xcomplex<f64>> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f64>) -> tensor<2xf64>
    %1 = stablehlo.compare LT, %0, %arg0, FLOAT : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %2 = stablehlo.convert %1 : (tensor<2xi1>) -> tensor<2xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %6 = stablehlo.select %5, %arg1, %arg1 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %8 = stablehlo.compare EQ, %2, %7, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %10 = stablehlo.select %9, %arg1, %arg1 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %11 = stablehlo.dot_general %10, %10, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %12 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi32>) -> tensor<2x5x5xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %14 = stablehlo.compare LT, %12, %13, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %15 = stablehlo.select %14, %6, %11 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    return %15 : tensor<2x5x5xcomplex<f64>>
  }
}
