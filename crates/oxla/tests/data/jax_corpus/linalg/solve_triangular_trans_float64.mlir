module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xf64>, %arg1: tensor<2x5x3xf64>) -> (tensor<2x5x3xf64> {jax.result_info = "result"}) {
    %0 = call @triu(%arg0) : (tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %1 = call @_solve_triangular(%0, %arg1) : (tensor<2x5x5xf64>, tensor<2x5x3xf64>) -> tensor<2x5x3xf64>
    return %1 : tensor<2x5x3xf64>
  }
  func.func private @triu(%arg0: tensor<2x5x5xf64>) -> tensor<2x5x5xf64> {
    %0 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %c = stablehlo.constant dense<-1> : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %2 = stablehlo.add %0, %1 : tensor<5x5xi64>
    %3 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %5 = stablehlo.broadcast_in_dim %4, dims = [1, 2] : (tensor<5x5xi1>) -> tensor<2x5x5xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %7 = stablehlo.select %5, %6, %arg0 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    return %7 : tensor<2x5x5xf64>
  }
  func.func private @_solve_triangular(%arg0: tensor<2x5x5xf64>, %arg1: tensor<2x5x3xf64>) -> tensor<2x5x3xf64> {
    %0 = stablehlo.custom_call @lapack_dtrsm_ffi(%arg0, %arg1) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 84 : ui8, uplo = 85 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l, m])->([i, n, o]) {i=2, j=5, k=5, l=5, m=3, n=5, o=3}, custom>} : (tensor<2x5x5xf64>, tensor<2x5x3xf64>) -> tensor<2x5x3xf64>
    return %0 : tensor<2x5x3xf64>
  }
}
