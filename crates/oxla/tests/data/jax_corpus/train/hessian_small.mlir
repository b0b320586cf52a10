module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf64>) -> (tensor<4x4xf64> {jax.result_info = "result"}) {
    %0 = stablehlo.iota dim = 0 : tensor<4x4xi64>
    %1 = stablehlo.iota dim = 1 : tensor<4x4xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<4x4xi64>
    %3 = stablehlo.add %0, %2 : tensor<4x4xi64>
    %4 = stablehlo.compare EQ, %3, %1, SIGNED : (tensor<4x4xi64>, tensor<4x4xi64>) -> tensor<4x4xi1>
    %5 = stablehlo.convert %4 : (tensor<4x4xi1>) -> tensor<4x4xf64>
    %6 = stablehlo.slice %5 [0:4, 0:4] : (tensor<4x4xf64>) -> tensor<4x4xf64>
    %7 = stablehlo.convert %6 : tensor<4x4xf64>
    %8 = stablehlo.sine %arg0 : tensor<4xf64>
    %9 = stablehlo.cosine %arg0 : tensor<4xf64>
    %10 = stablehlo.broadcast_in_dim %9, dims = [1] : (tensor<4xf64>) -> tensor<1x4xf64>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<1x4xf64>) -> tensor<4x4xf64>
    %12 = stablehlo.multiply %7, %11 : tensor<4x4xf64>
    %13 = stablehlo.cosine %arg0 : tensor<4xf64>
    %14 = stablehlo.sine %arg0 : tensor<4xf64>
    %15 = stablehlo.broadcast_in_dim %14, dims = [1] : (tensor<4xf64>) -> tensor<1x4xf64>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<1x4xf64>) -> tensor<4x4xf64>
    %17 = stablehlo.multiply %7, %16 : tensor<4x4xf64>
    %18 = stablehlo.negate %17 : tensor<4x4xf64>
    %19 = stablehlo.multiply %arg0, %arg0 : tensor<4xf64>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %20 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<4xf64>
    %21 = stablehlo.multiply %20, %arg0 : tensor<4xf64>
    %22 = stablehlo.broadcast_in_dim %21, dims = [1] : (tensor<4xf64>) -> tensor<1x4xf64>
    %23 = stablehlo.broadcast_in_dim %22, dims = [0, 1] : (tensor<1x4xf64>) -> tensor<4x4xf64>
    %24 = stablehlo.multiply %7, %23 : tensor<4x4xf64>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %25 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<4xf64>
    %26 = stablehlo.multiply %25, %arg0 : tensor<4xf64>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %27 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<4x4xf64>
    %28 = stablehlo.multiply %27, %7 : tensor<4x4xf64>
    %29 = stablehlo.multiply %8, %19 : tensor<4xf64>
    %30 = stablehlo.broadcast_in_dim %19, dims = [1] : (tensor<4xf64>) -> tensor<1x4xf64>
    %31 = stablehlo.broadcast_in_dim %30, dims = [0, 1] : (tensor<1x4xf64>) -> tensor<4x4xf64>
    %32 = stablehlo.multiply %12, %31 : tensor<4x4xf64>
    %33 = stablehlo.broadcast_in_dim %8, dims = [1] : (tensor<4xf64>) -> tensor<1x4xf64>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1] : (tensor<1x4xf64>) -> tensor<4x4xf64>
    %35 = stablehlo.multiply %34, %24 : tensor<4x4xf64>
    %36 = stablehlo.add %32, %35 : tensor<4x4xf64>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %37 = stablehlo.reduce(%29 init: %cst_2) applies stablehlo.add across dimensions = [0] : (tensor<4xf64>, tensor<f64>) -> tensor<f64>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %38 = stablehlo.reduce(%36 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<4x4xf64>, tensor<f64>) -> tensor<4xf64>
    %39 = stablehlo.iota dim = 0 : tensor<1x1xi64>
    %40 = stablehlo.iota dim = 1 : tensor<1x1xi64>
    %c_4 = stablehlo.constant dense<0> : tensor<i64>
    %41 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i64>) -> tensor<1x1xi64>
    %42 = stablehlo.add %39, %41 : tensor<1x1xi64>
    %43 = stablehlo.compare EQ, %42, %40, SIGNED : (tensor<1x1xi64>, tensor<1x1xi64>) -> tensor<1x1xi1>
    %44 = stablehlo.convert %43 : (tensor<1x1xi1>) -> tensor<1x1xf64>
    %45 = stablehlo.slice %44 [0:1, 0:1] : (tensor<1x1xf64>) -> tensor<1x1xf64>
    %46 = stablehlo.reshape %45 : (tensor<1x1xf64>) -> tensor<1xf64>
    %47 = stablehlo.convert %46 : tensor<1xf64>
    %48 = stablehlo.broadcast_in_dim %47, dims = [0] : (tensor<1xf64>) -> tensor<1x4xf64>
    %49 = stablehlo.broadcast_in_dim %8, dims = [1] : (tensor<4xf64>) -> tensor<1x4xf64>
    %50 = stablehlo.broadcast_in_dim %12, dims = [0, 2] : (tensor<4x4xf64>) -> tensor<4x1x4xf64>
    %51 = stablehlo.multiply %49, %48 : tensor<1x4xf64>
    %52 = stablehlo.broadcast_in_dim %48, dims = [1, 2] : (tensor<1x4xf64>) -> tensor<1x1x4xf64>
    %53 = stablehlo.broadcast_in_dim %52, dims = [0, 1, 2] : (tensor<1x1x4xf64>) -> tensor<4x1x4xf64>
    %54 = stablehlo.multiply %50, %53 : tensor<4x1x4xf64>
    %55 = stablehlo.broadcast_in_dim %19, dims = [1] : (tensor<4xf64>) -> tensor<1x4xf64>
    %56 = stablehlo.broadcast_in_dim %24, dims = [0, 2] : (tensor<4x4xf64>) -> tensor<4x1x4xf64>
    %57 = stablehlo.multiply %48, %55 : tensor<1x4xf64>
    %58 = stablehlo.broadcast_in_dim %48, dims = [1, 2] : (tensor<1x4xf64>) -> tensor<1x1x4xf64>
    %59 = stablehlo.broadcast_in_dim %58, dims = [0, 1, 2] : (tensor<1x1x4xf64>) -> tensor<4x1x4xf64>
    %60 = stablehlo.multiply %59, %56 : tensor<4x1x4xf64>
    %61 = stablehlo.broadcast_in_dim %26, dims = [1] : (tensor<4xf64>) -> tensor<1x4xf64>
    %62 = stablehlo.broadcast_in_dim %28, dims = [0, 2] : (tensor<4x4xf64>) -> tensor<4x1x4xf64>
    %63 = stablehlo.multiply %51, %61 : tensor<1x4xf64>
    %64 = stablehlo.broadcast_in_dim %61, dims = [1, 2] : (tensor<1x4xf64>) -> tensor<1x1x4xf64>
    %65 = stablehlo.broadcast_in_dim %64, dims = [0, 1, 2] : (tensor<1x1x4xf64>) -> tensor<4x1x4xf64>
    %66 = stablehlo.multiply %54, %65 : tensor<4x1x4xf64>
    %67 = stablehlo.broadcast_in_dim %51, dims = [1, 2] : (tensor<1x4xf64>) -> tensor<1x1x4xf64>
    %68 = stablehlo.broadcast_in_dim %67, dims = [0, 1, 2] : (tensor<1x1x4xf64>) -> tensor<4x1x4xf64>
    %69 = stablehlo.multiply %68, %62 : tensor<4x1x4xf64>
    %70 = stablehlo.add %66, %69 : tensor<4x1x4xf64>
    %71 = stablehlo.broadcast_in_dim %13, dims = [1] : (tensor<4xf64>) -> tensor<1x4xf64>
    %72 = stablehlo.broadcast_in_dim %18, dims = [0, 2] : (tensor<4x4xf64>) -> tensor<4x1x4xf64>
    %73 = stablehlo.multiply %57, %71 : tensor<1x4xf64>
    %74 = stablehlo.broadcast_in_dim %71, dims = [1, 2] : (tensor<1x4xf64>) -> tensor<1x1x4xf64>
    %75 = stablehlo.broadcast_in_dim %74, dims = [0, 1, 2] : (tensor<1x1x4xf64>) -> tensor<4x1x4xf64>
    %76 = stablehlo.multiply %60, %75 : tensor<4x1x4xf64>
    %77 = stablehlo.broadcast_in_dim %57, dims = [1, 2] : (tensor<1x4xf64>) -> tensor<1x1x4xf64>
    %78 = stablehlo.broadcast_in_dim %77, dims = [0, 1, 2] : (tensor<1x1x4xf64>) -> tensor<4x1x4xf64>
    %79 = stablehlo.multiply %78, %72 : tensor<4x1x4xf64>
    %80 = stablehlo.add %76, %79 : tensor<4x1x4xf64>
    %81 = stablehlo.add %63, %73 : tensor<1x4xf64>
    %82 = stablehlo.add %70, %80 : tensor<4x1x4xf64>
    %83 = stablehlo.slice %81 [0:1, 0:4] : (tensor<1x4xf64>) -> tensor<1x4xf64>
    %84 = stablehlo.slice %82 [0:4, 0:1, 0:4] : (tensor<4x1x4xf64>) -> tensor<4x1x4xf64>
    %85 = stablehlo.reshape %83 : (tensor<1x4xf64>) -> tensor<4xf64>
    %86 = stablehlo.reshape %84 : (tensor<4x1x4xf64>) -> tensor<4x4xf64>
    %87 = stablehlo.transpose %86, dims = [1, 0] : (tensor<4x4xf64>) -> tensor<4x4xf64>
    %88 = stablehlo.slice %87 [0:4, 0:4] : (tensor<4x4xf64>) -> tensor<4x4xf64>
    return %88 : tensor<4x4xf64>
  }
}
