module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10x6xf32>) -> (tensor<10x6xf32> {jax.result_info = "result"}) {
    %0 = call @argsort(%arg0) : (tensor<10x6xf32>) -> tensor<10x6xi64>
    %1 = call @take_along_axis(%arg0, %0) : (tensor<10x6xf32>, tensor<10x6xi64>) -> tensor<10x6xf32>
    return %1 : tensor<10x6xf32>
  }
  func.func private @argsort(%arg0: tensor<10x6xf32>) -> tensor<10x6xi64> {
    %0 = stablehlo.iota dim = 1 : tensor<10x6xi64>
    %1:2 = "stablehlo.sort"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i64>, %arg4: tensor<i64>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %3 = stablehlo.select %2, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %4 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %5 = stablehlo.select %4, %cst_1, %3 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %7 = stablehlo.select %6, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %8 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %9 = stablehlo.select %8, %cst_4, %7 : tensor<i1>, tensor<f32>
      %10 = stablehlo.compare LT, %5, %9, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %10 : tensor<i1>
    }) : (tensor<10x6xf32>, tensor<10x6xi64>) -> (tensor<10x6xf32>, tensor<10x6xi64>)
    return %1#1 : tensor<10x6xi64>
  }
  func.func private @take_along_axis(%arg0: tensor<10x6xf32>, %arg1: tensor<10x6xi64>) -> tensor<10x6xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<10x6xi64>) -> tensor<10x6xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<10x6xi32>
    %2 = stablehlo.compare LT, %0, %1, SIGNED : (tensor<10x6xi32>, tensor<10x6xi32>) -> tensor<10x6xi1>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<10x6xi32>
    %4 = stablehlo.add %0, %3 : tensor<10x6xi32>
    %5 = stablehlo.select %2, %4, %0 : tensor<10x6xi1>, tensor<10x6xi32>
    %6 = stablehlo.reshape %5 : (tensor<10x6xi32>) -> tensor<10x6x1xi32>
    %c_1 = stablehlo.constant dense<5> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<10x6x1xi32>
    %8 = stablehlo.compare GE, %6, %7, SIGNED : (tensor<10x6x1xi32>, tensor<10x6x1xi32>) -> tensor<10x6x1xi1>
    %9 = stablehlo.broadcast_in_dim %c_1, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<1x1x1xi32>) -> tensor<10x6x1xi32>
    %11 = stablehlo.compare LE, %6, %10, SIGNED : (tensor<10x6x1xi32>, tensor<10x6x1xi32>) -> tensor<10x6x1xi1>
    %12 = stablehlo.and %8, %11 : tensor<10x6x1xi1>
    %c_3 = stablehlo.constant dense<true> : tensor<i1>
    %13 = stablehlo.reduce(%12 init: %c_3) applies stablehlo.and across dimensions = [2] : (tensor<10x6x1xi1>, tensor<i1>) -> tensor<10x6xi1>
    %14 = "stablehlo.gather"(%arg0, %6) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<10x6xf32>, tensor<10x6x1xi32>) -> tensor<10x6xf32>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<10x6xf32>
    %16 = stablehlo.select %13, %14, %15 : tensor<10x6xi1>, tensor<10x6xf32>
    return %16 : tensor<10x6xf32>
  }
}
