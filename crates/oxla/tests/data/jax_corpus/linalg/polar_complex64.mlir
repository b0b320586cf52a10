module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xcomplex<f32>>) -> (tensor<5x5xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<5x5xcomplex<f32>> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.slice %arg0 [0:1, 0:5, 0:5] : (tensor<2x5x5xcomplex<f32>>) -> tensor<1x5x5xcomplex<f32>>
    %1 = stablehlo.reshape %0 : (tensor<1x5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %2:2 = call @polar(%1) : (tensor<5x5xcomplex<f32>>) -> (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>)
    return %2#0, %2#1 : tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>
  }
  func.func private @polar(%arg0: tensor<5x5xcomplex<f32>>) -> (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) {
    %0:2 = call @_polar_2d(%arg0) : (tensor<5x5xcomplex<f32>>) -> (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>)
    return %0#0, %0#1 : tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>
  }
  func.func private @_polar_2d(%arg0: tensor<5x5xcomplex<f32>>) -> (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) {
    %0:4 = call @qdwh(%arg0) : (tensor<5x5xcomplex<f32>>) -> (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>, tensor<i64>, tensor<i1>)
    return %0#0, %0#1 : tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>
  }
  func.func private @qdwh(%arg0: tensor<5x5xcomplex<f32>>) -> (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>, tensor<i64>, tensor<i1>) {
    %cst = stablehlo.constant dense<[[1.9999615517392721, 52016.457670893942, 0.99996155136969045], [1.9217820851502887, 24.016208769796364, 0.920118285731504]]> : tensor<2x3xf64>
    %cst_0 = stablehlo.constant dense<[[3.7414382875954941, 5.7202775739820115, 0.44326134651331761], [2.6715576806568375, 3.0110110887522445, 0.33394408004792808]]> : tensor<2x3xf64>
    %0 = call @norm(%arg0) : (tensor<5x5xcomplex<f32>>) -> tensor<f32>
    %1 = call @norm_0(%arg0) : (tensor<5x5xcomplex<f32>>) -> tensor<f32>
    %2 = stablehlo.rsqrt %0 : tensor<f32>
    %3 = stablehlo.rsqrt %1 : tensor<f32>
    %4 = stablehlo.multiply %2, %3 : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.compare EQ, %0, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %c = stablehlo.constant dense<1> : tensor<i64>
    %6 = call @_where(%5, %c, %4) : (tensor<i1>, tensor<i64>, tensor<f32>) -> tensor<f32>
    %7 = stablehlo.convert %6 : (tensor<f32>) -> tensor<complex<f32>>
    %8 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %9 = stablehlo.multiply %arg0, %8 : tensor<5x5xcomplex<f32>>
    %cst_2 = stablehlo.constant dense<5.9604644775390625E-7> : tensor<f64>
    %10 = stablehlo.cbrt %cst_2 : tensor<f64>
    %11 = stablehlo.convert %cst : (tensor<2x3xf64>) -> tensor<2x3xcomplex<f32>>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %c_4 = stablehlo.constant dense<true> : tensor<i1>
    %c_5 = stablehlo.constant dense<0> : tensor<i64>
    %12:5 = stablehlo.while(%iterArg = %11, %iterArg_13 = %c_5, %iterArg_14 = %c_3, %iterArg_15 = %9, %iterArg_16 = %c_4) : tensor<2x3xcomplex<f32>>, tensor<i64>, tensor<i64>, tensor<5x5xcomplex<f32>>, tensor<i1>
    cond {
      %c_17 = stablehlo.constant dense<2> : tensor<i64>
      %43 = stablehlo.compare LT, %iterArg_13, %c_17, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %43 : tensor<i1>
    } do {
      %43:3 = func.call @closed_call(%iterArg, %iterArg_14, %iterArg_15, %iterArg_16) : (tensor<2x3xcomplex<f32>>, tensor<i64>, tensor<5x5xcomplex<f32>>, tensor<i1>) -> (tensor<i64>, tensor<5x5xcomplex<f32>>, tensor<i1>)
      %c_17 = stablehlo.constant dense<1> : tensor<i64>
      %44 = stablehlo.add %iterArg_13, %c_17 : tensor<i64>
      stablehlo.return %iterArg, %44, %43#0, %43#1, %43#2 : tensor<2x3xcomplex<f32>>, tensor<i64>, tensor<i64>, tensor<5x5xcomplex<f32>>, tensor<i1>
    }
    %13 = stablehlo.convert %cst_0 : (tensor<2x3xf64>) -> tensor<2x3xcomplex<f32>>
    %c_6 = stablehlo.constant dense<0> : tensor<i64>
    %c_7 = stablehlo.constant dense<true> : tensor<i1>
    %c_8 = stablehlo.constant dense<0> : tensor<i64>
    %14:6 = stablehlo.while(%iterArg = %13, %iterArg_13 = %10, %iterArg_14 = %c_8, %iterArg_15 = %c_6, %iterArg_16 = %12#3, %iterArg_17 = %c_7) : tensor<2x3xcomplex<f32>>, tensor<f64>, tensor<i64>, tensor<i64>, tensor<5x5xcomplex<f32>>, tensor<i1>
    cond {
      %c_18 = stablehlo.constant dense<2> : tensor<i64>
      %43 = stablehlo.compare LT, %iterArg_14, %c_18, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %43 : tensor<i1>
    } do {
      %43:3 = func.call @closed_call_2(%iterArg, %iterArg_13, %iterArg_15, %iterArg_16, %iterArg_17) : (tensor<2x3xcomplex<f32>>, tensor<f64>, tensor<i64>, tensor<5x5xcomplex<f32>>, tensor<i1>) -> (tensor<i64>, tensor<5x5xcomplex<f32>>, tensor<i1>)
      %c_18 = stablehlo.constant dense<1> : tensor<i64>
      %44 = stablehlo.add %iterArg_14, %c_18 : tensor<i64>
      stablehlo.return %iterArg, %iterArg_13, %44, %43#0, %43#1, %43#2 : tensor<2x3xcomplex<f32>>, tensor<f64>, tensor<i64>, tensor<i64>, tensor<5x5xcomplex<f32>>, tensor<i1>
    }
    %c_9 = stablehlo.constant dense<4> : tensor<i64>
    %15:4 = stablehlo.while(%iterArg = %10, %iterArg_13 = %c_9, %iterArg_14 = %14#4, %iterArg_15 = %14#5) : tensor<f64>, tensor<i64>, tensor<5x5xcomplex<f32>>, tensor<i1>
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
      %43 = stablehlo.transpose %iterArg_14, dims = [1, 0] : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
      %44 = stablehlo.real %43 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
      %45 = stablehlo.imag %43 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
      %46 = stablehlo.negate %45 : tensor<5x5xf32>
      %47 = stablehlo.complex %44, %46 : tensor<5x5xcomplex<f32>>
      %48 = stablehlo.dot_general %47, %iterArg_14, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
      %cst_16 = stablehlo.constant dense<(3.000000e+00,0.000000e+00)> : tensor<complex<f32>>
      %49 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
      %50 = stablehlo.multiply %49, %48 : tensor<5x5xcomplex<f32>>
      %51 = stablehlo.iota dim = 0 : tensor<5x5xi64>
      %52 = stablehlo.iota dim = 1 : tensor<5x5xi64>
      %c_17 = stablehlo.constant dense<0> : tensor<i64>
      %53 = stablehlo.broadcast_in_dim %c_17, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
      %54 = stablehlo.add %51, %53 : tensor<5x5xi64>
      %55 = stablehlo.compare EQ, %54, %52, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
      %56 = stablehlo.convert %55 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f32>>
      %57 = stablehlo.add %50, %56 : tensor<5x5xcomplex<f32>>
      %58 = stablehlo.iota dim = 0 : tensor<5x5xi64>
      %59 = stablehlo.iota dim = 1 : tensor<5x5xi64>
      %c_18 = stablehlo.constant dense<0> : tensor<i64>
      %60 = stablehlo.broadcast_in_dim %c_18, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
      %61 = stablehlo.add %58, %60 : tensor<5x5xi64>
      %62 = stablehlo.compare EQ, %61, %59, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
      %63 = stablehlo.convert %62 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f32>>
      %64 = stablehlo.iota dim = 0 : tensor<5x5xi32>
      %c_19 = stablehlo.constant dense<5> : tensor<i32>
      %65 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
      %66 = stablehlo.compare LT, %64, %65, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
      %67 = stablehlo.iota dim = 1 : tensor<5x5xi32>
      %c_20 = stablehlo.constant dense<5> : tensor<i32>
      %68 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
      %69 = stablehlo.compare LT, %67, %68, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
      %70 = stablehlo.and %66, %69 : tensor<5x5xi1>
      %71 = func.call @_where_3(%70, %57, %63) : (tensor<5x5xi1>, tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
      %72:2 = stablehlo.custom_call @lapack_cpotrf_ffi(%71) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<5x5xcomplex<f32>>) -> (tensor<5x5xcomplex<f32>>, tensor<i32>)
      %c_21 = stablehlo.constant dense<0> : tensor<i32>
      %73 = stablehlo.broadcast_in_dim %c_21, dims = [] : (tensor<i32>) -> tensor<i32>
      %74 = stablehlo.compare EQ, %72#1, %73, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %75 = stablehlo.broadcast_in_dim %74, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
      %cst_22 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
      %76 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
      %77 = stablehlo.broadcast_in_dim %75, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<5x5xi1>
      %78 = stablehlo.select %77, %72#0, %76 : tensor<5x5xi1>, tensor<5x5xcomplex<f32>>
      %79 = stablehlo.iota dim = 0 : tensor<5x5xi64>
      %c_23 = stablehlo.constant dense<0> : tensor<i64>
      %80 = stablehlo.broadcast_in_dim %c_23, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
      %81 = stablehlo.add %79, %80 : tensor<5x5xi64>
      %82 = stablehlo.iota dim = 1 : tensor<5x5xi64>
      %83 = stablehlo.compare GE, %81, %82, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
      %cst_24 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
      %84 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
      %85 = stablehlo.select %83, %78, %84 : tensor<5x5xi1>, tensor<5x5xcomplex<f32>>
      %86 = stablehlo.transpose %iterArg_14, dims = [1, 0] : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
      %87 = chlo.conj %85 : tensor<5x5xcomplex<f32>> -> tensor<5x5xcomplex<f32>>
      %88 = stablehlo.custom_call @lapack_ctrsm_ffi(%87, %86) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
      %89 = stablehlo.real %88 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
      %90 = stablehlo.imag %88 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
      %91 = stablehlo.negate %90 : tensor<5x5xf32>
      %92 = stablehlo.complex %89, %91 : tensor<5x5xcomplex<f32>>
      %93 = stablehlo.custom_call @lapack_ctrsm_ffi(%85, %92) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 67 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
      %94 = stablehlo.transpose %93, dims = [1, 0] : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
      %95 = stablehlo.real %94 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
      %96 = stablehlo.imag %94 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
      %97 = stablehlo.negate %96 : tensor<5x5xf32>
      %98 = stablehlo.complex %95, %97 : tensor<5x5xcomplex<f32>>
      %cst_25 = stablehlo.constant dense<(0.333333343,0.000000e+00)> : tensor<complex<f32>>
      %99 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
      %100 = stablehlo.multiply %99, %iterArg_14 : tensor<5x5xcomplex<f32>>
      %cst_26 = stablehlo.constant dense<(2.66666675,0.000000e+00)> : tensor<complex<f32>>
      %101 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
      %102 = stablehlo.multiply %101, %98 : tensor<5x5xcomplex<f32>>
      %103 = stablehlo.add %100, %102 : tensor<5x5xcomplex<f32>>
      %104 = stablehlo.subtract %103, %iterArg_14 : tensor<5x5xcomplex<f32>>
      %105 = func.call @norm_4(%104) : (tensor<5x5xcomplex<f32>>) -> tensor<f32>
      %106 = stablehlo.convert %iterArg : (tensor<f64>) -> tensor<f32>
      %107 = stablehlo.compare GT, %105, %106, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %c_27 = stablehlo.constant dense<1> : tensor<i64>
      %108 = stablehlo.add %iterArg_13, %c_27 : tensor<i64>
      stablehlo.return %iterArg, %108, %103, %107 : tensor<f64>, tensor<i64>, tensor<5x5xcomplex<f32>>, tensor<i1>
    }
    %cst_10 = stablehlo.constant dense<(1.500000e+00,0.000000e+00)> : tensor<complex<f32>>
    %16 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %17 = stablehlo.multiply %16, %15#2 : tensor<5x5xcomplex<f32>>
    %cst_11 = stablehlo.constant dense<(5.000000e-01,0.000000e+00)> : tensor<complex<f32>>
    %18 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %19 = stablehlo.multiply %18, %15#2 : tensor<5x5xcomplex<f32>>
    %20 = stablehlo.transpose %15#2, dims = [1, 0] : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %21 = stablehlo.real %20 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %22 = stablehlo.imag %20 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %23 = stablehlo.negate %22 : tensor<5x5xf32>
    %24 = stablehlo.complex %21, %23 : tensor<5x5xcomplex<f32>>
    %25 = stablehlo.dot_general %24, %15#2, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %26 = stablehlo.dot_general %19, %25, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %27 = stablehlo.subtract %17, %26 : tensor<5x5xcomplex<f32>>
    %28 = stablehlo.transpose %27, dims = [1, 0] : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %29 = stablehlo.real %28 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %30 = stablehlo.imag %28 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %31 = stablehlo.negate %30 : tensor<5x5xf32>
    %32 = stablehlo.complex %29, %31 : tensor<5x5xcomplex<f32>>
    %33 = stablehlo.dot_general %32, %arg0, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %34 = stablehlo.transpose %33, dims = [1, 0] : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %35 = stablehlo.real %34 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %36 = stablehlo.imag %34 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %37 = stablehlo.negate %36 : tensor<5x5xf32>
    %38 = stablehlo.complex %35, %37 : tensor<5x5xcomplex<f32>>
    %39 = stablehlo.add %33, %38 : tensor<5x5xcomplex<f32>>
    %cst_12 = stablehlo.constant dense<(2.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %40 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %41 = stablehlo.divide %39, %40 : tensor<5x5xcomplex<f32>>
    %42 = stablehlo.not %15#3 : tensor<i1>
    return %27, %41, %15#1, %42 : tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>, tensor<i64>, tensor<i1>
  }
  func.func private @norm(%arg0: tensor<5x5xcomplex<f32>>) -> tensor<f32> {
    %0 = stablehlo.abs %arg0 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<5x5xf32>, tensor<f32>) -> tensor<5xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.maximum across dimensions = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.maximum %cst_1, %2 : tensor<f32>
    return %3 : tensor<f32>
  }
  func.func private @norm_0(%arg0: tensor<5x5xcomplex<f32>>) -> tensor<f32> {
    %0 = stablehlo.abs %arg0 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<5x5xf32>, tensor<f32>) -> tensor<5xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.reduce(%1 init: %cst_0) applies stablehlo.maximum across dimensions = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.maximum %cst_1, %2 : tensor<f32>
    return %3 : tensor<f32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i64>, %arg2: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.convert %arg1 : (tensor<i64>) -> tensor<f32>
    %1 = stablehlo.select %arg0, %0, %arg2 : tensor<i1>, tensor<f32>
    return %1 : tensor<f32>
  }
  func.func private @closed_call(%arg0: tensor<2x3xcomplex<f32>>, %arg1: tensor<i64>, %arg2: tensor<5x5xcomplex<f32>>, %arg3: tensor<i1>) -> (tensor<i64>, tensor<5x5xcomplex<f32>>, tensor<i1>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg1, %c : tensor<i64>
    %1 = call @dynamic_index_in_dim(%arg0, %arg1) : (tensor<2x3xcomplex<f32>>, tensor<i64>) -> tensor<3xcomplex<f32>>
    %2 = stablehlo.slice %1 [0:1] : (tensor<3xcomplex<f32>>) -> tensor<1xcomplex<f32>>
    %3 = stablehlo.reshape %2 : (tensor<1xcomplex<f32>>) -> tensor<complex<f32>>
    %4 = stablehlo.slice %1 [1:2] : (tensor<3xcomplex<f32>>) -> tensor<1xcomplex<f32>>
    %5 = stablehlo.reshape %4 : (tensor<1xcomplex<f32>>) -> tensor<complex<f32>>
    %6 = stablehlo.slice %1 [2:3] : (tensor<3xcomplex<f32>>) -> tensor<1xcomplex<f32>>
    %7 = stablehlo.reshape %6 : (tensor<1xcomplex<f32>>) -> tensor<complex<f32>>
    %8 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %9 = stablehlo.multiply %8, %arg2 : tensor<5x5xcomplex<f32>>
    %10 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %11 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %12 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %13 = stablehlo.add %10, %12 : tensor<5x5xi64>
    %14 = stablehlo.compare EQ, %13, %11, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %15 = stablehlo.convert %14 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f32>>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %16 = stablehlo.pad %9, %cst, low = [0, 0], high = [5, 0], interior = [0, 0] : (tensor<5x5xcomplex<f32>>, tensor<complex<f32>>) -> tensor<10x5xcomplex<f32>>
    %c_1 = stablehlo.constant dense<5> : tensor<i64>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %17 = stablehlo.dynamic_update_slice %16, %15, %c_1, %c_2 : (tensor<10x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>, tensor<i64>, tensor<i64>) -> tensor<10x5xcomplex<f32>>
    %18:2 = stablehlo.custom_call @lapack_cgeqrf_ffi(%17) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<10x5xcomplex<f32>>) -> (tensor<10x5xcomplex<f32>>, tensor<5xcomplex<f32>>)
    %19 = stablehlo.custom_call @lapack_cungqr_ffi(%18#0, %18#1) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<10x5xcomplex<f32>>, tensor<5xcomplex<f32>>) -> tensor<10x5xcomplex<f32>>
    %20 = stablehlo.slice %18#0 [0:5, 0:5] : (tensor<10x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %21 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %c_3 = stablehlo.constant dense<-1> : tensor<i64>
    %22 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %23 = stablehlo.add %21, %22 : tensor<5x5xi64>
    %24 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %25 = stablehlo.compare GE, %23, %24, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %cst_4 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %26 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %27 = stablehlo.select %25, %26, %20 : tensor<5x5xi1>, tensor<5x5xcomplex<f32>>
    %28 = stablehlo.slice %19 [0:5, 0:5] : (tensor<10x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
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
    %36 = call @_where_1(%35, %28, %c_7) : (tensor<5x5xi1>, tensor<5x5xcomplex<f32>>, tensor<i64>) -> tensor<5x5xcomplex<f32>>
    %c_8 = stablehlo.constant dense<5> : tensor<i64>
    %c_9 = stablehlo.constant dense<0> : tensor<i64>
    %37 = stablehlo.dynamic_slice %19, %c_8, %c_9, sizes = [5, 5] : (tensor<10x5xcomplex<f32>>, tensor<i64>, tensor<i64>) -> tensor<5x5xcomplex<f32>>
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
    %45 = call @_where_1(%44, %37, %c_12) : (tensor<5x5xi1>, tensor<5x5xcomplex<f32>>, tensor<i64>) -> tensor<5x5xcomplex<f32>>
    %46 = stablehlo.transpose %45, dims = [1, 0] : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %47 = stablehlo.real %46 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %48 = stablehlo.imag %46 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %49 = stablehlo.negate %48 : tensor<5x5xf32>
    %50 = stablehlo.complex %47, %49 : tensor<5x5xcomplex<f32>>
    %51 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %52 = stablehlo.multiply %51, %arg2 : tensor<5x5xcomplex<f32>>
    %53 = stablehlo.dot_general %36, %50, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %54 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %55 = stablehlo.multiply %54, %53 : tensor<5x5xcomplex<f32>>
    %56 = stablehlo.add %52, %55 : tensor<5x5xcomplex<f32>>
    %c_13 = stablehlo.constant dense<true> : tensor<i1>
    return %0, %56, %c_13 : tensor<i64>, tensor<5x5xcomplex<f32>>, tensor<i1>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<2x3xcomplex<f32>>, %arg1: tensor<i64>) -> tensor<3xcomplex<f32>> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.compare LT, %arg1, %c, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %1 = stablehlo.convert %arg1 : tensor<i64>
    %c_0 = stablehlo.constant dense<2> : tensor<i64>
    %2 = stablehlo.add %1, %c_0 : tensor<i64>
    %3 = stablehlo.select %0, %2, %arg1 : tensor<i1>, tensor<i64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %4 = stablehlo.dynamic_slice %arg0, %3, %c_1, sizes = [1, 3] : (tensor<2x3xcomplex<f32>>, tensor<i64>, tensor<i64>) -> tensor<1x3xcomplex<f32>>
    %5 = stablehlo.reshape %4 : (tensor<1x3xcomplex<f32>>) -> tensor<3xcomplex<f32>>
    return %5 : tensor<3xcomplex<f32>>
  }
  func.func private @_where_1(%arg0: tensor<5x5xi1>, %arg1: tensor<5x5xcomplex<f32>>, %arg2: tensor<i64>) -> tensor<5x5xcomplex<f32>> {
    %0 = stablehlo.convert %arg2 : (tensor<i64>) -> tensor<complex<f32>>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<5x5xi1>, tensor<5x5xcomplex<f32>>
    return %2 : tensor<5x5xcomplex<f32>>
  }
  func.func private @closed_call_2(%arg0: tensor<2x3xcomplex<f32>>, %arg1: tensor<f64>, %arg2: tensor<i64>, %arg3: tensor<5x5xcomplex<f32>>, %arg4: tensor<i1>) -> (tensor<i64>, tensor<5x5xcomplex<f32>>, tensor<i1>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg2, %c : tensor<i64>
    %1 = call @dynamic_index_in_dim(%arg0, %arg2) : (tensor<2x3xcomplex<f32>>, tensor<i64>) -> tensor<3xcomplex<f32>>
    %2 = stablehlo.slice %1 [0:1] : (tensor<3xcomplex<f32>>) -> tensor<1xcomplex<f32>>
    %3 = stablehlo.reshape %2 : (tensor<1xcomplex<f32>>) -> tensor<complex<f32>>
    %4 = stablehlo.slice %1 [1:2] : (tensor<3xcomplex<f32>>) -> tensor<1xcomplex<f32>>
    %5 = stablehlo.reshape %4 : (tensor<1xcomplex<f32>>) -> tensor<complex<f32>>
    %6 = stablehlo.slice %1 [2:3] : (tensor<3xcomplex<f32>>) -> tensor<1xcomplex<f32>>
    %7 = stablehlo.reshape %6 : (tensor<1xcomplex<f32>>) -> tensor<complex<f32>>
    %8 = stablehlo.transpose %arg3, dims = [1, 0] : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %9 = stablehlo.real %8 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %10 = stablehlo.imag %8 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %11 = stablehlo.negate %10 : tensor<5x5xf32>
    %12 = stablehlo.complex %9, %11 : tensor<5x5xcomplex<f32>>
    %13 = stablehlo.dot_general %12, %arg3, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %14 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %15 = stablehlo.multiply %14, %13 : tensor<5x5xcomplex<f32>>
    %16 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %17 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %18 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %19 = stablehlo.add %16, %18 : tensor<5x5xi64>
    %20 = stablehlo.compare EQ, %19, %17, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %21 = stablehlo.convert %20 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f32>>
    %22 = stablehlo.add %15, %21 : tensor<5x5xcomplex<f32>>
    %23 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %24 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %25 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %26 = stablehlo.add %23, %25 : tensor<5x5xi64>
    %27 = stablehlo.compare EQ, %26, %24, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %28 = stablehlo.convert %27 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f32>>
    %29 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %c_2 = stablehlo.constant dense<5> : tensor<i32>
    %30 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %31 = stablehlo.compare LT, %29, %30, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %32 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %c_3 = stablehlo.constant dense<5> : tensor<i32>
    %33 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %34 = stablehlo.compare LT, %32, %33, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %35 = stablehlo.and %31, %34 : tensor<5x5xi1>
    %36 = call @_where_3(%35, %22, %28) : (tensor<5x5xi1>, tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %37:2 = stablehlo.custom_call @lapack_cpotrf_ffi(%36) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<5x5xcomplex<f32>>) -> (tensor<5x5xcomplex<f32>>, tensor<i32>)
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %38 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<i32>
    %39 = stablehlo.compare EQ, %37#1, %38, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %40 = stablehlo.broadcast_in_dim %39, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %41 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %42 = stablehlo.broadcast_in_dim %40, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<5x5xi1>
    %43 = stablehlo.select %42, %37#0, %41 : tensor<5x5xi1>, tensor<5x5xcomplex<f32>>
    %44 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %c_5 = stablehlo.constant dense<0> : tensor<i64>
    %45 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %46 = stablehlo.add %44, %45 : tensor<5x5xi64>
    %47 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %48 = stablehlo.compare GE, %46, %47, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %cst_6 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %49 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %50 = stablehlo.select %48, %43, %49 : tensor<5x5xi1>, tensor<5x5xcomplex<f32>>
    %51 = stablehlo.transpose %arg3, dims = [1, 0] : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %52 = chlo.conj %50 : tensor<5x5xcomplex<f32>> -> tensor<5x5xcomplex<f32>>
    %53 = stablehlo.custom_call @lapack_ctrsm_ffi(%52, %51) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %54 = stablehlo.real %53 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %55 = stablehlo.imag %53 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %56 = stablehlo.negate %55 : tensor<5x5xf32>
    %57 = stablehlo.complex %54, %56 : tensor<5x5xcomplex<f32>>
    %58 = stablehlo.custom_call @lapack_ctrsm_ffi(%50, %57) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 67 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<5x5xcomplex<f32>>, tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %59 = stablehlo.transpose %58, dims = [1, 0] : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %60 = stablehlo.real %59 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %61 = stablehlo.imag %59 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %62 = stablehlo.negate %61 : tensor<5x5xf32>
    %63 = stablehlo.complex %60, %62 : tensor<5x5xcomplex<f32>>
    %64 = stablehlo.broadcast_in_dim %7, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %65 = stablehlo.multiply %64, %arg3 : tensor<5x5xcomplex<f32>>
    %66 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %67 = stablehlo.multiply %66, %63 : tensor<5x5xcomplex<f32>>
    %68 = stablehlo.add %65, %67 : tensor<5x5xcomplex<f32>>
    %69 = stablehlo.subtract %68, %arg3 : tensor<5x5xcomplex<f32>>
    %70 = call @norm_4(%69) : (tensor<5x5xcomplex<f32>>) -> tensor<f32>
    %71 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<f32>
    %72 = stablehlo.compare GT, %70, %71, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    return %0, %68, %72 : tensor<i64>, tensor<5x5xcomplex<f32>>, tensor<i1>
  }
  func.func private @_where_3(%arg0: tensor<5x5xi1>, %arg1: tensor<5x5xcomplex<f32>>, %arg2: tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<5x5xi1>, tensor<5x5xcomplex<f32>>
    return %0 : tensor<5x5xcomplex<f32>>
  }
  func.func private @norm_4(%arg0: tensor<5x5xcomplex<f32>>) -> tensor<f32> {
    %0 = stablehlo.real %arg0 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %1 = stablehlo.imag %arg0 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %2 = stablehlo.negate %1 : tensor<5x5xf32>
    %3 = stablehlo.complex %0, %2 : tensor<5x5xcomplex<f32>>
    %4 = stablehlo.multiply %arg0, %3 : tensor<5x5xcomplex<f32>>
    %5 = stablehlo.real %4 : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<5x5xf32>, tensor<f32>) -> tensor<f32>
    %7 = stablehlo.sqrt %6 : tensor<f32>
    return %7 : tensor<f32>
  }
}
