module @jit_sin attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x9xcomplex<f32>>) -> (tensor<2x9xcomplex<f32>> {jax.result_info = "result"}) {
    %0 = stablehlo.real %arg0 : (tensor<2x9xcomplex<f32>>) -> tensor<2x9xf32>
    %1 = stablehlo.imag %arg0 : (tensor<2x9xcomplex<f32>>) -> tensor<2x9xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x9xf32>
    %3 = stablehlo.compare EQ, %0, %2, FLOAT : (tensor<2x9xf32>, tensor<2x9xf32>) -> tensor<2x9xi1>
    %4 = stablehlo.sine %0 : tensor<2x9xf32>
    %5 = stablehlo.cosine %0 : tensor<2x9xf32>
    %6 = stablehlo.exponential_minus_one %1 : tensor<2x9xf32>
    %7 = stablehlo.negate %1 : tensor<2x9xf32>
    %8 = stablehlo.exponential_minus_one %7 : tensor<2x9xf32>
    %9 = stablehlo.subtract %6, %8 : tensor<2x9xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x9xf32>
    %11 = stablehlo.divide %9, %10 : tensor<2x9xf32>
    %12 = stablehlo.add %6, %8 : tensor<2x9xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<2x9xf32>
    %14 = stablehlo.add %12, %13 : tensor<2x9xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x9xf32>
    %16 = stablehlo.divide %14, %15 : tensor<2x9xf32>
    %17 = stablehlo.multiply %4, %16 : tensor<2x9xf32>
    %18 = stablehlo.multiply %5, %11 : tensor<2x9xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<2x9xf32>
    %20 = stablehlo.complex %19, %18 : tensor<2x9xcomplex<f32>>
    %21 = stablehlo.complex %17, %18 : tensor<2x9xcomplex<f32>>
    %22 = stablehlo.select %3, %20, %21 : tensor<2x9xi1>, tensor<2x9xcomplex<f32>>
    return %22 : tensor<2x9xcomplex<f32>>
  }
}
