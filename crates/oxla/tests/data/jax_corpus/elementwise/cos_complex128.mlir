module @jit_cos attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x9xcomplex<f64>>) -> (tensor<2x9xcomplex<f64>> {jax.result_info = "result"}) {
    %0 = stablehlo.real %arg0 : (tensor<2x9xcomplex<f64>>) -> tensor<2x9xf64>
    %1 = stablehlo.imag %arg0 : (tensor<2x9xcomplex<f64>>) -> tensor<2x9xf64>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<2x9xf64>
    %3 = stablehlo.compare EQ, %0, %2, FLOAT : (tensor<2x9xf64>, tensor<2x9xf64>) -> tensor<2x9xi1>
    %4 = stablehlo.sine %0 : tensor<2x9xf64>
    %5 = stablehlo.cosine %0 : tensor<2x9xf64>
    %6 = stablehlo.exponential_minus_one %1 : tensor<2x9xf64>
    %7 = stablehlo.negate %1 : tensor<2x9xf64>
    %8 = stablehlo.exponential_minus_one %7 : tensor<2x9xf64>
    %9 = stablehlo.subtract %6, %8 : tensor<2x9xf64>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<2x9xf64>
    %11 = stablehlo.divide %9, %10 : tensor<2x9xf64>
    %12 = stablehlo.add %6, %8 : tensor<2x9xf64>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %13 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<2x9xf64>
    %14 = stablehlo.add %12, %13 : tensor<2x9xf64>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<2x9xf64>
    %16 = stablehlo.divide %14, %15 : tensor<2x9xf64>
    %17 = stablehlo.multiply %5, %16 : tensor<2x9xf64>
    %18 = stablehlo.negate %4 : tensor<2x9xf64>
    %19 = stablehlo.multiply %18, %11 : tensor<2x9xf64>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %20 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f64>) -> tensor<2x9xf64>
    %21 = stablehlo.complex %17, %20 : tensor<2x9xcomplex<f64>>
    %22 = stablehlo.complex %17, %19 : tensor<2x9xcomplex<f64>>
    %23 = stablehlo.select %3, %21, %22 : tensor<2x9xi1>, tensor<2x9xcomplex<f64>>
    return %23 : tensor<2x9xcomplex<f64>>
  }
}
