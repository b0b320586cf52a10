module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xcomplex<f32>>, %arg1: tensor<2x5x3xcomplex<f32>>) -> (tensor<2x5x3xcomplex<f32>> {jax.result_info = "result"}) {
    %0 = call @cholesky(%arg0) : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %1 = call @_solve_triangular(%0, %arg1) : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x3xcomplex<f32>>) -> tensor<2x5x3xcomplex<f32>>
    return %1 : tensor<2x5x3xcomplex<f32>>
  }
  func.func private @cholesky(%arg0: tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>> {
    %0 = stablehlo.transpose %arg0, dims = [0, 2, 1] : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %1 = stablehlo.real %0 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %2 = stablehlo.imag %0 : (tensor<2x5x5xcomplex<f32>>) -> tensor<2x5x5xf32>
    %3 = stablehlo.negate %2 : tensor<2x5x5xf32>
    %4 = stablehlo.complex %1, %3 : tensor<2x5x5xcomplex<f32>>
    %5 = stablehlo.add %arg0, %4 : tensor<2x5x5xcomplex<f32>>
    %cst = stablehlo.constant dense<(2.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %7 = stablehlo.divide %5, %6 : tensor<2x5x5xcomplex<f32>>
    %8:2 = stablehlo.custom_call @lapack_cpotrf_ffi(%7) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i]) {i=2, j=5, k=5, l=5, m=5}, custom>} : (tensor<2x5x5xcomplex<f32>>) -> (tensor<2x5x5xcomplex<f32>>, tensor<2xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %10 = stablehlo.compare EQ, %8#1, %9, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst_0 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %12 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %14 = stablehlo.select %13, %8#0, %12 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    %15 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %16 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %17 = stablehlo.add %15, %16 : tensor<5x5xi64>
    %18 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %19 = stablehlo.compare GE, %17, %18, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %20 = stablehlo.broadcast_in_dim %19, dims = [1, 2] : (tensor<5x5xi1>) -> tensor<2x5x5xi1>
    %cst_2 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %21 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<complex<f32>>) -> tensor<2x5x5xcomplex<f32>>
    %22 = stablehlo.select %20, %14, %21 : tensor<2x5x5xi1>, tensor<2x5x5xcomplex<f32>>
    return %22 : tensor<2x5x5xcomplex<f32>>
  }
  func.func private @_solve_triangular(%arg0: tensor<2x5x5xcomplex<f32>>, %arg1: tensor<2x5x3xcomplex<f32>>) -> tensor<2x5x3xcomplex<f32>> {
    %0 = stablehlo.custom_call @lapack_ctrsm_ffi(%arg0, %arg1) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l, m])->([i, n, o]) {i=2, j=5, k=5, l=5, m=3, n=5, o=3}, custom>} : (tensor<2x5x5xcomplex<f32>>, tensor<2x5x3xcomplex<f32>>) -> tensor<2x5x3xcomplex<f32>>
    return %0 : tensor<2x5x3xcomplex<f32>>
  }
}
