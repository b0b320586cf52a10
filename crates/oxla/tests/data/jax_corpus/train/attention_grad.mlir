module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x8xf32>, %arg1: tensor<2x5x8xf32>, %arg2: tensor<2x5x8xf32>) -> (tensor<2x5x8xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x5x8xf32>, tensor<2x5x8xf32>) -> tensor<2x5x5xf32>
    %1 = stablehlo.convert %0 : (tensor<2x5x5xf32>) -> tensor<2x5x5xf64>
    %cst = stablehlo.constant dense<2.8284271247461903> : tensor<f64>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %3 = stablehlo.divide %1, %2 : tensor<2x5x5xf64>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<5x5xi1>
    %5 = call @tril(%4) : (tensor<5x5xi1>) -> tensor<5x5xi1>
    %cst_0 = stablehlo.constant dense<-1.000000e+09> : tensor<f64>
    %6:3 = call @_where(%5, %3, %cst_0) : (tensor<5x5xi1>, tensor<2x5x5xf64>, tensor<f64>) -> (tensor<2x5x5xf64>, tensor<2x5x5xi1>, tensor<2x5x5xf64>)
    %cst_1 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %7 = stablehlo.reduce(%6#0 init: %cst_1) applies stablehlo.maximum across dimensions = [2] : (tensor<2x5x5xf64>, tensor<f64>) -> tensor<2x5xf64>
    %8 = stablehlo.reshape %7 : (tensor<2x5xf64>) -> tensor<2x5x1xf64>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1, 2] : (tensor<2x5x1xf64>) -> tensor<2x5x5xf64>
    %10 = stablehlo.compare EQ, %6#0, %9, FLOAT : (tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xi1>
    %11 = stablehlo.convert %10 : (tensor<2x5x5xi1>) -> tensor<2x5x5xf64>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %12 = stablehlo.reduce(%11 init: %cst_2) applies stablehlo.add across dimensions = [2] : (tensor<2x5x5xf64>, tensor<f64>) -> tensor<2x5xf64>
    %cst_3 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f64>) -> tensor<2x5xf64>
    %14 = stablehlo.maximum %13, %7 : tensor<2x5xf64>
    %15 = stablehlo.compare EQ, %7, %14, FLOAT : (tensor<2x5xf64>, tensor<2x5xf64>) -> tensor<2x5xi1>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %16 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f64>) -> tensor<2x5xf64>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %17 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f64>) -> tensor<2x5xf64>
    %18 = stablehlo.select %15, %16, %17 : tensor<2x5xi1>, tensor<2x5xf64>
    %cst_6 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %19 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f64>) -> tensor<2x5xf64>
    %20 = stablehlo.compare EQ, %19, %14, FLOAT : (tensor<2x5xf64>, tensor<2x5xf64>) -> tensor<2x5xi1>
    %cst_7 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %21 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f64>) -> tensor<2x5xf64>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %22 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f64>) -> tensor<2x5xf64>
    %23 = stablehlo.select %20, %21, %22 : tensor<2x5xi1>, tensor<2x5xf64>
    %24 = stablehlo.divide %18, %23 : tensor<2x5xf64>
    %25 = stablehlo.broadcast_in_dim %14, dims = [0, 1] : (tensor<2x5xf64>) -> tensor<2x5x1xf64>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1, 2] : (tensor<2x5x1xf64>) -> tensor<2x5x5xf64>
    %27 = stablehlo.subtract %6#0, %26 : tensor<2x5x5xf64>
    %28 = stablehlo.exponential %27 : tensor<2x5x5xf64>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %29 = stablehlo.reduce(%28 init: %cst_9) applies stablehlo.add across dimensions = [2] : (tensor<2x5x5xf64>, tensor<f64>) -> tensor<2x5xf64>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0, 1] : (tensor<2x5xf64>) -> tensor<2x5x1xf64>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2] : (tensor<2x5x1xf64>) -> tensor<2x5x5xf64>
    %32 = stablehlo.divide %28, %31 : tensor<2x5x5xf64>
    %33 = stablehlo.multiply %30, %30 : tensor<2x5x1xf64>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %34 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f64>) -> tensor<2x5x1xf64>
    %35 = stablehlo.divide %34, %33 : tensor<2x5x1xf64>
    %36 = stablehlo.convert %32 : tensor<2x5x5xf64>
    %37 = stablehlo.convert %arg2 : (tensor<2x5x8xf32>) -> tensor<2x5x8xf64>
    %38 = stablehlo.dot_general %36, %37, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xf64>, tensor<2x5x8xf64>) -> tensor<2x5x8xf64>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %39 = stablehlo.reduce(%38 init: %cst_11) applies stablehlo.add across dimensions = [0, 1, 2] : (tensor<2x5x8xf64>, tensor<f64>) -> tensor<f64>
    %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %40 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f64>) -> tensor<2x5x8xf64>
    %41 = stablehlo.convert %40 : tensor<2x5x8xf64>
    %42 = stablehlo.convert %arg2 : (tensor<2x5x8xf32>) -> tensor<2x5x8xf64>
    %43 = stablehlo.dot_general %41, %42, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x5x8xf64>, tensor<2x5x8xf64>) -> tensor<2x5x5xf64>
    %44 = stablehlo.broadcast_in_dim %35, dims = [0, 1, 2] : (tensor<2x5x1xf64>) -> tensor<2x5x5xf64>
    %45 = stablehlo.multiply %43, %44 : tensor<2x5x5xf64>
    %46 = stablehlo.multiply %45, %28 : tensor<2x5x5xf64>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %47 = stablehlo.reduce(%46 init: %cst_13) applies stablehlo.add across dimensions = [2] : (tensor<2x5x5xf64>, tensor<f64>) -> tensor<2x5xf64>
    %48 = stablehlo.reshape %47 : (tensor<2x5xf64>) -> tensor<2x5x1xf64>
    %49 = stablehlo.negate %48 : tensor<2x5x1xf64>
    %50 = stablehlo.broadcast_in_dim %30, dims = [0, 1, 2] : (tensor<2x5x1xf64>) -> tensor<2x5x5xf64>
    %51 = stablehlo.divide %43, %50 : tensor<2x5x5xf64>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %52 = stablehlo.reduce(%49 init: %cst_14) applies stablehlo.add across dimensions = [2] : (tensor<2x5x1xf64>, tensor<f64>) -> tensor<2x5xf64>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1] : (tensor<2x5xf64>) -> tensor<2x5x5xf64>
    %54 = stablehlo.add %51, %53 : tensor<2x5x5xf64>
    %55 = stablehlo.multiply %54, %28 : tensor<2x5x5xf64>
    %56 = call @_where_0(%6#1, %6#2, %55) : (tensor<2x5x5xi1>, tensor<2x5x5xf64>, tensor<2x5x5xf64>) -> tensor<2x5x5xf64>
    %cst_15 = stablehlo.constant dense<2.8284271247461903> : tensor<f64>
    %57 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %58 = stablehlo.divide %56, %57 : tensor<2x5x5xf64>
    %59 = stablehlo.convert %58 : (tensor<2x5x5xf64>) -> tensor<2x5x5xf32>
    %60 = stablehlo.dot_general %59, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xf32>, tensor<2x5x8xf32>) -> tensor<2x5x8xf32>
    return %60 : tensor<2x5x8xf32>
  }
  func.func private @tril(%arg0: tensor<5x5xi1>) -> tensor<5x5xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<5x5xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<5x5xi64>
    %2 = stablehlo.add %0, %1 : tensor<5x5xi64>
    %3 = stablehlo.iota dim = 1 : tensor<5x5xi64>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<5x5xi64>, tensor<5x5xi64>) -> tensor<5x5xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<5x5xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<5x5xi1>, tensor<5x5xi1>
    return %6 : tensor<5x5xi1>
  }
  func.func private @_where(%arg0: tensor<5x5xi1>, %arg1: tensor<2x5x5xf64>, %arg2: tensor<f64>) -> (tensor<2x5x5xf64>, tensor<2x5x5xi1>, tensor<2x5x5xf64>) {
    %0 = stablehlo.convert %arg2 : tensor<f64>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<5x5xi1>) -> tensor<2x5x5xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    return %3, %1, %4 : tensor<2x5x5xf64>, tensor<2x5x5xi1>, tensor<2x5x5xf64>
  }
  func.func private @_where_0(%arg0: tensor<2x5x5xi1>, %arg1: tensor<2x5x5xf64>, %arg2: tensor<2x5x5xf64>) -> tensor<2x5x5xf64> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<2x5x5xf64>
    %1 = stablehlo.select %arg0, %arg2, %0 : tensor<2x5x5xi1>, tensor<2x5x5xf64>
    return %1 : tensor<2x5x5xf64>
  }
}
