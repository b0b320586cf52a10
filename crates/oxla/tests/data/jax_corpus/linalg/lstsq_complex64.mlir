module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<7x4xcomplex<f32>>, %arg1: tensor<7x2xcomplex<f32>>) -> (tensor<4x2xcomplex<f32>> {jax.result_info = "result"}) {
    %0:4 = call @_lstsq(%arg0, %arg1) : (tensor<7x4xcomplex<f32>>, tensor<7x2xcomplex<f32>>) -> (tensor<4x2xcomplex<f32>>, tensor<2xf32>, tensor<i64>, tensor<4xf32>)
    return %0#0 : tensor<4x2xcomplex<f32>>
  }
  func.func private @_lstsq(%arg0: tensor<7x4xcomplex<f32>>, %arg1: tensor<7x2xcomplex<f32>>) -> (tensor<4x2xcomplex<f32>>, tensor<2xf32>, tensor<i64>, tensor<4xf32>) {
    %0:3 = call @svd(%arg0) : (tensor<7x4xcomplex<f32>>) -> (tensor<7x4xcomplex<f32>>, tensor<4xf32>, tensor<4x4xcomplex<f32>>)
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %2 = stablehlo.compare GT, %0#1, %1, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %3 = stablehlo.slice %0#1 [0:1] : (tensor<4xf32>) -> tensor<1xf32>
    %4 = stablehlo.reshape %3 : (tensor<1xf32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<8.344650e-07> : tensor<f32>
    %5 = stablehlo.multiply %cst_0, %4 : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %7 = stablehlo.compare GE, %0#1, %6, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %8 = stablehlo.and %2, %7 : tensor<4xi1>
    %9 = stablehlo.convert %8 : (tensor<4xi1>) -> tensor<4xi32>
    %10 = stablehlo.convert %9 : (tensor<4xi32>) -> tensor<4xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %11 = stablehlo.reduce(%10 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<4xi64>, tensor<i64>) -> tensor<i64>
    %c_1 = stablehlo.constant dense<1> : tensor<i64>
    %12 = call @_where(%8, %0#1, %c_1) : (tensor<4xi1>, tensor<4xf32>, tensor<i64>) -> tensor<4xf32>
    %13 = stablehlo.convert %12 : (tensor<4xf32>) -> tensor<4xcomplex<f32>>
    %cst_2 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %14 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<complex<f32>>) -> tensor<4xcomplex<f32>>
    %15 = stablehlo.divide %14, %13 : tensor<4xcomplex<f32>>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %16 = call @_where_0(%8, %15, %c_3) : (tensor<4xi1>, tensor<4xcomplex<f32>>, tensor<i64>) -> tensor<4xcomplex<f32>>
    %17 = stablehlo.broadcast_in_dim %16, dims = [0] : (tensor<4xcomplex<f32>>) -> tensor<4x1xcomplex<f32>>
    %18 = stablehlo.real %0#0 : (tensor<7x4xcomplex<f32>>) -> tensor<7x4xf32>
    %19 = stablehlo.imag %0#0 : (tensor<7x4xcomplex<f32>>) -> tensor<7x4xf32>
    %20 = stablehlo.negate %19 : tensor<7x4xf32>
    %21 = stablehlo.complex %18, %20 : tensor<7x4xcomplex<f32>>
    %22 = stablehlo.transpose %21, dims = [1, 0] : (tensor<7x4xcomplex<f32>>) -> tensor<4x7xcomplex<f32>>
    %23 = stablehlo.dot_general %22, %arg1, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<4x7xcomplex<f32>>, tensor<7x2xcomplex<f32>>) -> tensor<4x2xcomplex<f32>>
    %24 = stablehlo.real %0#2 : (tensor<4x4xcomplex<f32>>) -> tensor<4x4xf32>
    %25 = stablehlo.imag %0#2 : (tensor<4x4xcomplex<f32>>) -> tensor<4x4xf32>
    %26 = stablehlo.negate %25 : tensor<4x4xf32>
    %27 = stablehlo.complex %24, %26 : tensor<4x4xcomplex<f32>>
    %28 = stablehlo.transpose %27, dims = [1, 0] : (tensor<4x4xcomplex<f32>>) -> tensor<4x4xcomplex<f32>>
    %29 = stablehlo.broadcast_in_dim %17, dims = [0, 1] : (tensor<4x1xcomplex<f32>>) -> tensor<4x2xcomplex<f32>>
    %30 = stablehlo.multiply %29, %23 : tensor<4x2xcomplex<f32>>
    %31 = stablehlo.dot_general %28, %30, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<4x4xcomplex<f32>>, tensor<4x2xcomplex<f32>>) -> tensor<4x2xcomplex<f32>>
    %32 = stablehlo.dot_general %arg0, %31, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<7x4xcomplex<f32>>, tensor<4x2xcomplex<f32>>) -> tensor<7x2xcomplex<f32>>
    %33 = stablehlo.subtract %arg1, %32 : tensor<7x2xcomplex<f32>>
    %34 = call @norm(%33) : (tensor<7x2xcomplex<f32>>) -> tensor<2xf32>
    %35 = stablehlo.multiply %34, %34 : tensor<2xf32>
    return %31, %35, %11, %0#1 : tensor<4x2xcomplex<f32>>, tensor<2xf32>, tensor<i64>, tensor<4xf32>
  }
  func.func private @svd(%arg0: tensor<7x4xcomplex<f32>>) -> (tensor<7x4xcomplex<f32>>, tensor<4xf32>, tensor<4x4xcomplex<f32>>) {
    %0:5 = stablehlo.custom_call @lapack_cgesdd_ffi(%arg0) {backend_config = "", mhlo.backend_config = {mode = 83 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m], [n, o], [p, q], []) {i=7, j=4, k=7, l=4, m=4, n=7, o=4, p=4, q=4}, custom>} : (tensor<7x4xcomplex<f32>>) -> (tensor<7x4xcomplex<f32>>, tensor<4xf32>, tensor<7x4xcomplex<f32>>, tensor<4x4xcomplex<f32>>, tensor<i32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %2 = stablehlo.compare EQ, %0#4, %1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<1xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<1xi1>) -> tensor<4xi1>
    %6 = stablehlo.select %5, %0#1, %4 : tensor<4xi1>, tensor<4xf32>
    %7 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_0 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f32>>) -> tensor<7x4xcomplex<f32>>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<7x4xi1>
    %10 = stablehlo.select %9, %0#2, %8 : tensor<7x4xi1>, tensor<7x4xcomplex<f32>>
    %11 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_1 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<complex<f32>>) -> tensor<4x4xcomplex<f32>>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<4x4xi1>
    %14 = stablehlo.select %13, %0#3, %12 : tensor<4x4xi1>, tensor<4x4xcomplex<f32>>
    return %10, %6, %14 : tensor<7x4xcomplex<f32>>, tensor<4xf32>, tensor<4x4xcomplex<f32>>
  }
  func.func private @_where(%arg0: tensor<4xi1>, %arg1: tensor<4xf32>, %arg2: tensor<i64>) -> tensor<4xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<i64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<4xi1>, tensor<4xf32>
    return %2 : tensor<4xf32>
  }
  func.func private @_where_0(%arg0: tensor<4xi1>, %arg1: tensor<4xcomplex<f32>>, %arg2: tensor<i64>) -> tensor<4xcomplex<f32>> {
    %0 = stablehlo.convert %arg2 : (tensor<i64>) -> tensor<complex<f32>>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<complex<f32>>) -> tensor<4xcomplex<f32>>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<4xi1>, tensor<4xcomplex<f32>>
    return %2 : tensor<4xcomplex<f32>>
  }
  func.func private @norm(%arg0: tensor<7x2xcomplex<f32>>) -> tensor<2xf32> {
    %0 = stablehlo.real %arg0 : (tensor<7x2xcomplex<f32>>) -> tensor<7x2xf32>
    %1 = stablehlo.imag %arg0 : (tensor<7x2xcomplex<f32>>) -> tensor<7x2xf32>
    %2 = stablehlo.negate %1 : tensor<7x2xf32>
    %3 = stablehlo.complex %0, %2 : tensor<7x2xcomplex<f32>>
    %4 = stablehlo.multiply %arg0, %3 : tensor<7x2xcomplex<f32>>
    %5 = stablehlo.real %4 : (tensor<7x2xcomplex<f32>>) -> tensor<7x2xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<7x2xf32>, tensor<f32>) -> tensor<2xf32>
    %7 = stablehlo.sqrt %6 : tensor<2xf32>
    return %7 : tensor<2xf32>
  }
}
