module @jit_pinv attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x7x4xcomplex<f32>>) -> (tensor<2x4x7xcomplex<f32>> {jax.result_info = "result"}) {
    %0 = call @_pinv(%arg0) : (tensor<2x7x4xcomplex<f32>>) -> tensor<2x4x7xcomplex<f32>>
    return %0 : tensor<2x4x7xcomplex<f32>>
  }
  func.func private @_pinv(%arg0: tensor<2x7x4xcomplex<f32>>) -> tensor<2x4x7xcomplex<f32>> {
    %0 = stablehlo.real %arg0 : (tensor<2x7x4xcomplex<f32>>) -> tensor<2x7x4xf32>
    %1 = stablehlo.imag %arg0 : (tensor<2x7x4xcomplex<f32>>) -> tensor<2x7x4xf32>
    %2 = stablehlo.negate %1 : tensor<2x7x4xf32>
    %3 = stablehlo.complex %0, %2 : tensor<2x7x4xcomplex<f32>>
    %cst = stablehlo.constant dense<7.000000e+01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
    %4 = stablehlo.multiply %cst, %cst_0 : tensor<f32>
    %5:3 = call @svd(%3) : (tensor<2x7x4xcomplex<f32>>) -> (tensor<2x7x4xcomplex<f32>>, tensor<2x4xf32>, tensor<2x4x4xcomplex<f32>>)
    %6 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [1] : (tensor<1xf32>) -> tensor<1x1xf32>
    %8 = stablehlo.slice %5#1 [0:2, 0:1] : (tensor<2x4xf32>) -> tensor<2x1xf32>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<2x1xf32>
    %10 = stablehlo.multiply %9, %8 : tensor<2x1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x4xf32>
    %12 = stablehlo.compare GT, %5#1, %11, FLOAT : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xi1>
    %cst_1 = stablehlo.constant dense<0x7FF0000000000000> : tensor<f64>
    %13 = call @_where(%12, %5#1, %cst_1) : (tensor<2x4xi1>, tensor<2x4xf32>, tensor<f64>) -> tensor<2x4xf32>
    %14 = stablehlo.convert %13 : (tensor<2x4xf32>) -> tensor<2x4xcomplex<f32>>
    %15 = stablehlo.transpose %5#2, dims = [0, 2, 1] : (tensor<2x4x4xcomplex<f32>>) -> tensor<2x4x4xcomplex<f32>>
    %16 = stablehlo.transpose %5#0, dims = [0, 2, 1] : (tensor<2x7x4xcomplex<f32>>) -> tensor<2x4x7xcomplex<f32>>
    %17 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<2x4xcomplex<f32>>) -> tensor<2x4x1xcomplex<f32>>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0, 1, 2] : (tensor<2x4x1xcomplex<f32>>) -> tensor<2x4x7xcomplex<f32>>
    %19 = stablehlo.divide %16, %18 : tensor<2x4x7xcomplex<f32>>
    %20 = stablehlo.dot_general %15, %19, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [HIGHEST, HIGHEST] : (tensor<2x4x4xcomplex<f32>>, tensor<2x4x7xcomplex<f32>>) -> tensor<2x4x7xcomplex<f32>>
    return %20 : tensor<2x4x7xcomplex<f32>>
  }
  func.func private @svd(%arg0: tensor<2x7x4xcomplex<f32>>) -> (tensor<2x7x4xcomplex<f32>>, tensor<2x4xf32>, tensor<2x4x4xcomplex<f32>>) {
    %0:5 = stablehlo.custom_call @lapack_cgesdd_ffi(%arg0) {backend_config = "", mhlo.backend_config = {mode = 83 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i, n], [i, o, p], [i, q, r], [i]) {i=2, j=7, k=4, l=7, m=4, n=4, o=7, p=4, q=4, r=4}, custom>} : (tensor<2x7x4xcomplex<f32>>) -> (tensor<2x7x4xcomplex<f32>>, tensor<2x4xf32>, tensor<2x7x4xcomplex<f32>>, tensor<2x4x4xcomplex<f32>>, tensor<2xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %2 = stablehlo.compare EQ, %0#4, %1, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi1>) -> tensor<2x1xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<2x1xi1>) -> tensor<2x4xi1>
    %6 = stablehlo.select %5, %0#1, %4 : tensor<2x4xi1>, tensor<2x4xf32>
    %7 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst_0 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f32>>) -> tensor<2x7x4xcomplex<f32>>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x7x4xi1>
    %10 = stablehlo.select %9, %0#2, %8 : tensor<2x7x4xi1>, tensor<2x7x4xcomplex<f32>>
    %11 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi1>) -> tensor<2x1x1xi1>
    %cst_1 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<complex<f32>>) -> tensor<2x4x4xcomplex<f32>>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0, 1, 2] : (tensor<2x1x1xi1>) -> tensor<2x4x4xi1>
    %14 = stablehlo.select %13, %0#3, %12 : tensor<2x4x4xi1>, tensor<2x4x4xcomplex<f32>>
    return %10, %6, %14 : tensor<2x7x4xcomplex<f32>>, tensor<2x4xf32>, tensor<2x4x4xcomplex<f32>>
  }
  func.func private @_where(%arg0: tensor<2x4xi1>, %arg1: tensor<2x4xf32>, %arg2: tensor<f64>) -> tensor<2x4xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<f64>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<2x4xi1>, tensor<2x4xf32>
    return %2 : tensor<2x4xf32>
  }
}
