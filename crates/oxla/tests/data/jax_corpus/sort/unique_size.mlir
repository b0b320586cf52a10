module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<7xi32>) -> (tensor<6xi32> {jax.result_info = "result"}) {
    %0:3 = call @_unique_sorted_mask(%arg0) : (tensor<7xi32>) -> (tensor<7xi32>, tensor<7xi1>, tensor<7xi64>)
    %1 = call @cumsum(%0#1) : (tensor<7xi1>) -> tensor<7xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %3 = call @clip(%1, %c_0) : (tensor<7xi64>, tensor<i64>) -> tensor<7xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %4 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<7xi64>
    %5 = stablehlo.compare LT, %3, %4, SIGNED : (tensor<7xi64>, tensor<7xi64>) -> tensor<7xi1>
    %c_2 = stablehlo.constant dense<6> : tensor<i64>
    %6 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i64>) -> tensor<7xi64>
    %7 = stablehlo.add %3, %6 : tensor<7xi64>
    %8 = stablehlo.select %5, %7, %3 : tensor<7xi1>, tensor<7xi64>
    %9 = stablehlo.convert %8 : (tensor<7xi64>) -> tensor<7xi32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<7xi32>) -> tensor<7x1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<i64>
    %11 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i64>) -> tensor<7xi64>
    %12 = "stablehlo.scatter"(%2, %10, %11) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<i64>, %arg2: tensor<i64>):
      %31 = stablehlo.add %arg1, %arg2 : tensor<i64>
      stablehlo.return %31 : tensor<i64>
    }) : (tensor<6xi64>, tensor<7x1xi32>, tensor<7xi64>) -> tensor<6xi64>
    %13 = call @cumsum_1(%12) : (tensor<6xi64>) -> tensor<6xi64>
    %c_4 = stablehlo.constant dense<1> : tensor<i64>
    %14 = call @floor_divide(%13, %c_4) : (tensor<6xi64>, tensor<i64>) -> tensor<6xi64>
    %c_5 = stablehlo.constant dense<7> : tensor<i64>
    %15 = call @remainder(%14, %c_5) : (tensor<6xi64>, tensor<i64>) -> tensor<6xi64>
    %c_6 = stablehlo.constant dense<0> : tensor<i64>
    %16 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %17 = stablehlo.compare LT, %15, %16, SIGNED : (tensor<6xi64>, tensor<6xi64>) -> tensor<6xi1>
    %c_7 = stablehlo.constant dense<7> : tensor<i64>
    %18 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %19 = stablehlo.add %15, %18 : tensor<6xi64>
    %20 = stablehlo.select %17, %19, %15 : tensor<6xi1>, tensor<6xi64>
    %21 = stablehlo.convert %20 : (tensor<6xi64>) -> tensor<6xi32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %23 = "stablehlo.gather"(%0#0, %22) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<7xi32>, tensor<6x1xi32>) -> tensor<6xi32>
    %24 = stablehlo.iota dim = 0 : tensor<6xi64>
    %25 = stablehlo.convert %0#1 : (tensor<7xi1>) -> tensor<7xi32>
    %26 = stablehlo.convert %25 : (tensor<7xi32>) -> tensor<7xi64>
    %c_8 = stablehlo.constant dense<0> : tensor<i64>
    %27 = stablehlo.reduce(%26 init: %c_8) applies stablehlo.add across dimensions = [0] : (tensor<7xi64>, tensor<i64>) -> tensor<i64>
    %28 = stablehlo.broadcast_in_dim %27, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %29 = stablehlo.compare LT, %24, %28, SIGNED : (tensor<6xi64>, tensor<6xi64>) -> tensor<6xi1>
    %c_9 = stablehlo.constant dense<-1> : tensor<i32>
    %30 = call @_where_4(%29, %23, %c_9) : (tensor<6xi1>, tensor<6xi32>, tensor<i32>) -> tensor<6xi32>
    return %30 : tensor<6xi32>
  }
  func.func private @_unique_sorted_mask(%arg0: tensor<7xi32>) -> (tensor<7xi32>, tensor<7xi1>, tensor<7xi64>) {
    %0 = stablehlo.reshape %arg0 : (tensor<7xi32>) -> tensor<7x1xi32>
    %1 = stablehlo.transpose %0, dims = [1, 0] : (tensor<7x1xi32>) -> tensor<1x7xi32>
    %2 = stablehlo.reverse %1, dims = [0] : tensor<1x7xi32>
    %3 = call @lexsort(%2) : (tensor<1x7xi32>) -> tensor<7xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<7xi64>
    %5 = stablehlo.compare LT, %3, %4, SIGNED : (tensor<7xi64>, tensor<7xi64>) -> tensor<7xi1>
    %c_0 = stablehlo.constant dense<7> : tensor<i64>
    %6 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<7xi64>
    %7 = stablehlo.add %3, %6 : tensor<7xi64>
    %8 = stablehlo.select %5, %7, %3 : tensor<7xi1>, tensor<7xi64>
    %9 = stablehlo.convert %8 : (tensor<7xi64>) -> tensor<7xi32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<7xi32>) -> tensor<7x1xi32>
    %11 = "stablehlo.gather"(%arg0, %10) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<7xi32>, tensor<7x1xi32>) -> tensor<7xi32>
    %c_1 = stablehlo.constant dense<true> : tensor<i1>
    %12 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i1>) -> tensor<7xi1>
    %13 = stablehlo.slice %11 [1:7] : (tensor<7xi32>) -> tensor<6xi32>
    %14 = stablehlo.slice %11 [0:6] : (tensor<7xi32>) -> tensor<6xi32>
    %15 = stablehlo.compare NE, %13, %14, SIGNED : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %c_2 = stablehlo.constant dense<false> : tensor<i1>
    %16 = stablehlo.reduce(%15 init: %c_2) applies stablehlo.or across dimensions = [] : (tensor<6xi1>, tensor<i1>) -> tensor<6xi1>
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %17 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %18 = "stablehlo.scatter"(%12, %17, %16) <{indices_are_sorted = true, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [0], scatter_dims_to_operand_dims = [0]>, unique_indices = true}> ({
    ^bb0(%arg1: tensor<i1>, %arg2: tensor<i1>):
      stablehlo.return %arg2 : tensor<i1>
    }) : (tensor<7xi1>, tensor<1xi32>, tensor<6xi1>) -> tensor<7xi1>
    return %11, %18, %3 : tensor<7xi32>, tensor<7xi1>, tensor<7xi64>
  }
  func.func private @lexsort(%arg0: tensor<1x7xi32>) -> tensor<7xi64> {
    %0 = stablehlo.slice %arg0 [0:1, 0:7] : (tensor<1x7xi32>) -> tensor<1x7xi32>
    %1 = stablehlo.reshape %0 : (tensor<1x7xi32>) -> tensor<7xi32>
    %2 = stablehlo.iota dim = 0 : tensor<7xi64>
    %3:2 = "stablehlo.sort"(%1, %2) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>, %arg3: tensor<i64>, %arg4: tensor<i64>):
      %4 = stablehlo.compare LT, %arg1, %arg2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    }) : (tensor<7xi32>, tensor<7xi64>) -> (tensor<7xi32>, tensor<7xi64>)
    return %3#1 : tensor<7xi64>
  }
  func.func private @cumsum(%arg0: tensor<7xi1>) -> tensor<7xi64> {
    %0 = stablehlo.convert %arg0 : (tensor<7xi1>) -> tensor<7xi64>
    %1 = call @cumsum_0(%0) : (tensor<7xi64>) -> tensor<7xi64>
    return %1 : tensor<7xi64>
  }
  func.func private @cumsum_0(%arg0: tensor<7xi64>) -> tensor<7xi64> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<i64>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1>, padding = dense<[[6, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 7>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i64>, %arg2: tensor<i64>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i64>
      stablehlo.return %2 : tensor<i64>
    }) : (tensor<7xi64>, tensor<i64>) -> tensor<7xi64>
    return %1 : tensor<7xi64>
  }
  func.func private @clip(%arg0: tensor<7xi64>, %arg1: tensor<i64>) -> tensor<7xi64> {
    %0 = stablehlo.convert %arg1 : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i64>) -> tensor<7xi64>
    %2 = stablehlo.maximum %1, %arg0 : tensor<7xi64>
    return %2 : tensor<7xi64>
  }
  func.func private @cumsum_1(%arg0: tensor<6xi64>) -> tensor<6xi64> {
    %0 = call @cumsum_2(%arg0) : (tensor<6xi64>) -> tensor<6xi64>
    return %0 : tensor<6xi64>
  }
  func.func private @cumsum_2(%arg0: tensor<6xi64>) -> tensor<6xi64> {
    %c = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<i64>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1>, padding = dense<[[5, 0]]> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 6>, window_strides = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i64>, %arg2: tensor<i64>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i64>
      stablehlo.return %2 : tensor<i64>
    }) : (tensor<6xi64>, tensor<i64>) -> tensor<6xi64>
    return %1 : tensor<6xi64>
  }
  func.func private @floor_divide(%arg0: tensor<6xi64>, %arg1: tensor<i64>) -> tensor<6xi64> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %1 = stablehlo.divide %arg0, %0 : tensor<6xi64>
    %2 = stablehlo.sign %arg0 : tensor<6xi64>
    %3 = stablehlo.sign %arg1 : tensor<i64>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %5 = stablehlo.compare NE, %2, %4, SIGNED : (tensor<6xi64>, tensor<6xi64>) -> tensor<6xi1>
    %6 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %7 = stablehlo.remainder %arg0, %6 : tensor<6xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %8 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %9 = stablehlo.compare NE, %7, %8, SIGNED : (tensor<6xi64>, tensor<6xi64>) -> tensor<6xi1>
    %10 = stablehlo.and %5, %9 : tensor<6xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i64>
    %11 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %12 = stablehlo.subtract %1, %11 : tensor<6xi64>
    %13 = call @_where(%10, %12, %1) : (tensor<6xi1>, tensor<6xi64>, tensor<6xi64>) -> tensor<6xi64>
    return %13 : tensor<6xi64>
  }
  func.func private @_where(%arg0: tensor<6xi1>, %arg1: tensor<6xi64>, %arg2: tensor<6xi64>) -> tensor<6xi64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<6xi1>, tensor<6xi64>
    return %0 : tensor<6xi64>
  }
  func.func private @remainder(%arg0: tensor<6xi64>, %arg1: tensor<i64>) -> tensor<6xi64> {
    %0 = stablehlo.convert %arg1 : tensor<i64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i64>
    %2 = call @_where_3(%1, %c_0, %0) : (tensor<i1>, tensor<i64>, tensor<i64>) -> tensor<i64>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %4 = stablehlo.remainder %arg0, %3 : tensor<6xi64>
    %c_1 = stablehlo.constant dense<0> : tensor<i64>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<6xi64>, tensor<6xi64>) -> tensor<6xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i64>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<6xi64>, tensor<6xi64>) -> tensor<6xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i64>
    %9 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i64>, tensor<i64>) -> tensor<i1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<6xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<6xi1>, tensor<6xi1>) -> tensor<6xi1>
    %12 = stablehlo.and %11, %6 : tensor<6xi1>
    %13 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i64>) -> tensor<6xi64>
    %14 = stablehlo.add %4, %13 : tensor<6xi64>
    %15 = stablehlo.select %12, %14, %4 : tensor<6xi1>, tensor<6xi64>
    return %15 : tensor<6xi64>
  }
  func.func private @_where_3(%arg0: tensor<i1>, %arg1: tensor<i64>, %arg2: tensor<i64>) -> tensor<i64> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i64>
    return %0 : tensor<i64>
  }
  func.func private @_where_4(%arg0: tensor<6xi1>, %arg1: tensor<6xi32>, %arg2: tensor<i32>) -> tensor<6xi32> {
    %0 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %1 = stablehlo.select %arg0, %arg1, %0 : tensor<6xi1>, tensor<6xi32>
    return %1 : tensor<6xi32>
  }
}
