module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xf32>) -> (tensor<2x5xf32> {jax.result_info = "result"}) {
    %0:6 = stablehlo.custom_call @lapack_sgees_ffi(%arg0) {backend_config = "", mhlo.backend_config = {mode = 78 : ui8, sort = 78 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 0]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<0> : tensor<1xindex>]} : (tensor<2x5x5xf32>) -> (tensor<2x5x5xf32>, tensor<2x5x5xf32>, tensor<2x5xf32>, tensor<2x5xf32>, tensor<2xi32>, tensor<2xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %2 = stablehlo.compare EQ, %0#5, %1, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x5x5xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x5x5xi1>
    %6 = stablehlo.select %5, %0#0, %4 : tensor<2x5x5xi1>, tensor<2x5x5xf32>
    %7 = call @diagonal(%6) : (tensor<2x5x5xf32>) -> tensor<2x5xf32>
    return %7 : tensor<2x5xf32>
  }
  func.func private @diagonal(%arg0: tensor<2x5x5xf32>) -> tensor<2x5xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<5xi64>
    %1 = stablehlo.iota dim = 0 : tensor<5xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<5xi64>
    %3 = stablehlo.compare LT, %0, %2, SIGNED : (tensor<5xi64>, tensor<5xi64>) -> tensor<5xi1>
    %c_0 = stablehlo.constant dense<5> : tensor<i64>
    %4 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<5xi64>
    %5 = stablehlo.add %0, %4 : tensor<5xi64>
    %6 = stablehlo.select %3, %5, %0 : tensor<5xi1>, tensor<5xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %7 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<5xi64>
    %8 = stablehlo.compare LT, %1, %7, SIGNED : (tensor<5xi64>, tensor<5xi64>) -> tensor<5xi1>
    %c_2 = stablehlo.constant dense<5> : tensor<i64>
    %9 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i64>) -> tensor<5xi64>
    %10 = stablehlo.add %1, %9 : tensor<5xi64>
    %11 = stablehlo.select %8, %10, %1 : tensor<5xi1>, tensor<5xi64>
    %12 = stablehlo.convert %6 : (tensor<5xi64>) -> tensor<5xi32>
    %13 = stablehlo.convert %11 : (tensor<5xi64>) -> tensor<5xi32>
    %14 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %15 = stablehlo.broadcast_in_dim %13, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %16 = stablehlo.concatenate %14, %15, dim = 1 : (tensor<5x1xi32>, tensor<5x1xi32>) -> tensor<5x2xi32>
    %17 = "stablehlo.gather"(%arg0, %16) <{dimension_numbers = #stablehlo.gather<offset_dims = [0], collapsed_slice_dims = [1, 2], start_index_map = [1, 2], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 2, 1, 1>}> : (tensor<2x5x5xf32>, tensor<5x2xi32>) -> tensor<2x5xf32>
    return %17 : tensor<2x5xf32>
  }
}
