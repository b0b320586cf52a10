module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xf64>) -> (tensor<2x5x5xf64> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<3.000000e-01> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %1 = stablehlo.multiply %arg0, %0 : tensor<2x5x5xf64>
    %2 = call @expm(%1) : (tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    return %2 : tensor<2x5x5xf64>
  }
  func.func private @expm(%arg0: tensor<2x5x5xf64>) -> tensor<2x5x5xf64> {
    %0 = call @expm_0(%arg0) : (tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    return %0 : tensor<2x5x5xf64>
  }
  func.func private @expm_0(%arg0: tensor<2x5x5xf64>) -> tensor<2x5x5xf64> {
    %0:3 = call @_calc_P_Q(%arg0) : (tensor<2x5x5xf64>) -> (tensor<2x5x5xf64>, tensor<2x5x5xf64>, tensor<2xf64>)
    %cst = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<2xf64>
    %2 = stablehlo.compare GT, %0#2, %1, FLOAT : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %3 = stablehlo.convert %2 : (tensor<2xi1>) -> tensor<2xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %5 = stablehlo.compare EQ, %3, %4, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %6 = stablehlo.select %5, %0#2, %0#2 : tensor<2xi1>, tensor<2xf64>
    %7 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %8 = stablehlo.select %7, %arg0, %arg0 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %9 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %10 = stablehlo.select %9, %0#0, %0#0 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %11 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %12 = stablehlo.select %11, %0#1, %0#1 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %13 = call @solve(%12, %10) : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %14 = call @_squaring(%13, %6) : (tensor<2x5x5xf64>, tensor<2xf64>) -> tensor<2x5x5xf64>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %15 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %16 = stablehlo.compare EQ, %3, %15, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %17 = stablehlo.select %16, %0#2, %0#2 : tensor<2xi1>, tensor<2xf64>
    %18 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %19 = stablehlo.select %18, %arg0, %arg0 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %20 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %21 = stablehlo.select %20, %0#0, %0#0 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %22 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %23 = stablehlo.select %22, %0#1, %0#1 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %cst_1 = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %24 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<5x5xf64>
    %25 = stablehlo.broadcast_in_dim %24, dims = [1, 2] : (tensor<5x5xf64>) -> tensor<2x5x5xf64>
    %26 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<2xi32>) -> tensor<2x5x5xi32>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %27 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %28 = stablehlo.compare LT, %26, %27, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %29 = stablehlo.select %28, %14, %25 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    return %29 : tensor<2x5x5xf64>
  }
  func.func private @_calc_P_Q(%arg0: tensor<2x5x5xf64>) -> (tensor<2x5x5xf64>, tensor<2x5x5xf64>, tensor<2xf64>) {
    %cst = stablehlo.constant dense<[0.01495585217958292, 0.253939833006323, 0.95041789961629319, 2.097847961257068]> : tensor<4xf64>
    %0 = call @norm(%arg0) : (tensor<2x5x5xf64>) -> tensor<2xf64>
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
    %cst_3 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %10 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f64>) -> tensor<2xf64>
    %11 = stablehlo.power %10, %9 : tensor<2xf64>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<2xf64>) -> tensor<2x1x1xf64>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2] : (tensor<2x1x1xf64>) -> tensor<2x5x5xf64>
    %14 = stablehlo.divide %arg0, %13 : tensor<2x5x5xf64>
    %15 = call @digitize(%0, %cst) : (tensor<2xf64>, tensor<4xf64>) -> tensor<2xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_4 = stablehlo.constant dense<4> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %17 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %18 = stablehlo.clamp %16, %15, %17 : tensor<2xi32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %19 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %20 = stablehlo.compare EQ, %18, %19, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %22 = stablehlo.select %21, %14, %14 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %23 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %24 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_6 = stablehlo.constant dense<0> : tensor<i64>
    %25 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %26 = stablehlo.add %23, %25 : tensor<5x5xi64>
    %27 = stablehlo.compare EQ, %26, %24, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %28 = stablehlo.convert %27 : (tensor<5x5xi1>) -> tensor<5x5xf64>
    %29 = stablehlo.dot_general %22, %22, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %30 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %31 = stablehlo.multiply %30, %29 : tensor<2x5x5xf64>
    %cst_8 = stablehlo.constant dense<6.000000e+01> : tensor<f64>
    %32 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f64>) -> tensor<5x5xf64>
    %33 = stablehlo.multiply %32, %28 : tensor<5x5xf64>
    %34 = stablehlo.broadcast_in_dim %33, dims = [1, 2] : (tensor<5x5xf64>) -> tensor<1x5x5xf64>
    %35 = stablehlo.broadcast_in_dim %34, dims = [0, 1, 2] : (tensor<1x5x5xf64>) -> tensor<2x5x5xf64>
    %36 = stablehlo.add %31, %35 : tensor<2x5x5xf64>
    %37 = stablehlo.dot_general %22, %36, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %cst_9 = stablehlo.constant dense<1.200000e+01> : tensor<f64>
    %38 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %39 = stablehlo.multiply %38, %29 : tensor<2x5x5xf64>
    %cst_10 = stablehlo.constant dense<1.200000e+02> : tensor<f64>
    %40 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f64>) -> tensor<5x5xf64>
    %41 = stablehlo.multiply %40, %28 : tensor<5x5xf64>
    %42 = stablehlo.broadcast_in_dim %41, dims = [1, 2] : (tensor<5x5xf64>) -> tensor<1x5x5xf64>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0, 1, 2] : (tensor<1x5x5xf64>) -> tensor<2x5x5xf64>
    %44 = stablehlo.add %39, %43 : tensor<2x5x5xf64>
    %c_11 = stablehlo.constant dense<1> : tensor<i32>
    %45 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %46 = stablehlo.compare EQ, %18, %45, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %47 = stablehlo.broadcast_in_dim %46, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %48 = stablehlo.select %47, %14, %14 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %49 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %50 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_12 = stablehlo.constant dense<0> : tensor<i64>
    %51 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %52 = stablehlo.add %49, %51 : tensor<5x5xi64>
    %53 = stablehlo.compare EQ, %52, %50, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %54 = stablehlo.convert %53 : (tensor<5x5xi1>) -> tensor<5x5xf64>
    %55 = stablehlo.dot_general %48, %48, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %56 = stablehlo.dot_general %55, %55, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %57 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %58 = stablehlo.multiply %57, %56 : tensor<2x5x5xf64>
    %cst_14 = stablehlo.constant dense<4.200000e+02> : tensor<f64>
    %59 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %60 = stablehlo.multiply %59, %55 : tensor<2x5x5xf64>
    %61 = stablehlo.add %58, %60 : tensor<2x5x5xf64>
    %cst_15 = stablehlo.constant dense<1.512000e+04> : tensor<f64>
    %62 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f64>) -> tensor<5x5xf64>
    %63 = stablehlo.multiply %62, %54 : tensor<5x5xf64>
    %64 = stablehlo.broadcast_in_dim %63, dims = [1, 2] : (tensor<5x5xf64>) -> tensor<1x5x5xf64>
    %65 = stablehlo.broadcast_in_dim %64, dims = [0, 1, 2] : (tensor<1x5x5xf64>) -> tensor<2x5x5xf64>
    %66 = stablehlo.add %61, %65 : tensor<2x5x5xf64>
    %67 = stablehlo.dot_general %48, %66, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %cst_16 = stablehlo.constant dense<3.000000e+01> : tensor<f64>
    %68 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %69 = stablehlo.multiply %68, %56 : tensor<2x5x5xf64>
    %cst_17 = stablehlo.constant dense<3.360000e+03> : tensor<f64>
    %70 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %71 = stablehlo.multiply %70, %55 : tensor<2x5x5xf64>
    %72 = stablehlo.add %69, %71 : tensor<2x5x5xf64>
    %cst_18 = stablehlo.constant dense<3.024000e+04> : tensor<f64>
    %73 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f64>) -> tensor<5x5xf64>
    %74 = stablehlo.multiply %73, %54 : tensor<5x5xf64>
    %75 = stablehlo.broadcast_in_dim %74, dims = [1, 2] : (tensor<5x5xf64>) -> tensor<1x5x5xf64>
    %76 = stablehlo.broadcast_in_dim %75, dims = [0, 1, 2] : (tensor<1x5x5xf64>) -> tensor<2x5x5xf64>
    %77 = stablehlo.add %72, %76 : tensor<2x5x5xf64>
    %c_19 = stablehlo.constant dense<2> : tensor<i32>
    %78 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %79 = stablehlo.compare EQ, %18, %78, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %80 = stablehlo.broadcast_in_dim %79, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %81 = stablehlo.select %80, %14, %14 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %82 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %83 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_20 = stablehlo.constant dense<0> : tensor<i64>
    %84 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %85 = stablehlo.add %82, %84 : tensor<5x5xi64>
    %86 = stablehlo.compare EQ, %85, %83, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %87 = stablehlo.convert %86 : (tensor<5x5xi1>) -> tensor<5x5xf64>
    %88 = stablehlo.dot_general %81, %81, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %89 = stablehlo.dot_general %88, %88, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %90 = stablehlo.dot_general %89, %88, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %cst_21 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %91 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %92 = stablehlo.multiply %91, %90 : tensor<2x5x5xf64>
    %cst_22 = stablehlo.constant dense<1.512000e+03> : tensor<f64>
    %93 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %94 = stablehlo.multiply %93, %89 : tensor<2x5x5xf64>
    %95 = stablehlo.add %92, %94 : tensor<2x5x5xf64>
    %cst_23 = stablehlo.constant dense<2.772000e+05> : tensor<f64>
    %96 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %97 = stablehlo.multiply %96, %88 : tensor<2x5x5xf64>
    %98 = stablehlo.add %95, %97 : tensor<2x5x5xf64>
    %cst_24 = stablehlo.constant dense<8.648640e+06> : tensor<f64>
    %99 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f64>) -> tensor<5x5xf64>
    %100 = stablehlo.multiply %99, %87 : tensor<5x5xf64>
    %101 = stablehlo.broadcast_in_dim %100, dims = [1, 2] : (tensor<5x5xf64>) -> tensor<1x5x5xf64>
    %102 = stablehlo.broadcast_in_dim %101, dims = [0, 1, 2] : (tensor<1x5x5xf64>) -> tensor<2x5x5xf64>
    %103 = stablehlo.add %98, %102 : tensor<2x5x5xf64>
    %104 = stablehlo.dot_general %81, %103, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %cst_25 = stablehlo.constant dense<5.600000e+01> : tensor<f64>
    %105 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %106 = stablehlo.multiply %105, %90 : tensor<2x5x5xf64>
    %cst_26 = stablehlo.constant dense<2.520000e+04> : tensor<f64>
    %107 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %108 = stablehlo.multiply %107, %89 : tensor<2x5x5xf64>
    %109 = stablehlo.add %106, %108 : tensor<2x5x5xf64>
    %cst_27 = stablehlo.constant dense<1.995840e+06> : tensor<f64>
    %110 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %111 = stablehlo.multiply %110, %88 : tensor<2x5x5xf64>
    %112 = stablehlo.add %109, %111 : tensor<2x5x5xf64>
    %cst_28 = stablehlo.constant dense<0x41707EF800000000> : tensor<f64>
    %113 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f64>) -> tensor<5x5xf64>
    %114 = stablehlo.multiply %113, %87 : tensor<5x5xf64>
    %115 = stablehlo.broadcast_in_dim %114, dims = [1, 2] : (tensor<5x5xf64>) -> tensor<1x5x5xf64>
    %116 = stablehlo.broadcast_in_dim %115, dims = [0, 1, 2] : (tensor<1x5x5xf64>) -> tensor<2x5x5xf64>
    %117 = stablehlo.add %112, %116 : tensor<2x5x5xf64>
    %c_29 = stablehlo.constant dense<3> : tensor<i32>
    %118 = stablehlo.broadcast_in_dim %c_29, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %119 = stablehlo.compare EQ, %18, %118, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %120 = stablehlo.broadcast_in_dim %119, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %121 = stablehlo.select %120, %14, %14 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %122 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %123 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_30 = stablehlo.constant dense<0> : tensor<i64>
    %124 = stablehlo.broadcast_in_dim %c_30, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %125 = stablehlo.add %122, %124 : tensor<5x5xi64>
    %126 = stablehlo.compare EQ, %125, %123, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %127 = stablehlo.convert %126 : (tensor<5x5xi1>) -> tensor<5x5xf64>
    %128 = stablehlo.dot_general %121, %121, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %129 = stablehlo.dot_general %128, %128, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %130 = stablehlo.dot_general %129, %128, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %131 = stablehlo.dot_general %130, %128, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %cst_31 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %132 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %133 = stablehlo.multiply %132, %131 : tensor<2x5x5xf64>
    %cst_32 = stablehlo.constant dense<3.960000e+03> : tensor<f64>
    %134 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %135 = stablehlo.multiply %134, %130 : tensor<2x5x5xf64>
    %136 = stablehlo.add %133, %135 : tensor<2x5x5xf64>
    %cst_33 = stablehlo.constant dense<2.162160e+06> : tensor<f64>
    %137 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %138 = stablehlo.multiply %137, %129 : tensor<2x5x5xf64>
    %139 = stablehlo.add %136, %138 : tensor<2x5x5xf64>
    %cst_34 = stablehlo.constant dense<0x41B20ADF40000000> : tensor<f64>
    %140 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %141 = stablehlo.multiply %140, %128 : tensor<2x5x5xf64>
    %142 = stablehlo.add %139, %141 : tensor<2x5x5xf64>
    %cst_35 = stablehlo.constant dense<0x42006E7908000000> : tensor<f64>
    %143 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f64>) -> tensor<5x5xf64>
    %144 = stablehlo.multiply %143, %127 : tensor<5x5xf64>
    %145 = stablehlo.broadcast_in_dim %144, dims = [1, 2] : (tensor<5x5xf64>) -> tensor<1x5x5xf64>
    %146 = stablehlo.broadcast_in_dim %145, dims = [0, 1, 2] : (tensor<1x5x5xf64>) -> tensor<2x5x5xf64>
    %147 = stablehlo.add %142, %146 : tensor<2x5x5xf64>
    %148 = stablehlo.dot_general %121, %147, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %cst_36 = stablehlo.constant dense<9.000000e+01> : tensor<f64>
    %149 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %150 = stablehlo.multiply %149, %131 : tensor<2x5x5xf64>
    %cst_37 = stablehlo.constant dense<1.108800e+05> : tensor<f64>
    %151 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %152 = stablehlo.multiply %151, %130 : tensor<2x5x5xf64>
    %153 = stablehlo.add %150, %152 : tensor<2x5x5xf64>
    %cst_38 = stablehlo.constant dense<0x417CDE3200000000> : tensor<f64>
    %154 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %155 = stablehlo.multiply %154, %129 : tensor<2x5x5xf64>
    %156 = stablehlo.add %153, %155 : tensor<2x5x5xf64>
    %cst_39 = stablehlo.constant dense<0x41DEEE1100000000> : tensor<f64>
    %157 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %158 = stablehlo.multiply %157, %128 : tensor<2x5x5xf64>
    %159 = stablehlo.add %156, %158 : tensor<2x5x5xf64>
    %cst_40 = stablehlo.constant dense<0x42106E7908000000> : tensor<f64>
    %160 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f64>) -> tensor<5x5xf64>
    %161 = stablehlo.multiply %160, %127 : tensor<5x5xf64>
    %162 = stablehlo.broadcast_in_dim %161, dims = [1, 2] : (tensor<5x5xf64>) -> tensor<1x5x5xf64>
    %163 = stablehlo.broadcast_in_dim %162, dims = [0, 1, 2] : (tensor<1x5x5xf64>) -> tensor<2x5x5xf64>
    %164 = stablehlo.add %159, %163 : tensor<2x5x5xf64>
    %c_41 = stablehlo.constant dense<4> : tensor<i32>
    %165 = stablehlo.broadcast_in_dim %c_41, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %166 = stablehlo.compare EQ, %18, %165, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %167 = stablehlo.broadcast_in_dim %166, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %168 = stablehlo.select %167, %14, %14 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %169 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %170 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_42 = stablehlo.constant dense<0> : tensor<i64>
    %171 = stablehlo.broadcast_in_dim %c_42, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %172 = stablehlo.add %169, %171 : tensor<5x5xi64>
    %173 = stablehlo.compare EQ, %172, %170, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %174 = stablehlo.convert %173 : (tensor<5x5xi1>) -> tensor<5x5xf64>
    %175 = stablehlo.dot_general %168, %168, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %176 = stablehlo.dot_general %175, %175, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %177 = stablehlo.dot_general %176, %175, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %cst_43 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %178 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %179 = stablehlo.multiply %178, %177 : tensor<2x5x5xf64>
    %cst_44 = stablehlo.constant dense<1.638000e+04> : tensor<f64>
    %180 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %181 = stablehlo.multiply %180, %176 : tensor<2x5x5xf64>
    %182 = stablehlo.add %179, %181 : tensor<2x5x5xf64>
    %cst_45 = stablehlo.constant dense<4.084080e+07> : tensor<f64>
    %183 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %184 = stablehlo.multiply %183, %175 : tensor<2x5x5xf64>
    %185 = stablehlo.add %182, %184 : tensor<2x5x5xf64>
    %186 = stablehlo.dot_general %177, %185, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %cst_46 = stablehlo.constant dense<0x421F384C5C000000> : tensor<f64>
    %187 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %188 = stablehlo.multiply %187, %177 : tensor<2x5x5xf64>
    %189 = stablehlo.add %186, %188 : tensor<2x5x5xf64>
    %cst_47 = stablehlo.constant dense<0x42A33522FA9A0000> : tensor<f64>
    %190 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %191 = stablehlo.multiply %190, %176 : tensor<2x5x5xf64>
    %192 = stablehlo.add %189, %191 : tensor<2x5x5xf64>
    %cst_48 = stablehlo.constant dense<0x4310DF9165091000> : tensor<f64>
    %193 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %194 = stablehlo.multiply %193, %175 : tensor<2x5x5xf64>
    %195 = stablehlo.add %192, %194 : tensor<2x5x5xf64>
    %cst_49 = stablehlo.constant dense<3.238237626624E+16> : tensor<f64>
    %196 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f64>) -> tensor<5x5xf64>
    %197 = stablehlo.multiply %196, %174 : tensor<5x5xf64>
    %198 = stablehlo.broadcast_in_dim %197, dims = [1, 2] : (tensor<5x5xf64>) -> tensor<1x5x5xf64>
    %199 = stablehlo.broadcast_in_dim %198, dims = [0, 1, 2] : (tensor<1x5x5xf64>) -> tensor<2x5x5xf64>
    %200 = stablehlo.add %195, %199 : tensor<2x5x5xf64>
    %201 = stablehlo.dot_general %168, %200, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %cst_50 = stablehlo.constant dense<1.820000e+02> : tensor<f64>
    %202 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %203 = stablehlo.multiply %202, %177 : tensor<2x5x5xf64>
    %cst_51 = stablehlo.constant dense<9.609600e+05> : tensor<f64>
    %204 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %205 = stablehlo.multiply %204, %176 : tensor<2x5x5xf64>
    %206 = stablehlo.add %203, %205 : tensor<2x5x5xf64>
    %cst_52 = stablehlo.constant dense<0x41D3B7C470000000> : tensor<f64>
    %207 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %208 = stablehlo.multiply %207, %175 : tensor<2x5x5xf64>
    %209 = stablehlo.add %206, %208 : tensor<2x5x5xf64>
    %210 = stablehlo.dot_general %177, %209, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %cst_53 = stablehlo.constant dense<0x4263832FB9800000> : tensor<f64>
    %211 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %212 = stablehlo.multiply %211, %177 : tensor<2x5x5xf64>
    %213 = stablehlo.add %210, %212 : tensor<2x5x5xf64>
    %cst_54 = stablehlo.constant dense<0x42DD584AC5F98000> : tensor<f64>
    %214 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %215 = stablehlo.multiply %214, %176 : tensor<2x5x5xf64>
    %216 = stablehlo.add %213, %215 : tensor<2x5x5xf64>
    %cst_55 = stablehlo.constant dense<0x433B9C62483D6000> : tensor<f64>
    %217 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %218 = stablehlo.multiply %217, %175 : tensor<2x5x5xf64>
    %219 = stablehlo.add %216, %218 : tensor<2x5x5xf64>
    %cst_56 = stablehlo.constant dense<6.476475253248E+16> : tensor<f64>
    %220 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f64>) -> tensor<5x5xf64>
    %221 = stablehlo.multiply %220, %174 : tensor<5x5xf64>
    %222 = stablehlo.broadcast_in_dim %221, dims = [1, 2] : (tensor<5x5xf64>) -> tensor<1x5x5xf64>
    %223 = stablehlo.broadcast_in_dim %222, dims = [0, 1, 2] : (tensor<1x5x5xf64>) -> tensor<2x5x5xf64>
    %224 = stablehlo.add %219, %223 : tensor<2x5x5xf64>
    %225 = stablehlo.broadcast_in_dim %18, dims = [0] : (tensor<2xi32>) -> tensor<2x5x5xi32>
    %c_57 = stablehlo.constant dense<2> : tensor<i32>
    %226 = stablehlo.broadcast_in_dim %c_57, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %227 = stablehlo.compare LT, %225, %226, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %c_58 = stablehlo.constant dense<1> : tensor<i32>
    %228 = stablehlo.broadcast_in_dim %c_58, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %229 = stablehlo.compare LT, %225, %228, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %230 = stablehlo.select %229, %37, %67 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %c_59 = stablehlo.constant dense<3> : tensor<i32>
    %231 = stablehlo.broadcast_in_dim %c_59, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %232 = stablehlo.compare LT, %225, %231, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %c_60 = stablehlo.constant dense<4> : tensor<i32>
    %233 = stablehlo.broadcast_in_dim %c_60, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %234 = stablehlo.compare LT, %225, %233, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %235 = stablehlo.select %234, %148, %201 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %236 = stablehlo.select %232, %104, %235 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %237 = stablehlo.select %227, %230, %236 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %238 = stablehlo.broadcast_in_dim %18, dims = [0] : (tensor<2xi32>) -> tensor<2x5x5xi32>
    %c_61 = stablehlo.constant dense<2> : tensor<i32>
    %239 = stablehlo.broadcast_in_dim %c_61, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %240 = stablehlo.compare LT, %238, %239, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %c_62 = stablehlo.constant dense<1> : tensor<i32>
    %241 = stablehlo.broadcast_in_dim %c_62, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %242 = stablehlo.compare LT, %238, %241, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %243 = stablehlo.select %242, %44, %77 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %c_63 = stablehlo.constant dense<3> : tensor<i32>
    %244 = stablehlo.broadcast_in_dim %c_63, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %245 = stablehlo.compare LT, %238, %244, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %c_64 = stablehlo.constant dense<4> : tensor<i32>
    %246 = stablehlo.broadcast_in_dim %c_64, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %247 = stablehlo.compare LT, %238, %246, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %248 = stablehlo.select %247, %164, %224 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %249 = stablehlo.select %245, %117, %248 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %250 = stablehlo.select %240, %243, %249 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %251 = stablehlo.add %237, %250 : tensor<2x5x5xf64>
    %252 = stablehlo.negate %237 : tensor<2x5x5xf64>
    %253 = stablehlo.add %252, %250 : tensor<2x5x5xf64>
    return %251, %253, %9 : tensor<2x5x5xf64>, tensor<2x5x5xf64>, tensor<2xf64>
  }
  func.func private @norm(%arg0: tensor<2x5x5xf64>) -> tensor<2xf64> {
    %0 = stablehlo.abs %arg0 : tensor<2x5x5xf64>
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
  func.func private @solve(%arg0: tensor<2x5x5xf64>, %arg1: tensor<2x5x5xf64>) -> tensor<2x5x5xf64> {
    %0:3 = stablehlo.custom_call @lapack_dgetrf_ffi(%arg0) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i, n], [i]) {i=2, j=5, k=5, l=5, m=5, n=5}, custom>} : (tensor<2x5x5xf64>) -> (tensor<2x5x5xf64>, tensor<2x5xi32>, tensor<2xi32>)
    %c = stablehlo.constant dense<1> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x5xi32>
    %2 = stablehlo.subtract %0#1, %1 : tensor<2x5xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %4 = stablehlo.compare GE, %0#2, %3, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %7 = stablehlo.broadcast_in_dim %5, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %8 = stablehlo.select %7, %0#0, %6 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
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
    %11 = stablehlo.transpose %arg1, dims = [0, 2, 1] : (tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %12 = call @_lu_solve(%8, %10#3, %11) : (tensor<2x5x5xf64>, tensor<2x5xi32>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %13 = stablehlo.transpose %12, dims = [0, 2, 1] : (tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    return %13 : tensor<2x5x5xf64>
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
  func.func private @_lu_solve(%arg0: tensor<2x5x5xf64>, %arg1: tensor<2x5xi32>, %arg2: tensor<2x5x5xf64>) -> tensor<2x5x5xf64> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [0, 1, 2] : (tensor<2x5x5xf64>) -> tensor<2x5x5x1xf64>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x5xi32>
    %2 = stablehlo.compare LT, %arg1, %1, SIGNED : (tensor<2x5xi32>, tensor<2x5xi32>) -> tensor<2x5xi1>
    %c_0 = stablehlo.constant dense<5> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x5xi32>
    %4 = stablehlo.add %arg1, %3 : tensor<2x5xi32>
    %5 = stablehlo.select %2, %4, %arg1 : tensor<2x5xi1>, tensor<2x5xi32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<2x5xi32>) -> tensor<2x5x1xi32>
    %7 = "stablehlo.gather"(%0, %6) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 3], collapsed_slice_dims = [2], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [2], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 5, 1, 1>}> : (tensor<2x5x5x1xf64>, tensor<2x5x1xi32>) -> tensor<2x5x5x1xf64>
    %8 = stablehlo.transpose %7, dims = [0, 2, 3, 1] : (tensor<2x5x5x1xf64>) -> tensor<2x5x1x5xf64>
    %9 = stablehlo.reshape %8 : (tensor<2x5x1x5xf64>) -> tensor<2x5x5xf64>
    %10 = stablehlo.custom_call @lapack_dtrsm_ffi(%arg0, %9) {backend_config = "", mhlo.backend_config = {diag = 85 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l, m])->([i, n, o]) {i=2, j=5, k=5, l=5, m=5, n=5, o=5}, custom>} : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %11 = stablehlo.reshape %10 : (tensor<2x5x5xf64>) -> tensor<2x5x1x5xf64>
    %12 = stablehlo.reshape %11 : (tensor<2x5x1x5xf64>) -> tensor<2x5x5xf64>
    %13 = stablehlo.custom_call @lapack_dtrsm_ffi(%arg0, %12) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 85 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l, m])->([i, n, o]) {i=2, j=5, k=5, l=5, m=5, n=5, o=5}, custom>} : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %14 = stablehlo.reshape %13 : (tensor<2x5x5xf64>) -> tensor<2x5x1x5xf64>
    %15 = stablehlo.transpose %14, dims = [0, 3, 1, 2] : (tensor<2x5x1x5xf64>) -> tensor<2x5x5x1xf64>
    %16 = stablehlo.reshape %15 : (tensor<2x5x5x1xf64>) -> tensor<2x5x5xf64>
    return %16 : tensor<2x5x5xf64>
  }
  func.func private @_squaring(%arg0: tensor<2x5x5xf64>, %arg1: tensor<2xf64>) -> tensor<2x5x5xf64> {
    %0 = stablehlo.iota dim = 0 : tensor<16xf64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1:4 = stablehlo.while(%iterArg = %0, %iterArg_0 = %arg1, %iterArg_1 = %c, %iterArg_2 = %arg0) : tensor<16xf64>, tensor<2xf64>, tensor<i64>, tensor<2x5x5xf64>
    cond {
      %c_3 = stablehlo.constant dense<16> : tensor<i64>
      %2 = stablehlo.compare LT, %iterArg_1, %c_3, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_1) : (tensor<16xf64>, tensor<i64>) -> tensor<f64>
      %3 = func.call @closed_call_2(%iterArg_0, %iterArg_2, %2) : (tensor<2xf64>, tensor<2x5x5xf64>, tensor<f64>) -> tensor<2x5x5xf64>
      %c_3 = stablehlo.constant dense<1> : tensor<i64>
      %4 = stablehlo.add %iterArg_1, %c_3 : tensor<i64>
      stablehlo.return %iterArg, %iterArg_0, %4, %3 : tensor<16xf64>, tensor<2xf64>, tensor<i64>, tensor<2x5x5xf64>
    }
    return %1#3 : tensor<2x5x5xf64>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<16xf64>, %arg1: tensor<i64>) -> tensor<f64> {
    %0 = stablehlo.dynamic_slice %arg0, %arg1, sizes = [1] : (tensor<16xf64>, tensor<i64>) -> tensor<1xf64>
    %1 = stablehlo.reshape %0 : (tensor<1xf64>) -> tensor<f64>
    return %1 : tensor<f64>
  }
  func.func private @closed_call_2(%arg0: tensor<2xf64>, %arg1: tensor<2x5x5xf64>, %arg2: tensor<f64>) -> tensor<2x5x5xf64> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f64>) -> tensor<2xf64>
    %1 = stablehlo.compare LT, %0, %arg0, FLOAT : (tensor<2xf64>, tensor<2xf64>) -> tensor<2xi1>
    %2 = stablehlo.convert %1 : (tensor<2xi1>) -> tensor<2xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %6 = stablehlo.select %5, %arg1, %arg1 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %8 = stablehlo.compare EQ, %2, %7, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<2xi1>) -> tensor<2x5x5xi1>
    %10 = stablehlo.select %9, %arg1, %arg1 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %11 = stablehlo.dot_general %10, %10, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %12 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi32>) -> tensor<2x5x5xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<2x5x5xi32>
    %14 = stablehlo.compare LT, %12, %13, SIGNED : (tensor<2x5x5xi32>, tensor<2x5x5xi32>) -> tensor<2x5x5xi1>
    %15 = stablehlo.select %14, %6, %11 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    return %15 : tensor<2x5x5xf64>
  }
}
