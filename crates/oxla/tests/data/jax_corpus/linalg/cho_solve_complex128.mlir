module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xcomplex<f64>>, %arg1: tensor<2x5x3xcomplex<f64>>) -> (tensor<2x5x3xcomplex<f64>> {jax.result_info = "result"}) {
    %0 = call @_cholesky(%arg0) : (tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %1 = call @_cho_solve(%0, %arg1) : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x3xcomplex<f64>>) -> tensor<2x5x3xcomplex<f64>>
    return %1 : tensor<2x5x3xcomplex<f64>>
  }
  func.func private @_cholesky(%arg0: tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>> {
    %0 = stablehlo.transpose %arg0, dims = [0, 2, 1] : (tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %1 = stablehlo.real %0 : (tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xf64>
    %2 = stablehlo.imag %0 : (tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xf64>
    %3 = stablehlo.negate %2 : tensor<2x5x5xf64>
    %4 = stablehlo.complex %1, %3 : tensor<2x5x5xcomplex<f64>>
    %5:2 = stablehlo.custom_call @lapack_zpotrf_ffi(%4) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i]) {i=2, j=5, k=5, l=5, m=5}, custom>} : (tensor<2x5x5xcomplex<f64>>) -> (tensor<2x5x5xcomplex<f64>>, tensor<2xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %7 = stablehlo.compare EQ, %5#1, %6, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst = stablehlo.constant dense<(0x7FF8000000000000,0x7FF8000000000000)> : tensor<complex<f64>>
    %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %10 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %11 = stablehlo.select %10, %5#0, %9 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %12 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %13 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %14 = stablehlo.add %12, %13 : tensor<5x5xi64>
    %15 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %16 = stablehlo.compare GE, %14, %15, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %17 = stablehlo.broadcast_in_dim %16, dims = [1, 2] : (tensor<5x5xi1>) -> tensor<2x5x5xi1>
    %cst_1 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %18 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<complex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %19 = stablehlo.select %17, %11, %18 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f64>>
    %20 = stablehlo.transpose %19, dims = [0, 2, 1] : (tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xcomplex<f64>>
    %21 = stablehlo.real %20 : (tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xf64>
    %22 = stablehlo.imag %20 : (tensor<2x5x5xcomplex<f64>>) -> tensor<2x5x5xf64>
    %23 = stablehlo.negate %22 : tensor<2x5x5xf64>
    %24 = stablehlo.complex %21, %23 : tensor<2x5x5xcomplex<f64>>
    return %24 : tensor<2x5x5xcomplex<f64>>
  }
  func.func private @_cho_solve(%arg0: tensor<2x5x5xcomplex<f64>>, %arg1: tensor<2x5x3xcomplex<f64>>) -> tensor<2x5x3xcomplex<f64>> {
    %0 = stablehlo.custom_call @lapack_ztrsm_ffi(%arg0, %arg1) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 67 : ui8, uplo = 85 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l, m])->([i, n, o]) {i=2, j=5, k=5, l=5, m=3, n=5, o=3}, custom>} : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x3xcomplex<f64>>) -> tensor<2x5x3xcomplex<f64>>
    %1 = stablehlo.custom_call @lapack_ztrsm_ffi(%arg0, %0) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 85 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l, m])->([i, n, o]) {i=2, j=5, k=5, l=5, m=3, n=5, o=3}, custom>} : (tensor<2x5x5xcomplex<f64>>, tensor<2x5x3xcomplex<f64>>) -> tensor<2x5x3xcomplex<f64>>
    return %1 : tensor<2x5x3xcomplex<f64>>
  }
}
