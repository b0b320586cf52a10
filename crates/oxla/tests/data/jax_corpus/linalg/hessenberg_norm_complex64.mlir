module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xcomplex<f32>>) -> (tensor<f32> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [0:1, 0:5, 0:5] : (tensor<2x5x5xcomplex<f32>>) -> tensor<1x5x5xcomplex<f32>>
    %1 = stablehlo.reshape %0 : (tensor<1x5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %2 = call @hessenberg(%1) : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    %3 = call @norm(%2) : (tensor<5x5xcomplex<f32>>) -> tensor<f32>
    return %3 : tensor<f32>
  }
  func.func private @hessenberg(%arg0: tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>> {
    %0:3 = stablehlo.custom_call @lapack_cgehrd_ffi(%arg0) {backend_config = "", mhlo.backend_config = {high = 5 : i32, low = 1 : i32}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m], []) {i=5, j=5, k=5, l=5, m=4}, custom>} : (tensor<5x5xcomplex<f32>>) -> (tensor<5x5xcomplex<f32>>, tensor<4xcomplex<f32>>, tensor<i32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %2 = stablehlo.compare EQ, %0#2, %1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<5x5xi1>
    %6 = stablehlo.select %5, %0#0, %4 : tensor<5x5xi1>, tensor<5x5xcomplex<f32>>
    %7 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<1xi1>
    %cst_0 = stablehlo.constant dense<(0x7FC00000,0x7FC00000)> : tensor<complex<f32>>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f32>>) -> tensor<4xcomplex<f32>>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<1xi1>) -> tensor<4xi1>
    %10 = stablehlo.select %9, %0#1, %8 : tensor<4xi1>, tensor<4xcomplex<f32>>
    %11 = call @triu(%6) : (tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>>
    return %11 : tensor<5x5xcomplex<f32>>
  }
  func.func private @triu(%arg0: tensor<5x5xcomplex<f32>>) -> tensor<5x5xcomplex<f32>> {
    %0 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %c = stablehlo.constant dense<-2> : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %2 = stablehlo.add %0, %1 : tensor<5x5xi64>
    %3 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<5x5xcomplex<f32>>
    %6 = stablehlo.select %4, %5, %arg0 : tensor<5x5xi1>, tensor<5x5xcomplex<f32>>
    return %6 : tensor<5x5xcomplex<f32>>
  }
  func.func private @norm(%arg0: tensor<5x5xcomplex<f32>>) -> tensor<f32> {
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
