module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xf64>) -> (tensor<5x5xcomplex<f64>> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [0:1, 0:5, 0:5] : (tensor<2x5x5xf64>) -> tensor<1x5x5xf64>
    %1 = stablehlo.reshape %0 : (tensor<1x5x5xf64>) -> tensor<5x5xf64>
    %2 = call @_sqrtm(%1) : (tensor<5x5xf64>) -> tensor<5x5xcomplex<f64>>
    return %2 : tensor<5x5xcomplex<f64>>
  }
  func.func private @_sqrtm(%arg0: tensor<5x5xf64>) -> tensor<5x5xcomplex<f64>> {
    %0:2 = call @_schur(%arg0) : (tensor<5x5xf64>) -> (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>)
    %1 = call @_sqrtm_triu(%0#0) : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %2 = stablehlo.dot_general %0#1, %1, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %3 = stablehlo.transpose %0#1, dims = [1, 0] : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %4 = stablehlo.real %3 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %5 = stablehlo.imag %3 : (tensor<5x5xcomplex<f64>>) -> tensor<5x5xf64>
    %6 = stablehlo.negate %5 : tensor<5x5xf64>
    %7 = stablehlo.complex %4, %6 : tensor<5x5xcomplex<f64>>
    %8 = stablehlo.dot_general %2, %7, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    return %8 : tensor<5x5xcomplex<f64>>
  }
  func.func private @_schur(%arg0: tensor<5x5xf64>) -> (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>) {
    %0 = stablehlo.convert %arg0 : (tensor<5x5xf64>) -> tensor<5x5xcomplex<f64>>
    %1:5 = stablehlo.custom_call @lapack_zgees_ffi(%0) {backend_config = "", mhlo.backend_config = {mode = 86 : ui8, sort = 78 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>, dense<> : tensor<0xindex>]} : (tensor<5x5xcomplex<f64>>) -> (tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<i32>, tensor<i32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %3 = stablehlo.compare EQ, %1#4, %2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst = stablehlo.constant dense<(0x7FF8000000000000,0x7FF8000000000000)> : tensor<complex<f64>>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %6 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<5x5xi1>
    %7 = stablehlo.select %6, %1#0, %5 : tensor<5x5xi1>, tensor<5x5xcomplex<f64>>
    %8 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_0 = stablehlo.constant dense<(0x7FF8000000000000,0x7FF8000000000000)> : tensor<complex<f64>>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %10 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<5x5xi1>
    %11 = stablehlo.select %10, %1#1, %9 : tensor<5x5xi1>, tensor<5x5xcomplex<f64>>
    return %7, %11 : tensor<5x5xcomplex<f64>>, tensor<5x5xcomplex<f64>>
  }
  func.func private @_sqrtm_triu(%arg0: tensor<5x5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>> {
    %0 = call @_diag(%arg0) : (tensor<5x5xcomplex<f64>>) -> tensor<5xcomplex<f64>>
    %1 = stablehlo.sqrt %0 : tensor<5xcomplex<f64>>
    %2 = call @_diag_0(%1) : (tensor<5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %3:5 = stablehlo.while(%iterArg = %arg0, %iterArg_1 = %1, %iterArg_2 = %c_0, %iterArg_3 = %c, %iterArg_4 = %2) : tensor<5x5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<i64>, tensor<i64>, tensor<5x5xcomplex<f64>>
    cond {
      %c_5 = stablehlo.constant dense<5> : tensor<i64>
      %4 = stablehlo.compare LT, %iterArg_2, %c_5, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %4:2 = func.call @closed_call(%iterArg, %iterArg_1, %iterArg_3, %iterArg_4) : (tensor<5x5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<i64>, tensor<5x5xcomplex<f64>>) -> (tensor<i64>, tensor<5x5xcomplex<f64>>)
      %c_5 = stablehlo.constant dense<1> : tensor<i64>
      %5 = stablehlo.add %iterArg_2, %c_5 : tensor<i64>
      stablehlo.return %iterArg, %iterArg_1, %5, %4#0, %4#1 : tensor<5x5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<i64>, tensor<i64>, tensor<5x5xcomplex<f64>>
    }
    return %3#4 : tensor<5x5xcomplex<f64>>
  }
  func.func private @_diag(%arg0: tensor<5x5xcomplex<f64>>) -> tensor<5xcomplex<f64>> {
    %0 = call @diagonal(%arg0) : (tensor<5x5xcomplex<f64>>) -> tensor<5xcomplex<f64>>
    return %0 : tensor<5xcomplex<f64>>
  }
  func.func private @diagonal(%arg0: tensor<5x5xcomplex<f64>>) -> tensor<5xcomplex<f64>> {
    %0 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %1 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %3 = stablehlo.add %0, %2 : tensor<5x5xi64>
    %4 = stablehlo.compare EQ, %3, %1, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %5 = stablehlo.convert %4 : (tensor<5x5xi1>) -> tensor<5x5xcomplex<f64>>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %6 = "stablehlo.case"(%c_0) ({
      %c_1 = stablehlo.constant dense<0> : tensor<i32>
      stablehlo.return %c_1 : tensor<i32>
    }, {
      %c_1 = stablehlo.constant dense<0> : tensor<i32>
      stablehlo.return %c_1 : tensor<i32>
    }) : (tensor<i32>) -> tensor<i32>
    %7 = "stablehlo.case"(%6) ({
      %8 = stablehlo.iota dim = 0 : tensor<5xi64>
      %9 = stablehlo.iota dim = 0 : tensor<5xi64>
      %c_1 = stablehlo.constant dense<0> : tensor<i64>
      %10 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<5xi64>
      %11 = stablehlo.compare LT, %8, %10, SIGNED : (tensor<5xi64>, tensor<5xi64>) -> tensor<5xi1>
      %c_2 = stablehlo.constant dense<5> : tensor<i64>
      %12 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i64>) -> tensor<5xi64>
      %13 = stablehlo.add %8, %12 : tensor<5xi64>
      %14 = stablehlo.select %11, %13, %8 : tensor<5xi1>, tensor<5xi64>
      %c_3 = stablehlo.constant dense<0> : tensor<i64>
      %15 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i64>) -> tensor<5xi64>
      %16 = stablehlo.compare LT, %9, %15, SIGNED : (tensor<5xi64>, tensor<5xi64>) -> tensor<5xi1>
      %c_4 = stablehlo.constant dense<5> : tensor<i64>
      %17 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i64>) -> tensor<5xi64>
      %18 = stablehlo.add %9, %17 : tensor<5xi64>
      %19 = stablehlo.select %16, %18, %9 : tensor<5xi1>, tensor<5xi64>
      %20 = stablehlo.convert %14 : (tensor<5xi64>) -> tensor<5xi32>
      %21 = stablehlo.convert %19 : (tensor<5xi64>) -> tensor<5xi32>
      %22 = stablehlo.broadcast_in_dim %20, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
      %23 = stablehlo.broadcast_in_dim %21, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
      %24 = stablehlo.concatenate %22, %23, dim = 1 : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x2xi32>
      %25 = "stablehlo.gather"(%arg0, %24) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<5x5xcomplex<f64>>, tensor<5x2xi32>) -> tensor<5xcomplex<f64>>
      stablehlo.return %25 : tensor<5xcomplex<f64>>
    }) : (tensor<i32>) -> tensor<5xcomplex<f64>>
    return %7 : tensor<5xcomplex<f64>>
  }
  func.func private @_diag_0(%arg0: tensor<5xcomplex<f64>>) -> tensor<5x5xcomplex<f64>> {
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %0 = stablehlo.pad %arg0, %cst, low = [0], high = [0], interior = [0] : (tensor<5xcomplex<f64>>, tensor<complex<f64>>) -> tensor<5xcomplex<f64>>
    %1 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %2 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %4 = stablehlo.add %1, %3 : tensor<5x5xi64>
    %5 = stablehlo.compare EQ, %4, %2, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %6 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<5xcomplex<f64>>) -> tensor<5x1xcomplex<f64>>
    %cst_0 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %7 = call @_where(%5, %6, %cst_0) : (tensor<5x5xi1>, tensor<5x1xcomplex<f64>>, tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    return %7 : tensor<5x5xcomplex<f64>>
  }
  func.func private @_where(%arg0: tensor<5x5xi1>, %arg1: tensor<5x1xcomplex<f64>>, %arg2: tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<5x1xcomplex<f64>>) -> tensor<5x5xcomplex<f64>>
    %1 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
    %2 = stablehlo.select %arg0, %0, %1 : tensor<5x5xi1>, tensor<5x5xcomplex<f64>>
    return %2 : tensor<5x5xcomplex<f64>>
  }
  func.func private @closed_call(%arg0: tensor<5x5xcomplex<f64>>, %arg1: tensor<5xcomplex<f64>>, %arg2: tensor<i64>, %arg3: tensor<5x5xcomplex<f64>>) -> (tensor<i64>, tensor<5x5xcomplex<f64>>) {
    %c = stablehlo.constant dense<1> : tensor<i64>
    %0 = stablehlo.add %arg2, %c : tensor<i64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %1:6 = stablehlo.while(%iterArg = %arg2, %iterArg_1 = %arg0, %iterArg_2 = %arg1, %iterArg_3 = %c_0, %iterArg_4 = %arg2, %iterArg_5 = %arg3) : tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<i64>, tensor<i64>, tensor<5x5xcomplex<f64>>
    cond {
      %2 = stablehlo.compare LT, %iterArg_3, %iterArg_4, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %c_6 = stablehlo.constant dense<1> : tensor<i64>
      %2 = stablehlo.add %iterArg_3, %c_6 : tensor<i64>
      %c_7 = stablehlo.constant dense<1> : tensor<i64>
      %3 = stablehlo.subtract %iterArg, %c_7 : tensor<i64>
      %4 = stablehlo.subtract %3, %iterArg_3 : tensor<i64>
      %c_8 = stablehlo.constant dense<1> : tensor<i64>
      %5 = stablehlo.add %4, %c_8 : tensor<i64>
      %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f64>>
      %6:6 = stablehlo.while(%iterArg_26 = %4, %iterArg_27 = %iterArg_5, %iterArg_28 = %iterArg, %iterArg_29 = %5, %iterArg_30 = %iterArg, %iterArg_31 = %cst) : tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<complex<f64>>
      cond {
        %56 = stablehlo.compare LT, %iterArg_29, %iterArg_30, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
        stablehlo.return %56 : tensor<i1>
      } do {
        %c_32 = stablehlo.constant dense<1> : tensor<i64>
        %56 = stablehlo.add %iterArg_29, %c_32 : tensor<i64>
        %57 = stablehlo.convert %iterArg_26 : (tensor<i64>) -> tensor<i32>
        %58 = stablehlo.convert %iterArg_29 : (tensor<i64>) -> tensor<i32>
        %c_33 = stablehlo.constant dense<0> : tensor<i32>
        %59 = stablehlo.compare LT, %57, %c_33, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %c_34 = stablehlo.constant dense<5> : tensor<i32>
        %60 = stablehlo.add %57, %c_34 : tensor<i32>
        %61 = stablehlo.select %59, %60, %57 : tensor<i1>, tensor<i32>
        %c_35 = stablehlo.constant dense<0> : tensor<i32>
        %62 = stablehlo.compare LT, %58, %c_35, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %c_36 = stablehlo.constant dense<5> : tensor<i32>
        %63 = stablehlo.add %58, %c_36 : tensor<i32>
        %64 = stablehlo.select %62, %63, %58 : tensor<i1>, tensor<i32>
        %65 = stablehlo.dynamic_slice %iterArg_27, %61, %64, sizes = [1, 1] : (tensor<5x5xcomplex<f64>>, tensor<i32>, tensor<i32>) -> tensor<1x1xcomplex<f64>>
        %66 = stablehlo.reshape %65 : (tensor<1x1xcomplex<f64>>) -> tensor<complex<f64>>
        %67 = stablehlo.convert %iterArg_29 : (tensor<i64>) -> tensor<i32>
        %68 = stablehlo.convert %iterArg_28 : (tensor<i64>) -> tensor<i32>
        %c_37 = stablehlo.constant dense<0> : tensor<i32>
        %69 = stablehlo.compare LT, %67, %c_37, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %c_38 = stablehlo.constant dense<5> : tensor<i32>
        %70 = stablehlo.add %67, %c_38 : tensor<i32>
        %71 = stablehlo.select %69, %70, %67 : tensor<i1>, tensor<i32>
        %c_39 = stablehlo.constant dense<0> : tensor<i32>
        %72 = stablehlo.compare LT, %68, %c_39, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        %c_40 = stablehlo.constant dense<5> : tensor<i32>
        %73 = stablehlo.add %68, %c_40 : tensor<i32>
        %74 = stablehlo.select %72, %73, %68 : tensor<i1>, tensor<i32>
        %75 = stablehlo.dynamic_slice %iterArg_27, %71, %74, sizes = [1, 1] : (tensor<5x5xcomplex<f64>>, tensor<i32>, tensor<i32>) -> tensor<1x1xcomplex<f64>>
        %76 = stablehlo.reshape %75 : (tensor<1x1xcomplex<f64>>) -> tensor<complex<f64>>
        %77 = stablehlo.multiply %66, %76 : tensor<complex<f64>>
        %78 = stablehlo.add %iterArg_31, %77 : tensor<complex<f64>>
        stablehlo.return %iterArg_26, %iterArg_27, %iterArg_28, %56, %iterArg_30, %78 : tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<i64>, tensor<i64>, tensor<i64>, tensor<complex<f64>>
      }
      %7 = stablehlo.convert %4 : (tensor<i64>) -> tensor<i32>
      %8 = stablehlo.convert %iterArg : (tensor<i64>) -> tensor<i32>
      %c_9 = stablehlo.constant dense<0> : tensor<i32>
      %9 = stablehlo.compare LT, %7, %c_9, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_10 = stablehlo.constant dense<5> : tensor<i32>
      %10 = stablehlo.add %7, %c_10 : tensor<i32>
      %11 = stablehlo.select %9, %10, %7 : tensor<i1>, tensor<i32>
      %c_11 = stablehlo.constant dense<0> : tensor<i32>
      %12 = stablehlo.compare LT, %8, %c_11, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_12 = stablehlo.constant dense<5> : tensor<i32>
      %13 = stablehlo.add %8, %c_12 : tensor<i32>
      %14 = stablehlo.select %12, %13, %8 : tensor<i1>, tensor<i32>
      %15 = stablehlo.dynamic_slice %iterArg_1, %11, %14, sizes = [1, 1] : (tensor<5x5xcomplex<f64>>, tensor<i32>, tensor<i32>) -> tensor<1x1xcomplex<f64>>
      %16 = stablehlo.reshape %15 : (tensor<1x1xcomplex<f64>>) -> tensor<complex<f64>>
      %17 = stablehlo.compare EQ, %16, %6#5, FLOAT : (tensor<complex<f64>>, tensor<complex<f64>>) -> tensor<i1>
      %18 = stablehlo.convert %4 : (tensor<i64>) -> tensor<i32>
      %19 = stablehlo.convert %iterArg : (tensor<i64>) -> tensor<i32>
      %c_13 = stablehlo.constant dense<0> : tensor<i32>
      %20 = stablehlo.compare LT, %18, %c_13, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_14 = stablehlo.constant dense<5> : tensor<i32>
      %21 = stablehlo.add %18, %c_14 : tensor<i32>
      %22 = stablehlo.select %20, %21, %18 : tensor<i1>, tensor<i32>
      %c_15 = stablehlo.constant dense<0> : tensor<i32>
      %23 = stablehlo.compare LT, %19, %c_15, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %c_16 = stablehlo.constant dense<5> : tensor<i32>
      %24 = stablehlo.add %19, %c_16 : tensor<i32>
      %25 = stablehlo.select %23, %24, %19 : tensor<i1>, tensor<i32>
      %26 = stablehlo.dynamic_slice %iterArg_1, %22, %25, sizes = [1, 1] : (tensor<5x5xcomplex<f64>>, tensor<i32>, tensor<i32>) -> tensor<1x1xcomplex<f64>>
      %27 = stablehlo.reshape %26 : (tensor<1x1xcomplex<f64>>) -> tensor<complex<f64>>
      %28 = stablehlo.subtract %27, %6#5 : tensor<complex<f64>>
      %c_17 = stablehlo.constant dense<0> : tensor<i64>
      %29 = stablehlo.compare LT, %4, %c_17, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      %30 = stablehlo.convert %4 : tensor<i64>
      %c_18 = stablehlo.constant dense<5> : tensor<i64>
      %31 = stablehlo.add %30, %c_18 : tensor<i64>
      %32 = stablehlo.select %29, %31, %4 : tensor<i1>, tensor<i64>
      %33 = stablehlo.dynamic_slice %iterArg_2, %32, sizes = [1] : (tensor<5xcomplex<f64>>, tensor<i64>) -> tensor<1xcomplex<f64>>
      %34 = stablehlo.reshape %33 : (tensor<1xcomplex<f64>>) -> tensor<complex<f64>>
      %c_19 = stablehlo.constant dense<0> : tensor<i64>
      %35 = stablehlo.compare LT, %iterArg, %c_19, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      %36 = stablehlo.convert %iterArg : tensor<i64>
      %c_20 = stablehlo.constant dense<5> : tensor<i64>
      %37 = stablehlo.add %36, %c_20 : tensor<i64>
      %38 = stablehlo.select %35, %37, %iterArg : tensor<i1>, tensor<i64>
      %39 = stablehlo.dynamic_slice %iterArg_2, %38, sizes = [1] : (tensor<5xcomplex<f64>>, tensor<i64>) -> tensor<1xcomplex<f64>>
      %40 = stablehlo.reshape %39 : (tensor<1xcomplex<f64>>) -> tensor<complex<f64>>
      %41 = stablehlo.add %34, %40 : tensor<complex<f64>>
      %42 = stablehlo.divide %28, %41 : tensor<complex<f64>>
      %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
      %43 = func.call @_where_1(%17, %cst_21, %42) : (tensor<i1>, tensor<f64>, tensor<complex<f64>>) -> tensor<complex<f64>>
      %c_22 = stablehlo.constant dense<0> : tensor<i64>
      %44 = stablehlo.compare LT, %4, %c_22, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      %c_23 = stablehlo.constant dense<5> : tensor<i64>
      %45 = stablehlo.add %4, %c_23 : tensor<i64>
      %46 = stablehlo.select %44, %45, %4 : tensor<i1>, tensor<i64>
      %c_24 = stablehlo.constant dense<0> : tensor<i64>
      %47 = stablehlo.compare LT, %iterArg, %c_24, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
      %c_25 = stablehlo.constant dense<5> : tensor<i64>
      %48 = stablehlo.add %iterArg, %c_25 : tensor<i64>
      %49 = stablehlo.select %47, %48, %iterArg : tensor<i1>, tensor<i64>
      %50 = stablehlo.convert %46 : (tensor<i64>) -> tensor<i32>
      %51 = stablehlo.convert %49 : (tensor<i64>) -> tensor<i32>
      %52 = stablehlo.broadcast_in_dim %50, dims = [] : (tensor<i32>) -> tensor<1xi32>
      %53 = stablehlo.broadcast_in_dim %51, dims = [] : (tensor<i32>) -> tensor<1xi32>
      %54 = stablehlo.concatenate %52, %53, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
      %55 = "stablehlo.scatter"(%iterArg_5, %54, %43) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1]>, unique_indices = true}> ({
      ^bb0(%arg4: tensor<complex<f64>>, %arg5: tensor<complex<f64>>):
        stablehlo.return %arg5 : tensor<complex<f64>>
      }) : (tensor<5x5xcomplex<f64>>, tensor<2xi32>, tensor<complex<f64>>) -> tensor<5x5xcomplex<f64>>
      stablehlo.return %iterArg, %iterArg_1, %iterArg_2, %2, %iterArg_4, %55 : tensor<i64>, tensor<5x5xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<i64>, tensor<i64>, tensor<5x5xcomplex<f64>>
    }
    return %0, %1#5 : tensor<i64>, tensor<5x5xcomplex<f64>>
  }
  func.func private @_where_1(%arg0: tensor<i1>, %arg1: tensor<f64>, %arg2: tensor<complex<f64>>) -> tensor<complex<f64>> {
    %0 = stablehlo.convert %arg1 : (tensor<f64>) -> tensor<complex<f64>>
    %1 = stablehlo.select %arg0, %0, %arg2 : tensor<i1>, tensor<complex<f64>>
    return %1 : tensor<complex<f64>>
  }
}
