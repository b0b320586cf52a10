module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xcomplex<f64>>) -> (tensor<5x5xcomplex<f64>> {jax.result_info = "result[0]"}, tensor<5x5xcomplex<f64>> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.slice %arg0 [0:1, 0:5, 0:5] : (tensor<2x5x5xcomplex<f64>>) -> tensor<1x5x5xcomplex<f64>>
    %1 = stablehlo.reshape %0 : (tensor<1x5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %2:2 = call @polar(%1) : (tensor<5x5xcomplex<f64>>) -> (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>)
    return %2#0, %2#1 : tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>
  }
  func.func private @polar(%arg0: tensor<5x5xcomplex<f64>>) -> (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) {
    %0:2 = call @_polar_2d(%arg0) : (tensor<5x5xcomplex<f64>>) -> (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>)
    return %0#0, %0#1 : tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>
  }
  func.func private @_polar_2d(%arg0: tensor<5x5xcomplex<f64>>) -> (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) {
    %0:4 = call @qdwh(%arg0) : (tensor<5x5xcomplex<f64>>) -> (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>, tensor<i64>, tensor<i1>)
    return %0#0, %0#1 : tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>
  }
  func.func private @qdwh(%arg0: tensor<5x5xcomplex<f64>>) -> (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>, tensor<i64>, tensor<i1>) {
    %cst = stablehlo.constant dense<[[1.9999999999417923, 34359738368.500023, 0.99999999994179234], [1.9990243905344156, 2048.5000000596115, 0.99902415234849673]]> : tensor<2x3xf64>
    %cst_0 = stablehlo.constant dense<[[15.334391790145411, 72.318496654957983, 0.79085234300001905], [3.0002486420290606, 3.7798139715500216, 0.37230849152563888], [2.6669122378841328, 3.0005525511400535, 0.33336402814552901], [2.6666666666667971, 3.0000000000002931, 0.33333333333334964]]> : tensor<4x3xf64>
    %0 = call @norm(%arg0) : (tensor<5x5xcomplex<f64>>) -> tensor<f64>
    %1 = call @norm_0(%arg0) : (tensor<5x5xcomplex<f64>>) -> tensor<f64>
    %2 = stablehlo.rsqrt %0 : tensor<f64>
    %3 = stablehlo.rsqrt %1 : tensor<f64>
    %4 = stablehlo.multiply %2, %3 : tensor<f64>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %5 = stablehlo.compare EQ, %0, %cst_1, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
    %c = stablehlo.constant dense<1> : tensor<i64>
    %6 = call @_where(%5, %c, %4) : (tensor<i1>, tensor<i64>, tensor<f64>) -> tensor<f64>
    %7 = stablehlo.convert %6 : (tensor<f64>) -> tensor<complex<f64>>
    %8 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %9 = stablehlo.multiply %arg0, %8 : tensor<5x5xcomplex<f64>>
    %cst_2 = stablehlo.constant dense<1.1102230246251565E-15> : tensor<f64>
    %10 = stablehlo.cbrt %cst_2 : tensor<f64>
    %11 = stablehlo.convert %cst : (tensor<2x3xf64>) -> tensor<2x3xcomplex<f64>>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %c_4 = stablehlo.constant dense<true> : tensor<i1>
    %c_5 = stablehlo.constant dense<0> : tensor<i64>
    %12:5 = stablehlo.while(%iterArg = %11, %iterArg_13 = %c_5, %iterArg_14 = %c_3, %iterArg_15 = %9, %iterArg_16 = %c_4) : tensor<2x3xcomplex<f64>>, tensor<i64>, tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<i1>
    cond {
      %c_17 = stablehlo.constant dense<2> : tensor<i64>
      %43 = stablehlo.compare LT, %iterArg_13, %c_17, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %43 : tensor<i1>
    } do {
      %43:3 = func.call @closed_call(%iterArg, %iterArg_14, %iterArg_15, %iterArg_16) : (tensor<2x3xcomplex<f64>>, tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<i1>) -> (tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<i1>)
      %c_17 = stablehlo.constant dense<1> : tensor<i64>
      %44 = stablehlo.add %iterArg_13, %c_17 : tensor<i64>
      stablehlo.return %iterArg, %44, %43#0, %43#1, %43#2 : tensor<2x3xcomplex<f64>>, tensor<i64>, tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<i1>
    }
    %13 = stablehlo.convert %cst_0 : (tensor<4x3xf64>) -> tensor<4x3xcomplex<f64>>
    %c_6 = stablehlo.constant dense<0> : tensor<i64>
    %c_7 = stablehlo.constant dense<true> : tensor<i1>
    %c_8 = stablehlo.constant dense<0> : tensor<i64>
    %14:6 = stablehlo.while(%iterArg = %13, %iterArg_13 = %10, %iterArg_14 = %c_8, %iterArg_15 = %c_6, %iterArg_16 = %12#3, %iterArg_17 = %c_7) : tensor<4x3xcomplex<f64>>, tensor<f64>, tensor<i64>, tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<i1>
    cond {
      %c_18 = stablehlo.constant dense<4> : tensor<i64>
      %43 = stablehlo.compare LT, %iterArg_14, %c_18, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %43 : tensor<i1>
    } do {
      %43:3 = func.call @closed_call_2(%iterArg, %iterArg_13, %iterArg_15, %iterArg_16, %iterArg_17) : (tensor<4x3xcomplex<f64>>, tensor<f64>, tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<i1>) -> (tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<i1>)
      %c_18 = stablehlo.constant dense<1> : tensor<i64>
      %44 = stablehlo.add %iterArg_14, %c_18 : tensor<i64>
      stablehlo.return %iterArg, %iterArg_13, %44, %43#0, %43#1, %43#2 : tensor<4x3xcomplex<f64>>, tensor<f64>, tensor<i64>, tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<i1>
    }
    %c_9 = stablehlo.constant dense<6> : tensor<i64>
    %15:4 = stablehlo.while(%iterArg = %10, %iterArg_13 = %c_9, %iterArg_14 = %14#4, %iterArg_15 = %14#5) : tensor<f64>, tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<i1>
    cond {
      %c_16 = stablehlo.constant dense<10> : tensor<i64>
      %43 = stablehlo.compare LT, %iterArg_13, %c_16, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      %c_17 = stablehlo.constant dense<false> : tensor<i1>
      %44 = stablehlo.broadcast_in_dim %c_17, dims = [] : (tensor<i1>) -> tensor<i1>
      %45 = stablehlo.compare NE, %43, %44, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %46 = stablehlo.convert %45 : tensor<i1>
      %47 = stablehlo.and %iterArg_15, %46 : tensor<i1>
      stablehlo.return %47 : tensor<i1>
    } do {
      %43 = stablehlo.transpose %iterArg_14, dims = [1, 0] : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
      %44 = stablehlo.real %43 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
      %45 = stablehlo.imag %43 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
      %46 = stablehlo.negate %45 : tensor<5x5xf64>
      %47 = stablehlo.complex %44, %46 : tensor<5x5xcomplex<f64>>
      %48 = stablehlo.dot_general %47, %iterArg_14, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
      %cst_16 = stablehlo.constant dense<(3.000000e+00,0.000000e+00)> : tensor<complex<f64>>
      %49 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
      %50 = stablehlo.multiply %49, %48 : tensor<5x5xcomplex<f64>>
      %51 = stablehlo.iota dim = 0 : tensor<5x5xi64>
      %52 = stablehlo.iota dim = 1 : tensor<5x5xi64>
      %c_17 = stablehlo.constant dense<0> : tensor<i64>
      %53 = stablehlo.broadcast_in_dim %c_17, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
      %54 = stablehlo.add %51, %53 : tensor<5x5xi64>
      %55 = stablehlo.compare EQ, %54, %52, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
      %56 = stablehlo.convert %55 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f64>>
      %57 = stablehlo.add %50, %56 : tensor<5x5xcomplex<f64>>
      %58 = stablehlo.iota dim = 0 : tensor<5x5xi64>
      %59 = stablehlo.iota dim = 1 : tensor<5x5xi64>
      %c_18 = stablehlo.constant dense<0> : tensor<i64>
      %60 = stablehlo.broadcast_in_dim %c_18, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
      %61 = stablehlo.add %58, %60 : tensor<5x5xi64>
      %62 = stablehlo.compare EQ, %61, %59, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
      %63 = stablehlo.convert %62 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f64>>
      %64 = stablehlo.iota dim = 0 : tensor<5x5xi32>
      %c_19 = stablehlo.constant dense<5> : tensor<i32>
      %65 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
      %66 = stablehlo.compare LT, %64, %65, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
      %67 = stablehlo.iota dim = 1 : tensor<5x5xi32>
      %c_20 = stablehlo.constant dense<5> : tensor<i32>
      %68 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
      %69 = stablehlo.compare LT, %67, %68, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
      %70 = stablehlo.and %66, %69 : tensor<5x5xi1>
      %71 = func.call @_where_4(%70, %57, %63) : (tensor<5x5xi1>, tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
      %72:2 = stablehlo.custom_call @lapack_zpotrf_ffi(%71) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<5x5xcomplex<f64>>) -> (tensor<5x5xcomplex<f64>>, tensor<i32>)
      %c_21 = stablehlo.constant dense<0> : tensor<i32>
      %73 = stablehlo.broadcast_in_dim %c_21, dims = [] : (tensor<i32>) -> tensor<i32>
      %74 = stablehlo.compare EQ, %72#1, %73, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %75 = stablehlo.broadcast_in_dim %74, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
      %cst_22 = stablehlo.constant dense<(0x7FF8000000000000,0x7FF8000000000000)> : tensor<complex<f64>>
      %76 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
      %77 = stablehlo.broadcast_in_dim %75, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<5x5xi1>
      %78 = stablehlo.select %77, %72#0, %76 : tensor<5x5xi1>, tensor<5x5xcomplex<f64>>
      %79 = stablehlo.iota dim = 0 : tensor<5x5xi64>
      %c_23 = stablehlo.constant dense<0> : tensor<i64>
      %80 = stablehlo.broadcast_in_dim %c_23, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
      %81 = stablehlo.add %79, %80 : tensor<5x5xi64>
      %82 = stablehlo.iota dim = 1 : tensor<5x5xi64>
      %83 = stablehlo.compare GE, %81, %82, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
      %cst_24 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f64>>
      %84 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
      %85 = stablehlo.select %83, %78, %84 : tensor<5x5xi1>, tensor<5x5xcomplex<f64>>
      %86 = stablehlo.transpose %iterArg_14, dims = [1, 0] : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
      %87 = chlo.conj %85 : tensor<5x5xcomplex<f64>> -> tensor<5x5xcomplex<f64>>
      %88 = stablehlo.custom_call @lapack_ztrsm_ffi(%87, %86) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
      %89 = stablehlo.real %88 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
      %90 = stablehlo.imag %88 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
      %91 = stablehlo.negate %90 : tensor<5x5xf64>
      %92 = stablehlo.complex %89, %91 : tensor<5x5xcomplex<f64>>
      %93 = stablehlo.custom_call @lapack_ztrsm_ffi(%85, %92) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 67 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
      %94 = stablehlo.transpose %93, dims = [1, 0] : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
      %95 = stablehlo.real %94 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
      %96 = stablehlo.imag %94 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
      %97 = stablehlo.negate %96 : tensor<5x5xf64>
      %98 = stablehlo.complex %95, %97 : tensor<5x5xcomplex<f64>>
      %cst_25 = stablehlo.constant dense<(0.33333333333333331,0.000000e+00)> : tensor<complex<f64>>
      %99 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
      %100 = stablehlo.multiply %99, %iterArg_14 : tensor<5x5xcomplex<f64>>
      %cst_26 = stablehlo.constant dense<(2.6666666666666665,0.000000e+00)> : tensor<complex<f64>>
      %101 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
      %102 = stablehlo.multiply %101, %98 : tensor<5x5xcomplex<f64>>
      %103 = stablehlo.add %100, %102 : tensor<5x5xcomplex<f64>>
      %104 = stablehlo.subtract %103, %iterArg_14 : tensor<5x5xcomplex<f64>>
      %105 = func.call @norm_5(%104) : (tensor<5x5xcomplex<f64>>) -> tensor<f64>
      %106 = stablehlo.convert %iterArg : tensor<f64>
      %107 = stablehlo.compare GT, %105, %106, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
      %c_27 = stablehlo.constant dense<1> : tensor<i64>
      %108 = stablehlo.add %iterArg_13, %c_27 : tensor<i64>
      stablehlo.return %iterArg, %108, %103, %107 : tensor<f64>, tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<i1>
    }
    %cst_10 = stablehlo.constant dense<(1.500000e+00,0.000000e+00)> : tensor<complex<f64>>
    %16 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %17 = stablehlo.multiply %16, %15#2 : tensor<5x5xcomplex<f64>>
    %cst_11 = stablehlo.constant dense<(5.000000e-01,0.000000e+00)> : tensor<complex<f64>>
    %18 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %19 = stablehlo.multiply %18, %15#2 : tensor<5x5xcomplex<f64>>
    %20 = stablehlo.transpose %15#2, dims = [1, 0] : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %21 = stablehlo.real %20 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %22 = stablehlo.imag %20 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %23 = stablehlo.negate %22 : tensor<5x5xf64>
    %24 = stablehlo.complex %21, %23 : tensor<5x5xcomplex<f64>>
    %25 = stablehlo.dot_general %24, %15#2, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %26 = stablehlo.dot_general %19, %25, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %27 = stablehlo.subtract %17, %26 : tensor<5x5xcomplex<f64>>
    %28 = stablehlo.transpose %27, dims = [1, 0] : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %29 = stablehlo.real %28 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %30 = stablehlo.imag %28 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %31 = stablehlo.negate %30 : tensor<5x5xf64>
    %32 = stablehlo.complex %29, %31 : tensor<5x5xcomplex<f64>>
    %33 = stablehlo.dot_general %32, %arg0, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %34 = stablehlo.transpose %33, dims = [1, 0] : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %35 = stablehlo.real %34 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %36 = stablehlo.imag %34 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %37 = stablehlo.negate %36 : tensor<5x5xf64>
    %38 = stablehlo.complex %35, %37 : tensor<5x5xcomplex<f64>>
    %39 = stablehlo.add %33, %38 : tensor<5x5xcomplex<f64>>
    %cst_12 = stablehlo.constant dense<(2.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %40 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %41 = stablehlo.divide %39, %40 : tensor<5x5xcomplex<f64>>
    %42 = stablehlo.not %15#3 : tensor<i1>
    return %27, %41, %15#1, %42 : tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>, tensor<i64>, tensor<i1>
  }
  func.func private @norm(%arg0: tensor<5x5xcomplex<f64>>) -> tensor<f64> {
    %0 = stablehlo.abs %arg0 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<5x5xf64>, tensor<f64>) -> tensor<5xf64>
    %cst_0 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %2 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.maximum across dimensions = [0] : (tensor<5xf64>, tensor<f64>) -> tensor<f64>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %3 = stablehlo.maximum %cst_1, %2 : tensor<f64>
    return %3 : tensor<f64>
  }
  func.func private @norm_0(%arg0: tensor<5x5xcomplex<f64>>) -> tensor<f64> {
    %0 = stablehlo.abs %arg0 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<5x5xf64>, tensor<f64>) -> tensor<5xf64>
    %cst_0 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %2 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.maximum across dimensions = [0] : (tensor<5xf64>, tensor<f64>) -> tensor<f64>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %3 = stablehlo.maximum %cst_1, %2 : tensor<f64>
    return %3 : tensor<f64>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i64>, %arg2: tensor<f64>) -> tensor<f64> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<f64>
    %1 = stablehlo.select %arg0, %0, %arg2 : tensor<i1>, tensor<f64>
    return %1 : tensor<f64>
  }
  func.func private @closed_call(%arg0: tensor<2x3xcomplex<f64>>, %arg1: tensor<i64>, %arg2: tensor<5x5xcomplex<f64>>, %arg3: tensor<i1>) -> (tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<i1>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg1, %c : tensor<i64>
    %1 = call @dynamic_index_in_dim(%arg0, %arg1) : (tensor<2x3xcomplex<f64>>, tensor<i64>) -> tensor<3xcomplex<f64>>
    %2 = stablehlo.slice %1 [0:1] : (tensor<3xcomplex<f64>>) -> tensor<1xcomplex<f64>>
    %3 = stablehlo.reshape %2 : (tensor<1xcomplex<f64>>) -> tensor<complex<f64>>
    %4 = stablehlo.slice %1 [1:2] : (tensor<3xcomplex<f64>>) -> tensor<1xcomplex<f64>>
    %5 = stablehlo.reshape %4 : (tensor<1xcomplex<f64>>) -> tensor<complex<f64>>
    %6 = stablehlo.slice %1 [2:3] : (tensor<3xcomplex<f64>>) -> tensor<1xcomplex<f64>>
    %7 = stablehlo.reshape %6 : (tensor<1xcomplex<f64>>) -> tensor<complex<f64>>
    %8 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %9 = stablehlo.multiply %8, %arg2 : tensor<5x5xcomplex<f64>>
    %10 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %11 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %12 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %13 = stablehlo.add %10, %12 : tensor<5x5xi64>
    %14 = stablehlo.compare EQ, %13, %11, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %15 = stablehlo.convert %14 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f64>>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %16 = stablehlo.pad %9, %cst, low = [0, 0], high = [5, 0], interior = [0, 0] : (tensor<5x5xcomplex<f64>>, tensor<complex<f64>>) -> tensor<10x5xcomplex<f64>>
    %c_1 = stablehlo.constant dense<5> : tensor<i64>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %17 = stablehlo.dynamic_update_slice %16, %15, %c_1, %c_2 : (tensor<10x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>, tensor<i64>, tensor<i64>) -> tensor<10x5xcomplex<f64>>
    %18:2 = stablehlo.custom_call @lapack_zgeqrf_ffi(%17) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<10x5xcomplex<f64>>) -> (tensor<10x5xcomplex<f64>>, tensor<5xcomplex<f64>>)
    %19 = stablehlo.custom_call @lapack_zungqr_ffi(%18#0, %18#1) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<10x5xcomplex<f64>>, tensor<5xcomplex<f64>>) -> tensor<10x5xcomplex<f64>>
    %20 = stablehlo.slice %18#0 [0:5, 0:5] : (tensor<10x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %21 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %c_3 = stablehlo.constant dense<-1> : tensor<i64>
    %22 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %23 = stablehlo.add %21, %22 : tensor<5x5xi64>
    %24 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %25 = stablehlo.compare GE, %23, %24, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %cst_4 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %26 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %27 = stablehlo.select %25, %26, %20 : tensor<5x5xi1>, tensor<5x5xcomplex<f64>>
    %28 = stablehlo.slice %19 [0:5, 0:5] : (tensor<10x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %29 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %c_5 = stablehlo.constant dense<5> : tensor<i32>
    %30 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %31 = stablehlo.compare LT, %29, %30, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %32 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %c_6 = stablehlo.constant dense<5> : tensor<i32>
    %33 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %34 = stablehlo.compare LT, %32, %33, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %35 = stablehlo.and %31, %34 : tensor<5x5xi1>
    %c_7 = stablehlo.constant dense<0> : tensor<i64>
    %36 = call @_where_1(%35, %28, %c_7) : (tensor<5x5xi1>, tensor<5x5xcomplex<f64>>, tensor<i64>) -> tensor<5x5xcomplex<f64>>
    %c_8 = stablehlo.constant dense<5> : tensor<i64>
    %c_9 = stablehlo.constant dense<0> : tensor<i64>
    %37 = stablehlo.dynamic_slice %19, %c_8, %c_9, sizes = [5, 5] : (tensor<10x5xcomplex<f64>>, tensor<i64>, tensor<i64>) -> tensor<5x5xcomplex<f64>>
    %38 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %c_10 = stablehlo.constant dense<5> : tensor<i32>
    %39 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %40 = stablehlo.compare LT, %38, %39, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %41 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %c_11 = stablehlo.constant dense<5> : tensor<i32>
    %42 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %43 = stablehlo.compare LT, %41, %42, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %44 = stablehlo.and %40, %43 : tensor<5x5xi1>
    %c_12 = stablehlo.constant dense<0> : tensor<i64>
    %45 = call @_where_1(%44, %37, %c_12) : (tensor<5x5xi1>, tensor<5x5xcomplex<f64>>, tensor<i64>) -> tensor<5x5xcomplex<f64>>
    %46 = stablehlo.transpose %45, dims = [1, 0] : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %47 = stablehlo.real %46 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %48 = stablehlo.imag %46 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %49 = stablehlo.negate %48 : tensor<5x5xf64>
    %50 = stablehlo.complex %47, %49 : tensor<5x5xcomplex<f64>>
    %51 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %52 = stablehlo.multiply %51, %arg2 : tensor<5x5xcomplex<f64>>
    %53 = stablehlo.dot_general %36, %50, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %54 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %55 = stablehlo.multiply %54, %53 : tensor<5x5xcomplex<f64>>
    %56 = stablehlo.add %52, %55 : tensor<5x5xcomplex<f64>>
    %c_13 = stablehlo.constant dense<true> : tensor<i1>
    return %0, %56, %c_13 : tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<i1>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<2x3xcomplex<f64>>, %arg1: tensor<i64>) -> tensor<3xcomplex<f64>> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.compare LT, %arg1, %c, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %1 = stablehlo.convert %arg1 : tensor<i64>
    %c_0 = stablehlo.constant dense<2> : tensor<i64>
    %2 = stablehlo.add %1, %c_0 : tensor<i64>
    %3 = stablehlo.select %0, %2, %arg1 : tensor<i1>, tensor<i64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %4 = stablehlo.dynamic_slice %arg0, %3, %c_1, sizes = [1, 3] : (tensor<2x3xcomplex<f64>>, tensor<i64>, tensor<i64>) -> tensor<1x3xcomplex<f64>>
    %5 = stablehlo.reshape %4 : (tensor<1x3xcomplex<f64>>) -> tensor<3xcomplex<f64>>
    return %5 : tensor<3xcomplex<f64>>
  }
  func.func private @_where_1(%arg0: tensor<5x5xi1>, %arg1: tensor<5x5xcomplex<f64>>, %arg2: tensor<i64>) -> tensor<5x5xcomplex<f64>> {
    %0 = stablehlo.convert %arg2 : (tensor<i64>) -> tensor<complex<f64>>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<5x5xi1>, tensor<5x5xcomplex<f64>>
    return %2 : tensor<5x5xcomplex<f64>>
  }
  func.func private @closed_call_2(%arg0: tensor<4x3xcomplex<f64>>, %arg1: tensor<f64>, %arg2: tensor<i64>, %arg3: tensor<5x5xcomplex<f64>>, %arg4: tensor<i1>) -> (tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<i1>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg2, %c : tensor<i64>
    %1 = call @dynamic_index_in_dim_3(%arg0, %arg2) : (tensor<4x3xcomplex<f64>>, tensor<i64>) -> tensor<3xcomplex<f64>>
    %2 = stablehlo.slice %1 [0:1] : (tensor<3xcomplex<f64>>) -> tensor<1xcomplex<f64>>
    %3 = stablehlo.reshape %2 : (tensor<1xcomplex<f64>>) -> tensor<complex<f64>>
    %4 = stablehlo.slice %1 [1:2] : (tensor<3xcomplex<f64>>) -> tensor<1xcomplex<f64>>
    %5 = stablehlo.reshape %4 : (tensor<1xcomplex<f64>>) -> tensor<complex<f64>>
    %6 = stablehlo.slice %1 [2:3] : (tensor<3xcomplex<f64>>) -> tensor<1xcomplex<f64>>
    %7 = stablehlo.reshape %6 : (tensor<1xcomplex<f64>>) -> tensor<complex<f64>>
    %8 = stablehlo.transpose %arg3, dims = [1, 0] : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %9 = stablehlo.real %8 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %10 = stablehlo.imag %8 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %11 = stablehlo.negate %10 : tensor<5x5xf64>
    %12 = stablehlo.complex %9, %11 : tensor<5x5xcomplex<f64>>
    %13 = stablehlo.dot_general %12, %arg3, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %14 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %15 = stablehlo.multiply %14, %13 : tensor<5x5xcomplex<f64>>
    %16 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %17 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %18 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %19 = stablehlo.add %16, %18 : tensor<5x5xi64>
    %20 = stablehlo.compare EQ, %19, %17, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %21 = stablehlo.convert %20 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f64>>
    %22 = stablehlo.add %15, %21 : tensor<5x5xcomplex<f64>>
    %23 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %24 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %25 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %26 = stablehlo.add %23, %25 : tensor<5x5xi64>
    %27 = stablehlo.compare EQ, %26, %24, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %28 = stablehlo.convert %27 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f64>>
    %29 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %c_2 = stablehlo.constant dense<5> : tensor<i32>
    %30 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %31 = stablehlo.compare LT, %29, %30, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %32 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %c_3 = stablehlo.constant dense<5> : tensor<i32>
    %33 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %34 = stablehlo.compare LT, %32, %33, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %35 = stablehlo.and %31, %34 : tensor<5x5xi1>
    %36 = call @_where_4(%35, %22, %28) : (tensor<5x5xi1>, tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %37:2 = stablehlo.custom_call @lapack_zpotrf_ffi(%36) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<5x5xcomplex<f64>>) -> (tensor<5x5xcomplex<f64>>, tensor<i32>)
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %38 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<i32>
    %39 = stablehlo.compare EQ, %37#1, %38, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %40 = stablehlo.broadcast_in_dim %39, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst = stablehlo.constant dense<(0x7FF8000000000000,0x7FF8000000000000)> : tensor<complex<f64>>
    %41 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %42 = stablehlo.broadcast_in_dim %40, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<5x5xi1>
    %43 = stablehlo.select %42, %37#0, %41 : tensor<5x5xi1>, tensor<5x5xcomplex<f64>>
    %44 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %c_5 = stablehlo.constant dense<0> : tensor<i64>
    %45 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %46 = stablehlo.add %44, %45 : tensor<5x5xi64>
    %47 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %48 = stablehlo.compare GE, %46, %47, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %cst_6 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %49 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %50 = stablehlo.select %48, %43, %49 : tensor<5x5xi1>, tensor<5x5xcomplex<f64>>
    %51 = stablehlo.transpose %arg3, dims = [1, 0] : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %52 = chlo.conj %50 : tensor<5x5xcomplex<f64>> -> tensor<5x5xcomplex<f64>>
    %53 = stablehlo.custom_call @lapack_ztrsm_ffi(%52, %51) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %54 = stablehlo.real %53 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %55 = stablehlo.imag %53 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %56 = stablehlo.negate %55 : tensor<5x5xf64>
    %57 = stablehlo.complex %54, %56 : tensor<5x5xcomplex<f64>>
    %58 = stablehlo.custom_call @lapack_ztrsm_ffi(%50, %57) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 67 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %59 = stablehlo.transpose %58, dims = [1, 0] : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %60 = stablehlo.real %59 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %61 = stablehlo.imag %59 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %62 = stablehlo.negate %61 : tensor<5x5xf64>
    %63 = stablehlo.complex %60, %62 : tensor<5x5xcomplex<f64>>
    %64 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %65 = stablehlo.multiply %64, %arg3 : tensor<5x5xcomplex<f64>>
    %66 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %67 = stablehlo.multiply %66, %63 : tensor<5x5xcomplex<f64>>
    %68 = stablehlo.add %65, %67 : tensor<5x5xcomplex<f64>>
    %69 = stablehlo.subtract %68, %arg3 : tensor<5x5xcomplex<f64>>
    %70 = call @norm_5(%69) : (tensor<5x5xcomplex<f64>>) -> tensor<f64>
    %71 = stablehlo.convert %arg1 : tensor<f64>
    %72 = stablehlo.compare GT, %70, %71, FLOAT : (tensor<f64>, tensor<f64>) -> tensor<i1>
    return %0, %68, %72 : tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<i1>
  }
  func.func private @dynamic_index_in_dim_3(%arg0: tensor<4x3xcomplex<f64>>, %arg1: tensor<i64>) -> tensor<3xcomplex<f64>> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.compare LT, %arg1, %c, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %1 = stablehlo.convert %arg1 : tensor<i64>
    %c_0 = stablehlo.constant dense<4> : tensor<i64>
    %2 = stablehlo.add %1, %c_0 : tensor<i64>
    %3 = stablehlo.select %0, %2, %arg1 : tensor<i1>, tensor<i64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %4 = stablehlo.dynamic_slice %arg0, %3, %c_1, sizes = [1, 3] : (tensor<4x3xcomplex<f64>>, tensor<i64>, tensor<i64>) -> tensor<1x3xcomplex<f64>>
    %5 = stablehlo.reshape %4 : (tensor<1x3xcomplex<f64>>) -> tensor<3xcomplex<f64>>
    return %5 : tensor<3xcomplex<f64>>
  }
  func.func private @_where_4(%arg0: tensor<5x5xi1>, %arg1: tensor<5x5xcomplex<f64>>, %arg2: tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<5x5xi1>, tensor<5x5xcomplex<f64>>
    return %0 : tensor<5x5xcomplex<f64>>
  }
  func.func private @norm_5(%arg0: tensor<5x5xcomplex<f64>>) -> tensor<f64> {
    %0 = stablehlo.real %arg0 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %1 = stablehlo.imag %arg0 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %2 = stablehlo.negate %1 : tensor<5x5xf64>
    %3 = stablehlo.complex %0, %2 : tensor<5x5xcomplex<f64>>
    %4 = stablehlo.multiply %arg0, %3 : tensor<5x5xcomplex<f64>>
    %5 = stablehlo.real %4 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %6 = stablehlo.reduce(%5 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<5x5xf64>, tensor<f64>) -> tensor<f64>
    %7 = stablehlo.sqrt %6 : tensor<f64>
    return %7 : tensor<f64>
  }
}
