module @jit_stacked_loss attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x16xf32>, %arg1: tensor<16x16xf32>, %arg2: tensor<16x16xf32>, %arg3: tensor<16x16xf32>, %arg4: tensor<16x32xf32>, %arg5: tensor<32x16xf32>, %arg6: tensor<16x16xf32>, %arg7: tensor<16x16xf32>, %arg8: tensor<16x16xf32>, %arg9: tensor<16x16xf32>, %arg10: tensor<16x32xf32>, %arg11: tensor<32x16xf32>, %arg12: tensor<16x16xf32>, %arg13: tensor<16x16xf32>, %arg14: tensor<16x16xf32>, %arg15: tensor<16x16xf32>, %arg16: tensor<16x32xf32>, %arg17: tensor<32x16xf32>, %arg18: tensor<16x16xf32>, %arg19: tensor<16x16xf32>, %arg20: tensor<16x16xf32>, %arg21: tensor<16x16xf32>, %arg22: tensor<16x32xf32>, %arg23: tensor<32x16xf32>, %arg24: tensor<16x16xf32>, %arg25: tensor<16x16xf32>, %arg26: tensor<16x16xf32>, %arg27: tensor<16x16xf32>, %arg28: tensor<16x32xf32>, %arg29: tensor<32x16xf32>, %arg30: tensor<16x16xf32>, %arg31: tensor<16x16xf32>, %arg32: tensor<16x16xf32>, %arg33: tensor<16x16xf32>, %arg34: tensor<16x32xf32>, %arg35: tensor<32x16xf32>, %arg36: tensor<8x16xf32>) -> (tensor<f64> {jax.result_info = "result[0]"}, tensor<16x16xf32> {jax.result_info = "result[1][0][0]"}, tensor<16x16xf32> {jax.result_info = "result[1][0][1]"}, tensor<16x16xf32> {jax.result_info = "result[1][0][2]"}, tensor<16x16xf32> {jax.result_info = "result[1][0][3]"}, tensor<16x32xf32> {jax.result_info = "result[1][0][4]"}, tensor<32x16xf32> {jax.result_info = "result[1][0][5]"}, tensor<16x16xf32> {jax.result_info = "result[1][1][0]"}, tensor<16x16xf32> {jax.result_info = "result[1][1][1]"}, tensor<16x16xf32> {jax.result_info = "result[1][1][2]"}, tensor<16x16xf32> {jax.result_info = "result[1][1][3]"}, tensor<16x32xf32> {jax.result_info = "result[1][1][4]"}, tensor<32x16xf32> {jax.result_info = "result[1][1][5]"}, tensor<16x16xf32> {jax.result_info = "result[1][2][0]"}, tensor<16x16xf32> {jax.result_info = "result[1][2][1]"}, tensor<16x16xf32> {jax.result_info = "result[1][2][2]"}, tensor<16x16xf32> {jax.result_info = "result[1][2][3]"}, tensor<16x32xf32> {jax.result_info = "result[1][2][4]"}, tensor<32x16xf32> {jax.result_info = "result[1][2][5]"}, tensor<16x16xf32> {jax.result_info = "result[1][3][0]"}, tensor<16x16xf32> {jax.result_info = "result[1][3][1]"}, tensor<16x16xf32> {jax.result_info = "result[1][3][2]"}, tensor<16x16xf32> {jax.result_info = "result[1][3][3]"}, tensor<16x32xf32> {jax.result_info = "result[1][3][4]"}, tensor<32x16xf32> {jax.result_info = "result[1][3][5]"}, tensor<16x16xf32> {jax.result_info = "result[1][4][0]"}, tensor<16x16xf32> {jax.result_info = "result[1][4][1]"}, tensor<16x16xf32> {jax.result_info = "result[1][4][2]"}, tensor<16x16xf32> {jax.result_info = "result[1][4][3]"}, tensor<16x32xf32> {jax.result_info = "result[1][4][4]"}, tensor<32x16xf32> {jax.result_info = "result[1][4][5]"}, tensor<16x16xf32> {jax.result_info = "result[1][5][0]"}, tensor<16x16xf32> {jax.result_info = "result[1][5][1]"}, tensor<16x16xf32> {jax.result_info = "result[1][5][2]"}, tensor<16x16xf32> {jax.result_info = "result[1][5][3]"}, tensor<16x32xf32> {jax.result_info = "result[1][5][4]"}, tensor<32x16xf32> {jax.result_info = "result[1][5][5]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg36 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_0 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %5 = stablehlo.subtract %arg36, %4 : tensor<8x16xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<8x16xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %cst_2 = stablehlo.constant dense<1.600000e+01> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<8x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %12 = stablehlo.subtract %arg36, %11 : tensor<8x16xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<8x1xf32>
    %15 = stablehlo.rsqrt %14 : tensor<8x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x16xf32>
    %17 = stablehlo.multiply %12, %16 : tensor<8x16xf32>
    %18 = stablehlo.dot_general %17, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %19 = stablehlo.reshape %18 : (tensor<8x16xf32>) -> tensor<8x2x8xf32>
    %20 = stablehlo.transpose %19, dims = [1, 0, 2] : (tensor<8x2x8xf32>) -> tensor<2x8x8xf32>
    %21 = stablehlo.dot_general %17, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %22 = stablehlo.reshape %21 : (tensor<8x16xf32>) -> tensor<8x2x8xf32>
    %23 = stablehlo.transpose %22, dims = [1, 0, 2] : (tensor<8x2x8xf32>) -> tensor<2x8x8xf32>
    %24 = stablehlo.dot_general %17, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<16x16xf32>) -> tensor<8x16xf32>
    %25 = stablehlo.reshape %24 : (tensor<8x16xf32>) -> tensor<8x2x8xf32>
    %26 = stablehlo.transpose %25, dims = [1, 0, 2] : (tensor<8x2x8xf32>) -> tensor<2x8x8xf32>
    %27 = stablehlo.transpose %23, dims = [0, 2, 1] : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %28 = stablehlo.dot_general %20, %27, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %29 = stablehlo.convert %28 : (tensor<2x8x8xf32>) -> tensor<2x8x8xf64>
    %cst_4 = stablehlo.constant dense<2.8284271247461903> : tensor<f64>
    %30 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f64>) -> tensor<2x8x8xf64>
    %31 = stablehlo.divide %29, %30 : tensor<2x8x8xf64>
    %cst_5 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %32 = stablehlo.reduce(%31 init: %cst_5) applies stablehlo.maximum across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %33 = stablehlo.reshape %32 : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %34 = stablehlo.broadcast_in_dim %33, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %35 = stablehlo.compare EQ, %31, %34, FLOAT : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xi1>
    %36 = stablehlo.convert %35 : (tensor<2x8x8xi1>) -> tensor<2x8x8xf64>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %37 = stablehlo.reduce(%36 init: %cst_6) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %cst_7 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %38 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %39 = stablehlo.maximum %38, %32 : tensor<2x8xf64>
    %40 = stablehlo.compare EQ, %32, %39, FLOAT : (tensor<2x8xf64>, tensor<2x8xf64>) -> tensor<2x8xi1>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %41 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %42 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %43 = stablehlo.select %40, %41, %42 : tensor<2x8xi1>, tensor<2x8xf64>
    %cst_10 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %44 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %45 = stablehlo.compare EQ, %44, %39, FLOAT : (tensor<2x8xf64>, tensor<2x8xf64>) -> tensor<2x8xi1>
    %cst_11 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %46 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %cst_12 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %47 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %48 = stablehlo.select %45, %46, %47 : tensor<2x8xi1>, tensor<2x8xf64>
    %49 = stablehlo.divide %43, %48 : tensor<2x8xf64>
    %50 = stablehlo.broadcast_in_dim %39, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %51 = stablehlo.broadcast_in_dim %50, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %52 = stablehlo.subtract %31, %51 : tensor<2x8x8xf64>
    %53 = stablehlo.exponential %52 : tensor<2x8x8xf64>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %54 = stablehlo.reduce(%53 init: %cst_13) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %56 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %57 = stablehlo.divide %53, %56 : tensor<2x8x8xf64>
    %58 = stablehlo.multiply %55, %55 : tensor<2x8x1xf64>
    %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %59 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f64>) -> tensor<2x8x1xf64>
    %60 = stablehlo.divide %59, %58 : tensor<2x8x1xf64>
    %61 = stablehlo.convert %57 : tensor<2x8x8xf64>
    %62 = stablehlo.convert %26 : (tensor<2x8x8xf32>) -> tensor<2x8x8xf64>
    %63 = stablehlo.dot_general %61, %62, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %64 = stablehlo.transpose %63, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %65 = stablehlo.reshape %64 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %66 = stablehlo.convert %65 : tensor<8x16xf64>
    %67 = stablehlo.convert %arg3 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %68 = stablehlo.dot_general %66, %67, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %69 = stablehlo.convert %arg36 : (tensor<8x16xf32>) -> tensor<8x16xf64>
    %70 = stablehlo.add %69, %68 : tensor<8x16xf64>
    %71 = stablehlo.convert %70 : tensor<8x16xf64>
    %72 = stablehlo.convert %arg4 : (tensor<16x32xf32>) -> tensor<16x32xf64>
    %73 = stablehlo.dot_general %71, %72, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x32xf64>) -> tensor<8x32xf64>
    %74 = stablehlo.multiply %73, %73 : tensor<8x32xf64>
    %75 = stablehlo.multiply %74, %73 : tensor<8x32xf64>
    %76 = stablehlo.multiply %73, %73 : tensor<8x32xf64>
    %cst_15 = stablehlo.constant dense<3.000000e+00> : tensor<f64>
    %77 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %78 = stablehlo.multiply %77, %76 : tensor<8x32xf64>
    %cst_16 = stablehlo.constant dense<4.471500e-02> : tensor<f64>
    %79 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %80 = stablehlo.multiply %79, %75 : tensor<8x32xf64>
    %81 = stablehlo.add %73, %80 : tensor<8x32xf64>
    %cst_17 = stablehlo.constant dense<0.79788456080286541> : tensor<f64>
    %82 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %83 = stablehlo.multiply %82, %81 : tensor<8x32xf64>
    %84 = stablehlo.tanh %83 : tensor<8x32xf64>
    %cst_18 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %85 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %86 = stablehlo.subtract %85, %84 : tensor<8x32xf64>
    %cst_19 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %87 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %88 = stablehlo.add %87, %84 : tensor<8x32xf64>
    %cst_20 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %89 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %90 = stablehlo.multiply %89, %88 : tensor<8x32xf64>
    %91 = stablehlo.multiply %73, %90 : tensor<8x32xf64>
    %92 = stablehlo.convert %91 : tensor<8x32xf64>
    %93 = stablehlo.convert %arg5 : (tensor<32x16xf32>) -> tensor<32x16xf64>
    %94 = stablehlo.dot_general %92, %93, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<32x16xf64>) -> tensor<8x16xf64>
    %95 = stablehlo.add %70, %94 : tensor<8x16xf64>
    %cst_21 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %96 = stablehlo.reduce(%95 init: %cst_21) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %97 = stablehlo.broadcast_in_dim %96, dims = [0] : (tensor<8xf64>) -> tensor<8x1xf64>
    %cst_22 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %98 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %99 = stablehlo.divide %97, %98 : tensor<8x1xf64>
    %100 = stablehlo.broadcast_in_dim %99, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %101 = stablehlo.subtract %95, %100 : tensor<8x16xf64>
    %102 = stablehlo.multiply %101, %101 : tensor<8x16xf64>
    %cst_23 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %103 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f64>) -> tensor<8x16xf64>
    %104 = stablehlo.multiply %103, %101 : tensor<8x16xf64>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %105 = stablehlo.reduce(%102 init: %cst_24) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %106 = stablehlo.broadcast_in_dim %105, dims = [0] : (tensor<8xf64>) -> tensor<8x1xf64>
    %cst_25 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %107 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %108 = stablehlo.divide %106, %107 : tensor<8x1xf64>
    %109 = stablehlo.broadcast_in_dim %99, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %110 = stablehlo.subtract %95, %109 : tensor<8x16xf64>
    %cst_26 = stablehlo.constant dense<1.000000e-05> : tensor<f64>
    %111 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %112 = stablehlo.add %108, %111 : tensor<8x1xf64>
    %113 = stablehlo.rsqrt %112 : tensor<8x1xf64>
    %114 = stablehlo.divide %113, %112 : tensor<8x1xf64>
    %cst_27 = stablehlo.constant dense<-5.000000e-01> : tensor<f64>
    %115 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %116 = stablehlo.multiply %115, %114 : tensor<8x1xf64>
    %117 = stablehlo.broadcast_in_dim %113, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %118 = stablehlo.multiply %110, %117 : tensor<8x16xf64>
    %119 = stablehlo.convert %118 : tensor<8x16xf64>
    %120 = stablehlo.convert %arg6 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %121 = stablehlo.dot_general %119, %120, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %122 = stablehlo.reshape %121 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %123 = stablehlo.transpose %122, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %124 = stablehlo.convert %118 : tensor<8x16xf64>
    %125 = stablehlo.convert %arg7 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %126 = stablehlo.dot_general %124, %125, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %127 = stablehlo.reshape %126 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %128 = stablehlo.transpose %127, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %129 = stablehlo.convert %118 : tensor<8x16xf64>
    %130 = stablehlo.convert %arg8 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %131 = stablehlo.dot_general %129, %130, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %132 = stablehlo.reshape %131 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %133 = stablehlo.transpose %132, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %134 = stablehlo.transpose %128, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %135 = stablehlo.dot_general %123, %134, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %cst_28 = stablehlo.constant dense<2.8284271247461903> : tensor<f64>
    %136 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f64>) -> tensor<2x8x8xf64>
    %137 = stablehlo.divide %135, %136 : tensor<2x8x8xf64>
    %cst_29 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %138 = stablehlo.reduce(%137 init: %cst_29) applies stablehlo.maximum across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %139 = stablehlo.reshape %138 : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %140 = stablehlo.broadcast_in_dim %139, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %141 = stablehlo.compare EQ, %137, %140, FLOAT : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xi1>
    %142 = stablehlo.convert %141 : (tensor<2x8x8xi1>) -> tensor<2x8x8xf64>
    %cst_30 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %143 = stablehlo.reduce(%142 init: %cst_30) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %cst_31 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %144 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %145 = stablehlo.maximum %144, %138 : tensor<2x8xf64>
    %146 = stablehlo.compare EQ, %138, %145, FLOAT : (tensor<2x8xf64>, tensor<2x8xf64>) -> tensor<2x8xi1>
    %cst_32 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %147 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %cst_33 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %148 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %149 = stablehlo.select %146, %147, %148 : tensor<2x8xi1>, tensor<2x8xf64>
    %cst_34 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %150 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %151 = stablehlo.compare EQ, %150, %145, FLOAT : (tensor<2x8xf64>, tensor<2x8xf64>) -> tensor<2x8xi1>
    %cst_35 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %152 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %cst_36 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %153 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %154 = stablehlo.select %151, %152, %153 : tensor<2x8xi1>, tensor<2x8xf64>
    %155 = stablehlo.divide %149, %154 : tensor<2x8xf64>
    %156 = stablehlo.broadcast_in_dim %145, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %157 = stablehlo.broadcast_in_dim %156, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %158 = stablehlo.subtract %137, %157 : tensor<2x8x8xf64>
    %159 = stablehlo.exponential %158 : tensor<2x8x8xf64>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %160 = stablehlo.reduce(%159 init: %cst_37) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %161 = stablehlo.broadcast_in_dim %160, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %162 = stablehlo.broadcast_in_dim %161, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %163 = stablehlo.divide %159, %162 : tensor<2x8x8xf64>
    %164 = stablehlo.multiply %161, %161 : tensor<2x8x1xf64>
    %cst_38 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %165 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f64>) -> tensor<2x8x1xf64>
    %166 = stablehlo.divide %165, %164 : tensor<2x8x1xf64>
    %167 = stablehlo.dot_general %163, %133, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %168 = stablehlo.transpose %167, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %169 = stablehlo.reshape %168 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %170 = stablehlo.convert %169 : tensor<8x16xf64>
    %171 = stablehlo.convert %arg9 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %172 = stablehlo.dot_general %170, %171, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %173 = stablehlo.add %95, %172 : tensor<8x16xf64>
    %174 = stablehlo.convert %173 : tensor<8x16xf64>
    %175 = stablehlo.convert %arg10 : (tensor<16x32xf32>) -> tensor<16x32xf64>
    %176 = stablehlo.dot_general %174, %175, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x32xf64>) -> tensor<8x32xf64>
    %177 = stablehlo.multiply %176, %176 : tensor<8x32xf64>
    %178 = stablehlo.multiply %177, %176 : tensor<8x32xf64>
    %179 = stablehlo.multiply %176, %176 : tensor<8x32xf64>
    %cst_39 = stablehlo.constant dense<3.000000e+00> : tensor<f64>
    %180 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %181 = stablehlo.multiply %180, %179 : tensor<8x32xf64>
    %cst_40 = stablehlo.constant dense<4.471500e-02> : tensor<f64>
    %182 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %183 = stablehlo.multiply %182, %178 : tensor<8x32xf64>
    %184 = stablehlo.add %176, %183 : tensor<8x32xf64>
    %cst_41 = stablehlo.constant dense<0.79788456080286541> : tensor<f64>
    %185 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %186 = stablehlo.multiply %185, %184 : tensor<8x32xf64>
    %187 = stablehlo.tanh %186 : tensor<8x32xf64>
    %cst_42 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %188 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %189 = stablehlo.subtract %188, %187 : tensor<8x32xf64>
    %cst_43 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %190 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %191 = stablehlo.add %190, %187 : tensor<8x32xf64>
    %cst_44 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %192 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %193 = stablehlo.multiply %192, %191 : tensor<8x32xf64>
    %194 = stablehlo.multiply %176, %193 : tensor<8x32xf64>
    %195 = stablehlo.convert %194 : tensor<8x32xf64>
    %196 = stablehlo.convert %arg11 : (tensor<32x16xf32>) -> tensor<32x16xf64>
    %197 = stablehlo.dot_general %195, %196, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<32x16xf64>) -> tensor<8x16xf64>
    %198 = stablehlo.add %173, %197 : tensor<8x16xf64>
    %cst_45 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %199 = stablehlo.reduce(%198 init: %cst_45) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %200 = stablehlo.broadcast_in_dim %199, dims = [0] : (tensor<8xf64>) -> tensor<8x1xf64>
    %cst_46 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %201 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %202 = stablehlo.divide %200, %201 : tensor<8x1xf64>
    %203 = stablehlo.broadcast_in_dim %202, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %204 = stablehlo.subtract %198, %203 : tensor<8x16xf64>
    %205 = stablehlo.multiply %204, %204 : tensor<8x16xf64>
    %cst_47 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %206 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f64>) -> tensor<8x16xf64>
    %207 = stablehlo.multiply %206, %204 : tensor<8x16xf64>
    %cst_48 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %208 = stablehlo.reduce(%205 init: %cst_48) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %209 = stablehlo.broadcast_in_dim %208, dims = [0] : (tensor<8xf64>) -> tensor<8x1xf64>
    %cst_49 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %210 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %211 = stablehlo.divide %209, %210 : tensor<8x1xf64>
    %212 = stablehlo.broadcast_in_dim %202, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %213 = stablehlo.subtract %198, %212 : tensor<8x16xf64>
    %cst_50 = stablehlo.constant dense<1.000000e-05> : tensor<f64>
    %214 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %215 = stablehlo.add %211, %214 : tensor<8x1xf64>
    %216 = stablehlo.rsqrt %215 : tensor<8x1xf64>
    %217 = stablehlo.divide %216, %215 : tensor<8x1xf64>
    %cst_51 = stablehlo.constant dense<-5.000000e-01> : tensor<f64>
    %218 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %219 = stablehlo.multiply %218, %217 : tensor<8x1xf64>
    %220 = stablehlo.broadcast_in_dim %216, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %221 = stablehlo.multiply %213, %220 : tensor<8x16xf64>
    %222 = stablehlo.convert %221 : tensor<8x16xf64>
    %223 = stablehlo.convert %arg12 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %224 = stablehlo.dot_general %222, %223, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %225 = stablehlo.reshape %224 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %226 = stablehlo.transpose %225, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %227 = stablehlo.convert %221 : tensor<8x16xf64>
    %228 = stablehlo.convert %arg13 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %229 = stablehlo.dot_general %227, %228, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %230 = stablehlo.reshape %229 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %231 = stablehlo.transpose %230, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %232 = stablehlo.convert %221 : tensor<8x16xf64>
    %233 = stablehlo.convert %arg14 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %234 = stablehlo.dot_general %232, %233, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %235 = stablehlo.reshape %234 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %236 = stablehlo.transpose %235, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %237 = stablehlo.transpose %231, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %238 = stablehlo.dot_general %226, %237, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %cst_52 = stablehlo.constant dense<2.8284271247461903> : tensor<f64>
    %239 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f64>) -> tensor<2x8x8xf64>
    %240 = stablehlo.divide %238, %239 : tensor<2x8x8xf64>
    %cst_53 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %241 = stablehlo.reduce(%240 init: %cst_53) applies stablehlo.maximum across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %242 = stablehlo.reshape %241 : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %243 = stablehlo.broadcast_in_dim %242, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %244 = stablehlo.compare EQ, %240, %243, FLOAT : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xi1>
    %245 = stablehlo.convert %244 : (tensor<2x8x8xi1>) -> tensor<2x8x8xf64>
    %cst_54 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %246 = stablehlo.reduce(%245 init: %cst_54) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %cst_55 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %247 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %248 = stablehlo.maximum %247, %241 : tensor<2x8xf64>
    %249 = stablehlo.compare EQ, %241, %248, FLOAT : (tensor<2x8xf64>, tensor<2x8xf64>) -> tensor<2x8xi1>
    %cst_56 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %250 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %cst_57 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %251 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %252 = stablehlo.select %249, %250, %251 : tensor<2x8xi1>, tensor<2x8xf64>
    %cst_58 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %253 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %254 = stablehlo.compare EQ, %253, %248, FLOAT : (tensor<2x8xf64>, tensor<2x8xf64>) -> tensor<2x8xi1>
    %cst_59 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %255 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %cst_60 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %256 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %257 = stablehlo.select %254, %255, %256 : tensor<2x8xi1>, tensor<2x8xf64>
    %258 = stablehlo.divide %252, %257 : tensor<2x8xf64>
    %259 = stablehlo.broadcast_in_dim %248, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %260 = stablehlo.broadcast_in_dim %259, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %261 = stablehlo.subtract %240, %260 : tensor<2x8x8xf64>
    %262 = stablehlo.exponential %261 : tensor<2x8x8xf64>
    %cst_61 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %263 = stablehlo.reduce(%262 init: %cst_61) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %264 = stablehlo.broadcast_in_dim %263, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %265 = stablehlo.broadcast_in_dim %264, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %266 = stablehlo.divide %262, %265 : tensor<2x8x8xf64>
    %267 = stablehlo.multiply %264, %264 : tensor<2x8x1xf64>
    %cst_62 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %268 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f64>) -> tensor<2x8x1xf64>
    %269 = stablehlo.divide %268, %267 : tensor<2x8x1xf64>
    %270 = stablehlo.dot_general %266, %236, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %271 = stablehlo.transpose %270, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %272 = stablehlo.reshape %271 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %273 = stablehlo.convert %272 : tensor<8x16xf64>
    %274 = stablehlo.convert %arg15 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %275 = stablehlo.dot_general %273, %274, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %276 = stablehlo.add %198, %275 : tensor<8x16xf64>
    %277 = stablehlo.convert %276 : tensor<8x16xf64>
    %278 = stablehlo.convert %arg16 : (tensor<16x32xf32>) -> tensor<16x32xf64>
    %279 = stablehlo.dot_general %277, %278, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x32xf64>) -> tensor<8x32xf64>
    %280 = stablehlo.multiply %279, %279 : tensor<8x32xf64>
    %281 = stablehlo.multiply %280, %279 : tensor<8x32xf64>
    %282 = stablehlo.multiply %279, %279 : tensor<8x32xf64>
    %cst_63 = stablehlo.constant dense<3.000000e+00> : tensor<f64>
    %283 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %284 = stablehlo.multiply %283, %282 : tensor<8x32xf64>
    %cst_64 = stablehlo.constant dense<4.471500e-02> : tensor<f64>
    %285 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %286 = stablehlo.multiply %285, %281 : tensor<8x32xf64>
    %287 = stablehlo.add %279, %286 : tensor<8x32xf64>
    %cst_65 = stablehlo.constant dense<0.79788456080286541> : tensor<f64>
    %288 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %289 = stablehlo.multiply %288, %287 : tensor<8x32xf64>
    %290 = stablehlo.tanh %289 : tensor<8x32xf64>
    %cst_66 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %291 = stablehlo.broadcast_in_dim %cst_66, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %292 = stablehlo.subtract %291, %290 : tensor<8x32xf64>
    %cst_67 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %293 = stablehlo.broadcast_in_dim %cst_67, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %294 = stablehlo.add %293, %290 : tensor<8x32xf64>
    %cst_68 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %295 = stablehlo.broadcast_in_dim %cst_68, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %296 = stablehlo.multiply %295, %294 : tensor<8x32xf64>
    %297 = stablehlo.multiply %279, %296 : tensor<8x32xf64>
    %298 = stablehlo.convert %297 : tensor<8x32xf64>
    %299 = stablehlo.convert %arg17 : (tensor<32x16xf32>) -> tensor<32x16xf64>
    %300 = stablehlo.dot_general %298, %299, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<32x16xf64>) -> tensor<8x16xf64>
    %301 = stablehlo.add %276, %300 : tensor<8x16xf64>
    %cst_69 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %302 = stablehlo.reduce(%301 init: %cst_69) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %303 = stablehlo.broadcast_in_dim %302, dims = [0] : (tensor<8xf64>) -> tensor<8x1xf64>
    %cst_70 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %304 = stablehlo.broadcast_in_dim %cst_70, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %305 = stablehlo.divide %303, %304 : tensor<8x1xf64>
    %306 = stablehlo.broadcast_in_dim %305, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %307 = stablehlo.subtract %301, %306 : tensor<8x16xf64>
    %308 = stablehlo.multiply %307, %307 : tensor<8x16xf64>
    %cst_71 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %309 = stablehlo.broadcast_in_dim %cst_71, dims = [] : (tensor<f64>) -> tensor<8x16xf64>
    %310 = stablehlo.multiply %309, %307 : tensor<8x16xf64>
    %cst_72 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %311 = stablehlo.reduce(%308 init: %cst_72) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %312 = stablehlo.broadcast_in_dim %311, dims = [0] : (tensor<8xf64>) -> tensor<8x1xf64>
    %cst_73 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %313 = stablehlo.broadcast_in_dim %cst_73, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %314 = stablehlo.divide %312, %313 : tensor<8x1xf64>
    %315 = stablehlo.broadcast_in_dim %305, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %316 = stablehlo.subtract %301, %315 : tensor<8x16xf64>
    %cst_74 = stablehlo.constant dense<1.000000e-05> : tensor<f64>
    %317 = stablehlo.broadcast_in_dim %cst_74, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %318 = stablehlo.add %314, %317 : tensor<8x1xf64>
    %319 = stablehlo.rsqrt %318 : tensor<8x1xf64>
    %320 = stablehlo.divide %319, %318 : tensor<8x1xf64>
    %cst_75 = stablehlo.constant dense<-5.000000e-01> : tensor<f64>
    %321 = stablehlo.broadcast_in_dim %cst_75, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %322 = stablehlo.multiply %321, %320 : tensor<8x1xf64>
    %323 = stablehlo.broadcast_in_dim %319, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %324 = stablehlo.multiply %316, %323 : tensor<8x16xf64>
    %325 = stablehlo.convert %324 : tensor<8x16xf64>
    %326 = stablehlo.convert %arg18 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %327 = stablehlo.dot_general %325, %326, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %328 = stablehlo.reshape %327 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %329 = stablehlo.transpose %328, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %330 = stablehlo.convert %324 : tensor<8x16xf64>
    %331 = stablehlo.convert %arg19 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %332 = stablehlo.dot_general %330, %331, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %333 = stablehlo.reshape %332 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %334 = stablehlo.transpose %333, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %335 = stablehlo.convert %324 : tensor<8x16xf64>
    %336 = stablehlo.convert %arg20 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %337 = stablehlo.dot_general %335, %336, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %338 = stablehlo.reshape %337 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %339 = stablehlo.transpose %338, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %340 = stablehlo.transpose %334, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %341 = stablehlo.dot_general %329, %340, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %cst_76 = stablehlo.constant dense<2.8284271247461903> : tensor<f64>
    %342 = stablehlo.broadcast_in_dim %cst_76, dims = [] : (tensor<f64>) -> tensor<2x8x8xf64>
    %343 = stablehlo.divide %341, %342 : tensor<2x8x8xf64>
    %cst_77 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %344 = stablehlo.reduce(%343 init: %cst_77) applies stablehlo.maximum across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %345 = stablehlo.reshape %344 : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %346 = stablehlo.broadcast_in_dim %345, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %347 = stablehlo.compare EQ, %343, %346, FLOAT : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xi1>
    %348 = stablehlo.convert %347 : (tensor<2x8x8xi1>) -> tensor<2x8x8xf64>
    %cst_78 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %349 = stablehlo.reduce(%348 init: %cst_78) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %cst_79 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %350 = stablehlo.broadcast_in_dim %cst_79, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %351 = stablehlo.maximum %350, %344 : tensor<2x8xf64>
    %352 = stablehlo.compare EQ, %344, %351, FLOAT : (tensor<2x8xf64>, tensor<2x8xf64>) -> tensor<2x8xi1>
    %cst_80 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %353 = stablehlo.broadcast_in_dim %cst_80, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %cst_81 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %354 = stablehlo.broadcast_in_dim %cst_81, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %355 = stablehlo.select %352, %353, %354 : tensor<2x8xi1>, tensor<2x8xf64>
    %cst_82 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %356 = stablehlo.broadcast_in_dim %cst_82, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %357 = stablehlo.compare EQ, %356, %351, FLOAT : (tensor<2x8xf64>, tensor<2x8xf64>) -> tensor<2x8xi1>
    %cst_83 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %358 = stablehlo.broadcast_in_dim %cst_83, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %cst_84 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %359 = stablehlo.broadcast_in_dim %cst_84, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %360 = stablehlo.select %357, %358, %359 : tensor<2x8xi1>, tensor<2x8xf64>
    %361 = stablehlo.divide %355, %360 : tensor<2x8xf64>
    %362 = stablehlo.broadcast_in_dim %351, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %363 = stablehlo.broadcast_in_dim %362, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %364 = stablehlo.subtract %343, %363 : tensor<2x8x8xf64>
    %365 = stablehlo.exponential %364 : tensor<2x8x8xf64>
    %cst_85 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %366 = stablehlo.reduce(%365 init: %cst_85) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %367 = stablehlo.broadcast_in_dim %366, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %368 = stablehlo.broadcast_in_dim %367, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %369 = stablehlo.divide %365, %368 : tensor<2x8x8xf64>
    %370 = stablehlo.multiply %367, %367 : tensor<2x8x1xf64>
    %cst_86 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %371 = stablehlo.broadcast_in_dim %cst_86, dims = [] : (tensor<f64>) -> tensor<2x8x1xf64>
    %372 = stablehlo.divide %371, %370 : tensor<2x8x1xf64>
    %373 = stablehlo.dot_general %369, %339, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %374 = stablehlo.transpose %373, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %375 = stablehlo.reshape %374 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %376 = stablehlo.convert %375 : tensor<8x16xf64>
    %377 = stablehlo.convert %arg21 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %378 = stablehlo.dot_general %376, %377, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %379 = stablehlo.add %301, %378 : tensor<8x16xf64>
    %380 = stablehlo.convert %379 : tensor<8x16xf64>
    %381 = stablehlo.convert %arg22 : (tensor<16x32xf32>) -> tensor<16x32xf64>
    %382 = stablehlo.dot_general %380, %381, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x32xf64>) -> tensor<8x32xf64>
    %383 = stablehlo.multiply %382, %382 : tensor<8x32xf64>
    %384 = stablehlo.multiply %383, %382 : tensor<8x32xf64>
    %385 = stablehlo.multiply %382, %382 : tensor<8x32xf64>
    %cst_87 = stablehlo.constant dense<3.000000e+00> : tensor<f64>
    %386 = stablehlo.broadcast_in_dim %cst_87, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %387 = stablehlo.multiply %386, %385 : tensor<8x32xf64>
    %cst_88 = stablehlo.constant dense<4.471500e-02> : tensor<f64>
    %388 = stablehlo.broadcast_in_dim %cst_88, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %389 = stablehlo.multiply %388, %384 : tensor<8x32xf64>
    %390 = stablehlo.add %382, %389 : tensor<8x32xf64>
    %cst_89 = stablehlo.constant dense<0.79788456080286541> : tensor<f64>
    %391 = stablehlo.broadcast_in_dim %cst_89, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %392 = stablehlo.multiply %391, %390 : tensor<8x32xf64>
    %393 = stablehlo.tanh %392 : tensor<8x32xf64>
    %cst_90 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %394 = stablehlo.broadcast_in_dim %cst_90, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %395 = stablehlo.subtract %394, %393 : tensor<8x32xf64>
    %cst_91 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %396 = stablehlo.broadcast_in_dim %cst_91, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %397 = stablehlo.add %396, %393 : tensor<8x32xf64>
    %cst_92 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %398 = stablehlo.broadcast_in_dim %cst_92, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %399 = stablehlo.multiply %398, %397 : tensor<8x32xf64>
    %400 = stablehlo.multiply %382, %399 : tensor<8x32xf64>
    %401 = stablehlo.convert %400 : tensor<8x32xf64>
    %402 = stablehlo.convert %arg23 : (tensor<32x16xf32>) -> tensor<32x16xf64>
    %403 = stablehlo.dot_general %401, %402, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<32x16xf64>) -> tensor<8x16xf64>
    %404 = stablehlo.add %379, %403 : tensor<8x16xf64>
    %cst_93 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %405 = stablehlo.reduce(%404 init: %cst_93) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %406 = stablehlo.broadcast_in_dim %405, dims = [0] : (tensor<8xf64>) -> tensor<8x1xf64>
    %cst_94 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %407 = stablehlo.broadcast_in_dim %cst_94, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %408 = stablehlo.divide %406, %407 : tensor<8x1xf64>
    %409 = stablehlo.broadcast_in_dim %408, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %410 = stablehlo.subtract %404, %409 : tensor<8x16xf64>
    %411 = stablehlo.multiply %410, %410 : tensor<8x16xf64>
    %cst_95 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %412 = stablehlo.broadcast_in_dim %cst_95, dims = [] : (tensor<f64>) -> tensor<8x16xf64>
    %413 = stablehlo.multiply %412, %410 : tensor<8x16xf64>
    %cst_96 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %414 = stablehlo.reduce(%411 init: %cst_96) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %415 = stablehlo.broadcast_in_dim %414, dims = [0] : (tensor<8xf64>) -> tensor<8x1xf64>
    %cst_97 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %416 = stablehlo.broadcast_in_dim %cst_97, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %417 = stablehlo.divide %415, %416 : tensor<8x1xf64>
    %418 = stablehlo.broadcast_in_dim %408, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %419 = stablehlo.subtract %404, %418 : tensor<8x16xf64>
    %cst_98 = stablehlo.constant dense<1.000000e-05> : tensor<f64>
    %420 = stablehlo.broadcast_in_dim %cst_98, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %421 = stablehlo.add %417, %420 : tensor<8x1xf64>
    %422 = stablehlo.rsqrt %421 : tensor<8x1xf64>
    %423 = stablehlo.divide %422, %421 : tensor<8x1xf64>
    %cst_99 = stablehlo.constant dense<-5.000000e-01> : tensor<f64>
    %424 = stablehlo.broadcast_in_dim %cst_99, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %425 = stablehlo.multiply %424, %423 : tensor<8x1xf64>
    %426 = stablehlo.broadcast_in_dim %422, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %427 = stablehlo.multiply %419, %426 : tensor<8x16xf64>
    %428 = stablehlo.convert %427 : tensor<8x16xf64>
    %429 = stablehlo.convert %arg24 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %430 = stablehlo.dot_general %428, %429, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %431 = stablehlo.reshape %430 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %432 = stablehlo.transpose %431, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %433 = stablehlo.convert %427 : tensor<8x16xf64>
    %434 = stablehlo.convert %arg25 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %435 = stablehlo.dot_general %433, %434, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %436 = stablehlo.reshape %435 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %437 = stablehlo.transpose %436, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %438 = stablehlo.convert %427 : tensor<8x16xf64>
    %439 = stablehlo.convert %arg26 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %440 = stablehlo.dot_general %438, %439, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %441 = stablehlo.reshape %440 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %442 = stablehlo.transpose %441, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %443 = stablehlo.transpose %437, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %444 = stablehlo.dot_general %432, %443, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %cst_100 = stablehlo.constant dense<2.8284271247461903> : tensor<f64>
    %445 = stablehlo.broadcast_in_dim %cst_100, dims = [] : (tensor<f64>) -> tensor<2x8x8xf64>
    %446 = stablehlo.divide %444, %445 : tensor<2x8x8xf64>
    %cst_101 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %447 = stablehlo.reduce(%446 init: %cst_101) applies stablehlo.maximum across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %448 = stablehlo.reshape %447 : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %449 = stablehlo.broadcast_in_dim %448, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %450 = stablehlo.compare EQ, %446, %449, FLOAT : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xi1>
    %451 = stablehlo.convert %450 : (tensor<2x8x8xi1>) -> tensor<2x8x8xf64>
    %cst_102 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %452 = stablehlo.reduce(%451 init: %cst_102) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %cst_103 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %453 = stablehlo.broadcast_in_dim %cst_103, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %454 = stablehlo.maximum %453, %447 : tensor<2x8xf64>
    %455 = stablehlo.compare EQ, %447, %454, FLOAT : (tensor<2x8xf64>, tensor<2x8xf64>) -> tensor<2x8xi1>
    %cst_104 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %456 = stablehlo.broadcast_in_dim %cst_104, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %cst_105 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %457 = stablehlo.broadcast_in_dim %cst_105, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %458 = stablehlo.select %455, %456, %457 : tensor<2x8xi1>, tensor<2x8xf64>
    %cst_106 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %459 = stablehlo.broadcast_in_dim %cst_106, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %460 = stablehlo.compare EQ, %459, %454, FLOAT : (tensor<2x8xf64>, tensor<2x8xf64>) -> tensor<2x8xi1>
    %cst_107 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %461 = stablehlo.broadcast_in_dim %cst_107, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %cst_108 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %462 = stablehlo.broadcast_in_dim %cst_108, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %463 = stablehlo.select %460, %461, %462 : tensor<2x8xi1>, tensor<2x8xf64>
    %464 = stablehlo.divide %458, %463 : tensor<2x8xf64>
    %465 = stablehlo.broadcast_in_dim %454, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %466 = stablehlo.broadcast_in_dim %465, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %467 = stablehlo.subtract %446, %466 : tensor<2x8x8xf64>
    %468 = stablehlo.exponential %467 : tensor<2x8x8xf64>
    %cst_109 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %469 = stablehlo.reduce(%468 init: %cst_109) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %470 = stablehlo.broadcast_in_dim %469, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %471 = stablehlo.broadcast_in_dim %470, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %472 = stablehlo.divide %468, %471 : tensor<2x8x8xf64>
    %473 = stablehlo.multiply %470, %470 : tensor<2x8x1xf64>
    %cst_110 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %474 = stablehlo.broadcast_in_dim %cst_110, dims = [] : (tensor<f64>) -> tensor<2x8x1xf64>
    %475 = stablehlo.divide %474, %473 : tensor<2x8x1xf64>
    %476 = stablehlo.dot_general %472, %442, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %477 = stablehlo.transpose %476, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %478 = stablehlo.reshape %477 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %479 = stablehlo.convert %478 : tensor<8x16xf64>
    %480 = stablehlo.convert %arg27 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %481 = stablehlo.dot_general %479, %480, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %482 = stablehlo.add %404, %481 : tensor<8x16xf64>
    %483 = stablehlo.convert %482 : tensor<8x16xf64>
    %484 = stablehlo.convert %arg28 : (tensor<16x32xf32>) -> tensor<16x32xf64>
    %485 = stablehlo.dot_general %483, %484, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x32xf64>) -> tensor<8x32xf64>
    %486 = stablehlo.multiply %485, %485 : tensor<8x32xf64>
    %487 = stablehlo.multiply %486, %485 : tensor<8x32xf64>
    %488 = stablehlo.multiply %485, %485 : tensor<8x32xf64>
    %cst_111 = stablehlo.constant dense<3.000000e+00> : tensor<f64>
    %489 = stablehlo.broadcast_in_dim %cst_111, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %490 = stablehlo.multiply %489, %488 : tensor<8x32xf64>
    %cst_112 = stablehlo.constant dense<4.471500e-02> : tensor<f64>
    %491 = stablehlo.broadcast_in_dim %cst_112, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %492 = stablehlo.multiply %491, %487 : tensor<8x32xf64>
    %493 = stablehlo.add %485, %492 : tensor<8x32xf64>
    %cst_113 = stablehlo.constant dense<0.79788456080286541> : tensor<f64>
    %494 = stablehlo.broadcast_in_dim %cst_113, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %495 = stablehlo.multiply %494, %493 : tensor<8x32xf64>
    %496 = stablehlo.tanh %495 : tensor<8x32xf64>
    %cst_114 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %497 = stablehlo.broadcast_in_dim %cst_114, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %498 = stablehlo.subtract %497, %496 : tensor<8x32xf64>
    %cst_115 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %499 = stablehlo.broadcast_in_dim %cst_115, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %500 = stablehlo.add %499, %496 : tensor<8x32xf64>
    %cst_116 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %501 = stablehlo.broadcast_in_dim %cst_116, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %502 = stablehlo.multiply %501, %500 : tensor<8x32xf64>
    %503 = stablehlo.multiply %485, %502 : tensor<8x32xf64>
    %504 = stablehlo.convert %503 : tensor<8x32xf64>
    %505 = stablehlo.convert %arg29 : (tensor<32x16xf32>) -> tensor<32x16xf64>
    %506 = stablehlo.dot_general %504, %505, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<32x16xf64>) -> tensor<8x16xf64>
    %507 = stablehlo.add %482, %506 : tensor<8x16xf64>
    %cst_117 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %508 = stablehlo.reduce(%507 init: %cst_117) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %509 = stablehlo.broadcast_in_dim %508, dims = [0] : (tensor<8xf64>) -> tensor<8x1xf64>
    %cst_118 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %510 = stablehlo.broadcast_in_dim %cst_118, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %511 = stablehlo.divide %509, %510 : tensor<8x1xf64>
    %512 = stablehlo.broadcast_in_dim %511, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %513 = stablehlo.subtract %507, %512 : tensor<8x16xf64>
    %514 = stablehlo.multiply %513, %513 : tensor<8x16xf64>
    %cst_119 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %515 = stablehlo.broadcast_in_dim %cst_119, dims = [] : (tensor<f64>) -> tensor<8x16xf64>
    %516 = stablehlo.multiply %515, %513 : tensor<8x16xf64>
    %cst_120 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %517 = stablehlo.reduce(%514 init: %cst_120) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %518 = stablehlo.broadcast_in_dim %517, dims = [0] : (tensor<8xf64>) -> tensor<8x1xf64>
    %cst_121 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %519 = stablehlo.broadcast_in_dim %cst_121, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %520 = stablehlo.divide %518, %519 : tensor<8x1xf64>
    %521 = stablehlo.broadcast_in_dim %511, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %522 = stablehlo.subtract %507, %521 : tensor<8x16xf64>
    %cst_122 = stablehlo.constant dense<1.000000e-05> : tensor<f64>
    %523 = stablehlo.broadcast_in_dim %cst_122, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %524 = stablehlo.add %520, %523 : tensor<8x1xf64>
    %525 = stablehlo.rsqrt %524 : tensor<8x1xf64>
    %526 = stablehlo.divide %525, %524 : tensor<8x1xf64>
    %cst_123 = stablehlo.constant dense<-5.000000e-01> : tensor<f64>
    %527 = stablehlo.broadcast_in_dim %cst_123, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %528 = stablehlo.multiply %527, %526 : tensor<8x1xf64>
    %529 = stablehlo.broadcast_in_dim %525, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %530 = stablehlo.multiply %522, %529 : tensor<8x16xf64>
    %531 = stablehlo.convert %530 : tensor<8x16xf64>
    %532 = stablehlo.convert %arg30 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %533 = stablehlo.dot_general %531, %532, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %534 = stablehlo.reshape %533 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %535 = stablehlo.transpose %534, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %536 = stablehlo.convert %530 : tensor<8x16xf64>
    %537 = stablehlo.convert %arg31 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %538 = stablehlo.dot_general %536, %537, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %539 = stablehlo.reshape %538 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %540 = stablehlo.transpose %539, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %541 = stablehlo.convert %530 : tensor<8x16xf64>
    %542 = stablehlo.convert %arg32 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %543 = stablehlo.dot_general %541, %542, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %544 = stablehlo.reshape %543 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %545 = stablehlo.transpose %544, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %546 = stablehlo.transpose %540, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %547 = stablehlo.dot_general %535, %546, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %cst_124 = stablehlo.constant dense<2.8284271247461903> : tensor<f64>
    %548 = stablehlo.broadcast_in_dim %cst_124, dims = [] : (tensor<f64>) -> tensor<2x8x8xf64>
    %549 = stablehlo.divide %547, %548 : tensor<2x8x8xf64>
    %cst_125 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %550 = stablehlo.reduce(%549 init: %cst_125) applies stablehlo.maximum across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %551 = stablehlo.reshape %550 : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %552 = stablehlo.broadcast_in_dim %551, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %553 = stablehlo.compare EQ, %549, %552, FLOAT : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xi1>
    %554 = stablehlo.convert %553 : (tensor<2x8x8xi1>) -> tensor<2x8x8xf64>
    %cst_126 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %555 = stablehlo.reduce(%554 init: %cst_126) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %cst_127 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %556 = stablehlo.broadcast_in_dim %cst_127, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %557 = stablehlo.maximum %556, %550 : tensor<2x8xf64>
    %558 = stablehlo.compare EQ, %550, %557, FLOAT : (tensor<2x8xf64>, tensor<2x8xf64>) -> tensor<2x8xi1>
    %cst_128 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %559 = stablehlo.broadcast_in_dim %cst_128, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %cst_129 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %560 = stablehlo.broadcast_in_dim %cst_129, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %561 = stablehlo.select %558, %559, %560 : tensor<2x8xi1>, tensor<2x8xf64>
    %cst_130 = stablehlo.constant dense<0xFFF0000000000000> : tensor<f64>
    %562 = stablehlo.broadcast_in_dim %cst_130, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %563 = stablehlo.compare EQ, %562, %557, FLOAT : (tensor<2x8xf64>, tensor<2x8xf64>) -> tensor<2x8xi1>
    %cst_131 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %564 = stablehlo.broadcast_in_dim %cst_131, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %cst_132 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %565 = stablehlo.broadcast_in_dim %cst_132, dims = [] : (tensor<f64>) -> tensor<2x8xf64>
    %566 = stablehlo.select %563, %564, %565 : tensor<2x8xi1>, tensor<2x8xf64>
    %567 = stablehlo.divide %561, %566 : tensor<2x8xf64>
    %568 = stablehlo.broadcast_in_dim %557, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %569 = stablehlo.broadcast_in_dim %568, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %570 = stablehlo.subtract %549, %569 : tensor<2x8x8xf64>
    %571 = stablehlo.exponential %570 : tensor<2x8x8xf64>
    %cst_133 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %572 = stablehlo.reduce(%571 init: %cst_133) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %573 = stablehlo.broadcast_in_dim %572, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %574 = stablehlo.broadcast_in_dim %573, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %575 = stablehlo.divide %571, %574 : tensor<2x8x8xf64>
    %576 = stablehlo.multiply %573, %573 : tensor<2x8x1xf64>
    %cst_134 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %577 = stablehlo.broadcast_in_dim %cst_134, dims = [] : (tensor<f64>) -> tensor<2x8x1xf64>
    %578 = stablehlo.divide %577, %576 : tensor<2x8x1xf64>
    %579 = stablehlo.dot_general %575, %545, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %580 = stablehlo.transpose %579, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %581 = stablehlo.reshape %580 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %582 = stablehlo.convert %581 : tensor<8x16xf64>
    %583 = stablehlo.convert %arg33 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %584 = stablehlo.dot_general %582, %583, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %585 = stablehlo.add %507, %584 : tensor<8x16xf64>
    %586 = stablehlo.convert %585 : tensor<8x16xf64>
    %587 = stablehlo.convert %arg34 : (tensor<16x32xf32>) -> tensor<16x32xf64>
    %588 = stablehlo.dot_general %586, %587, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x32xf64>) -> tensor<8x32xf64>
    %589 = stablehlo.multiply %588, %588 : tensor<8x32xf64>
    %590 = stablehlo.multiply %589, %588 : tensor<8x32xf64>
    %591 = stablehlo.multiply %588, %588 : tensor<8x32xf64>
    %cst_135 = stablehlo.constant dense<3.000000e+00> : tensor<f64>
    %592 = stablehlo.broadcast_in_dim %cst_135, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %593 = stablehlo.multiply %592, %591 : tensor<8x32xf64>
    %cst_136 = stablehlo.constant dense<4.471500e-02> : tensor<f64>
    %594 = stablehlo.broadcast_in_dim %cst_136, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %595 = stablehlo.multiply %594, %590 : tensor<8x32xf64>
    %596 = stablehlo.add %588, %595 : tensor<8x32xf64>
    %cst_137 = stablehlo.constant dense<0.79788456080286541> : tensor<f64>
    %597 = stablehlo.broadcast_in_dim %cst_137, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %598 = stablehlo.multiply %597, %596 : tensor<8x32xf64>
    %599 = stablehlo.tanh %598 : tensor<8x32xf64>
    %cst_138 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %600 = stablehlo.broadcast_in_dim %cst_138, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %601 = stablehlo.subtract %600, %599 : tensor<8x32xf64>
    %cst_139 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %602 = stablehlo.broadcast_in_dim %cst_139, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %603 = stablehlo.add %602, %599 : tensor<8x32xf64>
    %cst_140 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %604 = stablehlo.broadcast_in_dim %cst_140, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %605 = stablehlo.multiply %604, %603 : tensor<8x32xf64>
    %606 = stablehlo.multiply %588, %605 : tensor<8x32xf64>
    %607 = stablehlo.convert %606 : tensor<8x32xf64>
    %608 = stablehlo.convert %arg35 : (tensor<32x16xf32>) -> tensor<32x16xf64>
    %609 = stablehlo.dot_general %607, %608, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<32x16xf64>) -> tensor<8x16xf64>
    %610 = stablehlo.add %585, %609 : tensor<8x16xf64>
    %611 = stablehlo.multiply %610, %610 : tensor<8x16xf64>
    %cst_141 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %612 = stablehlo.broadcast_in_dim %cst_141, dims = [] : (tensor<f64>) -> tensor<8x16xf64>
    %613 = stablehlo.multiply %612, %610 : tensor<8x16xf64>
    %cst_142 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %614 = stablehlo.reduce(%611 init: %cst_142) applies stablehlo.add across dimensions = [0, 1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<f64>
    %cst_143 = stablehlo.constant dense<1.280000e+02> : tensor<f64>
    %615 = stablehlo.divide %614, %cst_143 : tensor<f64>
    %cst_144 = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %cst_145 = stablehlo.constant dense<1.280000e+02> : tensor<f64>
    %616 = stablehlo.divide %cst_144, %cst_145 : tensor<f64>
    %617 = stablehlo.broadcast_in_dim %616, dims = [] : (tensor<f64>) -> tensor<8x16xf64>
    %618 = stablehlo.multiply %617, %613 : tensor<8x16xf64>
    %619 = stablehlo.dot_general %618, %606, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x32xf64>) -> tensor<16x32xf64>
    %620 = stablehlo.transpose %619, dims = [1, 0] : (tensor<16x32xf64>) -> tensor<32x16xf64>
    %621 = stablehlo.convert %620 : (tensor<32x16xf64>) -> tensor<32x16xf32>
    %622 = stablehlo.convert %618 : tensor<8x16xf64>
    %623 = stablehlo.convert %arg35 : (tensor<32x16xf32>) -> tensor<32x16xf64>
    %624 = stablehlo.dot_general %622, %623, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<32x16xf64>) -> tensor<8x32xf64>
    %625 = stablehlo.multiply %588, %624 : tensor<8x32xf64>
    %626 = stablehlo.multiply %624, %605 : tensor<8x32xf64>
    %cst_146 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %627 = stablehlo.broadcast_in_dim %cst_146, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %628 = stablehlo.multiply %627, %625 : tensor<8x32xf64>
    %629 = stablehlo.multiply %628, %601 : tensor<8x32xf64>
    %630 = stablehlo.multiply %629, %599 : tensor<8x32xf64>
    %631 = stablehlo.add %629, %630 : tensor<8x32xf64>
    %cst_147 = stablehlo.constant dense<0.79788456080286541> : tensor<f64>
    %632 = stablehlo.broadcast_in_dim %cst_147, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %633 = stablehlo.multiply %632, %631 : tensor<8x32xf64>
    %634 = stablehlo.add %626, %633 : tensor<8x32xf64>
    %cst_148 = stablehlo.constant dense<4.471500e-02> : tensor<f64>
    %635 = stablehlo.broadcast_in_dim %cst_148, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %636 = stablehlo.multiply %635, %633 : tensor<8x32xf64>
    %637 = stablehlo.multiply %636, %593 : tensor<8x32xf64>
    %638 = stablehlo.add %634, %637 : tensor<8x32xf64>
    %639 = stablehlo.dot_general %638, %585, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<8x16xf64>) -> tensor<32x16xf64>
    %640 = stablehlo.transpose %639, dims = [1, 0] : (tensor<32x16xf64>) -> tensor<16x32xf64>
    %641 = stablehlo.convert %640 : (tensor<16x32xf64>) -> tensor<16x32xf32>
    %642 = stablehlo.convert %638 : tensor<8x32xf64>
    %643 = stablehlo.convert %arg34 : (tensor<16x32xf32>) -> tensor<16x32xf64>
    %644 = stablehlo.dot_general %642, %643, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<16x32xf64>) -> tensor<8x16xf64>
    %645 = stablehlo.add %618, %644 : tensor<8x16xf64>
    %646 = stablehlo.dot_general %645, %581, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %647 = stablehlo.transpose %646, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %648 = stablehlo.convert %647 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %649 = stablehlo.convert %645 : tensor<8x16xf64>
    %650 = stablehlo.convert %arg33 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %651 = stablehlo.dot_general %649, %650, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %652 = stablehlo.reshape %651 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %653 = stablehlo.transpose %652, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %654 = stablehlo.dot_general %653, %575, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %655 = stablehlo.transpose %654, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %656 = stablehlo.dot_general %653, %545, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %657 = stablehlo.broadcast_in_dim %578, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %658 = stablehlo.multiply %656, %657 : tensor<2x8x8xf64>
    %659 = stablehlo.multiply %658, %571 : tensor<2x8x8xf64>
    %cst_149 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %660 = stablehlo.reduce(%659 init: %cst_149) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %661 = stablehlo.reshape %660 : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %662 = stablehlo.negate %661 : tensor<2x8x1xf64>
    %663 = stablehlo.broadcast_in_dim %573, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %664 = stablehlo.divide %656, %663 : tensor<2x8x8xf64>
    %cst_150 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %665 = stablehlo.reduce(%662 init: %cst_150) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf64>, tensor<f64>) -> tensor<2x8xf64>
    %666 = stablehlo.broadcast_in_dim %665, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x8xf64>
    %667 = stablehlo.add %664, %666 : tensor<2x8x8xf64>
    %668 = stablehlo.multiply %667, %571 : tensor<2x8x8xf64>
    %cst_151 = stablehlo.constant dense<2.8284271247461903> : tensor<f64>
    %669 = stablehlo.broadcast_in_dim %cst_151, dims = [] : (tensor<f64>) -> tensor<2x8x8xf64>
    %670 = stablehlo.divide %668, %669 : tensor<2x8x8xf64>
    %671 = stablehlo.dot_general %670, %535, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %672 = stablehlo.transpose %671, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %673 = stablehlo.dot_general %670, %546, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %674 = stablehlo.transpose %672, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %675 = stablehlo.transpose %655, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %676 = stablehlo.reshape %675 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %677 = stablehlo.dot_general %676, %530, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %678 = stablehlo.transpose %677, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %679 = stablehlo.convert %678 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %680 = stablehlo.convert %676 : tensor<8x16xf64>
    %681 = stablehlo.convert %arg32 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %682 = stablehlo.dot_general %680, %681, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %683 = stablehlo.transpose %674, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %684 = stablehlo.reshape %683 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %685 = stablehlo.dot_general %684, %530, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %686 = stablehlo.transpose %685, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %687 = stablehlo.convert %686 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %688 = stablehlo.convert %684 : tensor<8x16xf64>
    %689 = stablehlo.convert %arg31 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %690 = stablehlo.dot_general %688, %689, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %691 = stablehlo.add %682, %690 : tensor<8x16xf64>
    %692 = stablehlo.transpose %673, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %693 = stablehlo.reshape %692 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %694 = stablehlo.dot_general %693, %530, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %695 = stablehlo.transpose %694, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %696 = stablehlo.convert %695 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %697 = stablehlo.convert %693 : tensor<8x16xf64>
    %698 = stablehlo.convert %arg30 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %699 = stablehlo.dot_general %697, %698, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %700 = stablehlo.add %691, %699 : tensor<8x16xf64>
    %701 = stablehlo.multiply %522, %700 : tensor<8x16xf64>
    %cst_152 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %702 = stablehlo.reduce(%701 init: %cst_152) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %703 = stablehlo.reshape %702 : (tensor<8xf64>) -> tensor<8x1xf64>
    %704 = stablehlo.broadcast_in_dim %525, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %705 = stablehlo.multiply %700, %704 : tensor<8x16xf64>
    %706 = stablehlo.multiply %703, %528 : tensor<8x1xf64>
    %707 = stablehlo.negate %705 : tensor<8x16xf64>
    %cst_153 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %708 = stablehlo.reduce(%707 init: %cst_153) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %709 = stablehlo.reshape %708 : (tensor<8xf64>) -> tensor<8x1xf64>
    %710 = stablehlo.add %645, %705 : tensor<8x16xf64>
    %cst_154 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %711 = stablehlo.broadcast_in_dim %cst_154, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %712 = stablehlo.divide %706, %711 : tensor<8x1xf64>
    %cst_155 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %713 = stablehlo.reduce(%712 init: %cst_155) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf64>, tensor<f64>) -> tensor<8xf64>
    %714 = stablehlo.broadcast_in_dim %713, dims = [0] : (tensor<8xf64>) -> tensor<8x16xf64>
    %715 = stablehlo.multiply %714, %516 : tensor<8x16xf64>
    %716 = stablehlo.negate %715 : tensor<8x16xf64>
    %cst_156 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %717 = stablehlo.reduce(%716 init: %cst_156) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %718 = stablehlo.reshape %717 : (tensor<8xf64>) -> tensor<8x1xf64>
    %719 = stablehlo.add %710, %715 : tensor<8x16xf64>
    %720 = stablehlo.add %709, %718 : tensor<8x1xf64>
    %cst_157 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %721 = stablehlo.broadcast_in_dim %cst_157, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %722 = stablehlo.divide %720, %721 : tensor<8x1xf64>
    %cst_158 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %723 = stablehlo.reduce(%722 init: %cst_158) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf64>, tensor<f64>) -> tensor<8xf64>
    %724 = stablehlo.broadcast_in_dim %723, dims = [0] : (tensor<8xf64>) -> tensor<8x16xf64>
    %725 = stablehlo.add %719, %724 : tensor<8x16xf64>
    %726 = stablehlo.dot_general %725, %503, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x32xf64>) -> tensor<16x32xf64>
    %727 = stablehlo.transpose %726, dims = [1, 0] : (tensor<16x32xf64>) -> tensor<32x16xf64>
    %728 = stablehlo.convert %727 : (tensor<32x16xf64>) -> tensor<32x16xf32>
    %729 = stablehlo.convert %725 : tensor<8x16xf64>
    %730 = stablehlo.convert %arg29 : (tensor<32x16xf32>) -> tensor<32x16xf64>
    %731 = stablehlo.dot_general %729, %730, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<32x16xf64>) -> tensor<8x32xf64>
    %732 = stablehlo.multiply %485, %731 : tensor<8x32xf64>
    %733 = stablehlo.multiply %731, %502 : tensor<8x32xf64>
    %cst_159 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %734 = stablehlo.broadcast_in_dim %cst_159, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %735 = stablehlo.multiply %734, %732 : tensor<8x32xf64>
    %736 = stablehlo.multiply %735, %498 : tensor<8x32xf64>
    %737 = stablehlo.multiply %736, %496 : tensor<8x32xf64>
    %738 = stablehlo.add %736, %737 : tensor<8x32xf64>
    %cst_160 = stablehlo.constant dense<0.79788456080286541> : tensor<f64>
    %739 = stablehlo.broadcast_in_dim %cst_160, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %740 = stablehlo.multiply %739, %738 : tensor<8x32xf64>
    %741 = stablehlo.add %733, %740 : tensor<8x32xf64>
    %cst_161 = stablehlo.constant dense<4.471500e-02> : tensor<f64>
    %742 = stablehlo.broadcast_in_dim %cst_161, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %743 = stablehlo.multiply %742, %740 : tensor<8x32xf64>
    %744 = stablehlo.multiply %743, %490 : tensor<8x32xf64>
    %745 = stablehlo.add %741, %744 : tensor<8x32xf64>
    %746 = stablehlo.dot_general %745, %482, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<8x16xf64>) -> tensor<32x16xf64>
    %747 = stablehlo.transpose %746, dims = [1, 0] : (tensor<32x16xf64>) -> tensor<16x32xf64>
    %748 = stablehlo.convert %747 : (tensor<16x32xf64>) -> tensor<16x32xf32>
    %749 = stablehlo.convert %745 : tensor<8x32xf64>
    %750 = stablehlo.convert %arg28 : (tensor<16x32xf32>) -> tensor<16x32xf64>
    %751 = stablehlo.dot_general %749, %750, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<16x32xf64>) -> tensor<8x16xf64>
    %752 = stablehlo.add %725, %751 : tensor<8x16xf64>
    %753 = stablehlo.dot_general %752, %478, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %754 = stablehlo.transpose %753, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %755 = stablehlo.convert %754 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %756 = stablehlo.convert %752 : tensor<8x16xf64>
    %757 = stablehlo.convert %arg27 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %758 = stablehlo.dot_general %756, %757, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %759 = stablehlo.reshape %758 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %760 = stablehlo.transpose %759, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %761 = stablehlo.dot_general %760, %472, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %762 = stablehlo.transpose %761, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %763 = stablehlo.dot_general %760, %442, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %764 = stablehlo.broadcast_in_dim %475, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %765 = stablehlo.multiply %763, %764 : tensor<2x8x8xf64>
    %766 = stablehlo.multiply %765, %468 : tensor<2x8x8xf64>
    %cst_162 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %767 = stablehlo.reduce(%766 init: %cst_162) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %768 = stablehlo.reshape %767 : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %769 = stablehlo.negate %768 : tensor<2x8x1xf64>
    %770 = stablehlo.broadcast_in_dim %470, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %771 = stablehlo.divide %763, %770 : tensor<2x8x8xf64>
    %cst_163 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %772 = stablehlo.reduce(%769 init: %cst_163) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf64>, tensor<f64>) -> tensor<2x8xf64>
    %773 = stablehlo.broadcast_in_dim %772, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x8xf64>
    %774 = stablehlo.add %771, %773 : tensor<2x8x8xf64>
    %775 = stablehlo.multiply %774, %468 : tensor<2x8x8xf64>
    %cst_164 = stablehlo.constant dense<2.8284271247461903> : tensor<f64>
    %776 = stablehlo.broadcast_in_dim %cst_164, dims = [] : (tensor<f64>) -> tensor<2x8x8xf64>
    %777 = stablehlo.divide %775, %776 : tensor<2x8x8xf64>
    %778 = stablehlo.dot_general %777, %432, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %779 = stablehlo.transpose %778, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %780 = stablehlo.dot_general %777, %443, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %781 = stablehlo.transpose %779, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %782 = stablehlo.transpose %762, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %783 = stablehlo.reshape %782 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %784 = stablehlo.dot_general %783, %427, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %785 = stablehlo.transpose %784, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %786 = stablehlo.convert %785 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %787 = stablehlo.convert %783 : tensor<8x16xf64>
    %788 = stablehlo.convert %arg26 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %789 = stablehlo.dot_general %787, %788, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %790 = stablehlo.transpose %781, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %791 = stablehlo.reshape %790 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %792 = stablehlo.dot_general %791, %427, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %793 = stablehlo.transpose %792, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %794 = stablehlo.convert %793 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %795 = stablehlo.convert %791 : tensor<8x16xf64>
    %796 = stablehlo.convert %arg25 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %797 = stablehlo.dot_general %795, %796, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %798 = stablehlo.add %789, %797 : tensor<8x16xf64>
    %799 = stablehlo.transpose %780, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %800 = stablehlo.reshape %799 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %801 = stablehlo.dot_general %800, %427, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %802 = stablehlo.transpose %801, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %803 = stablehlo.convert %802 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %804 = stablehlo.convert %800 : tensor<8x16xf64>
    %805 = stablehlo.convert %arg24 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %806 = stablehlo.dot_general %804, %805, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %807 = stablehlo.add %798, %806 : tensor<8x16xf64>
    %808 = stablehlo.multiply %419, %807 : tensor<8x16xf64>
    %cst_165 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %809 = stablehlo.reduce(%808 init: %cst_165) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %810 = stablehlo.reshape %809 : (tensor<8xf64>) -> tensor<8x1xf64>
    %811 = stablehlo.broadcast_in_dim %422, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %812 = stablehlo.multiply %807, %811 : tensor<8x16xf64>
    %813 = stablehlo.multiply %810, %425 : tensor<8x1xf64>
    %814 = stablehlo.negate %812 : tensor<8x16xf64>
    %cst_166 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %815 = stablehlo.reduce(%814 init: %cst_166) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %816 = stablehlo.reshape %815 : (tensor<8xf64>) -> tensor<8x1xf64>
    %817 = stablehlo.add %752, %812 : tensor<8x16xf64>
    %cst_167 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %818 = stablehlo.broadcast_in_dim %cst_167, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %819 = stablehlo.divide %813, %818 : tensor<8x1xf64>
    %cst_168 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %820 = stablehlo.reduce(%819 init: %cst_168) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf64>, tensor<f64>) -> tensor<8xf64>
    %821 = stablehlo.broadcast_in_dim %820, dims = [0] : (tensor<8xf64>) -> tensor<8x16xf64>
    %822 = stablehlo.multiply %821, %413 : tensor<8x16xf64>
    %823 = stablehlo.negate %822 : tensor<8x16xf64>
    %cst_169 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %824 = stablehlo.reduce(%823 init: %cst_169) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %825 = stablehlo.reshape %824 : (tensor<8xf64>) -> tensor<8x1xf64>
    %826 = stablehlo.add %817, %822 : tensor<8x16xf64>
    %827 = stablehlo.add %816, %825 : tensor<8x1xf64>
    %cst_170 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %828 = stablehlo.broadcast_in_dim %cst_170, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %829 = stablehlo.divide %827, %828 : tensor<8x1xf64>
    %cst_171 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %830 = stablehlo.reduce(%829 init: %cst_171) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf64>, tensor<f64>) -> tensor<8xf64>
    %831 = stablehlo.broadcast_in_dim %830, dims = [0] : (tensor<8xf64>) -> tensor<8x16xf64>
    %832 = stablehlo.add %826, %831 : tensor<8x16xf64>
    %833 = stablehlo.dot_general %832, %400, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x32xf64>) -> tensor<16x32xf64>
    %834 = stablehlo.transpose %833, dims = [1, 0] : (tensor<16x32xf64>) -> tensor<32x16xf64>
    %835 = stablehlo.convert %834 : (tensor<32x16xf64>) -> tensor<32x16xf32>
    %836 = stablehlo.convert %832 : tensor<8x16xf64>
    %837 = stablehlo.convert %arg23 : (tensor<32x16xf32>) -> tensor<32x16xf64>
    %838 = stablehlo.dot_general %836, %837, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<32x16xf64>) -> tensor<8x32xf64>
    %839 = stablehlo.multiply %382, %838 : tensor<8x32xf64>
    %840 = stablehlo.multiply %838, %399 : tensor<8x32xf64>
    %cst_172 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %841 = stablehlo.broadcast_in_dim %cst_172, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %842 = stablehlo.multiply %841, %839 : tensor<8x32xf64>
    %843 = stablehlo.multiply %842, %395 : tensor<8x32xf64>
    %844 = stablehlo.multiply %843, %393 : tensor<8x32xf64>
    %845 = stablehlo.add %843, %844 : tensor<8x32xf64>
    %cst_173 = stablehlo.constant dense<0.79788456080286541> : tensor<f64>
    %846 = stablehlo.broadcast_in_dim %cst_173, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %847 = stablehlo.multiply %846, %845 : tensor<8x32xf64>
    %848 = stablehlo.add %840, %847 : tensor<8x32xf64>
    %cst_174 = stablehlo.constant dense<4.471500e-02> : tensor<f64>
    %849 = stablehlo.broadcast_in_dim %cst_174, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %850 = stablehlo.multiply %849, %847 : tensor<8x32xf64>
    %851 = stablehlo.multiply %850, %387 : tensor<8x32xf64>
    %852 = stablehlo.add %848, %851 : tensor<8x32xf64>
    %853 = stablehlo.dot_general %852, %379, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<8x16xf64>) -> tensor<32x16xf64>
    %854 = stablehlo.transpose %853, dims = [1, 0] : (tensor<32x16xf64>) -> tensor<16x32xf64>
    %855 = stablehlo.convert %854 : (tensor<16x32xf64>) -> tensor<16x32xf32>
    %856 = stablehlo.convert %852 : tensor<8x32xf64>
    %857 = stablehlo.convert %arg22 : (tensor<16x32xf32>) -> tensor<16x32xf64>
    %858 = stablehlo.dot_general %856, %857, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<16x32xf64>) -> tensor<8x16xf64>
    %859 = stablehlo.add %832, %858 : tensor<8x16xf64>
    %860 = stablehlo.dot_general %859, %375, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %861 = stablehlo.transpose %860, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %862 = stablehlo.convert %861 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %863 = stablehlo.convert %859 : tensor<8x16xf64>
    %864 = stablehlo.convert %arg21 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %865 = stablehlo.dot_general %863, %864, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %866 = stablehlo.reshape %865 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %867 = stablehlo.transpose %866, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %868 = stablehlo.dot_general %867, %369, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %869 = stablehlo.transpose %868, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %870 = stablehlo.dot_general %867, %339, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %871 = stablehlo.broadcast_in_dim %372, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %872 = stablehlo.multiply %870, %871 : tensor<2x8x8xf64>
    %873 = stablehlo.multiply %872, %365 : tensor<2x8x8xf64>
    %cst_175 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %874 = stablehlo.reduce(%873 init: %cst_175) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %875 = stablehlo.reshape %874 : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %876 = stablehlo.negate %875 : tensor<2x8x1xf64>
    %877 = stablehlo.broadcast_in_dim %367, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %878 = stablehlo.divide %870, %877 : tensor<2x8x8xf64>
    %cst_176 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %879 = stablehlo.reduce(%876 init: %cst_176) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf64>, tensor<f64>) -> tensor<2x8xf64>
    %880 = stablehlo.broadcast_in_dim %879, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x8xf64>
    %881 = stablehlo.add %878, %880 : tensor<2x8x8xf64>
    %882 = stablehlo.multiply %881, %365 : tensor<2x8x8xf64>
    %cst_177 = stablehlo.constant dense<2.8284271247461903> : tensor<f64>
    %883 = stablehlo.broadcast_in_dim %cst_177, dims = [] : (tensor<f64>) -> tensor<2x8x8xf64>
    %884 = stablehlo.divide %882, %883 : tensor<2x8x8xf64>
    %885 = stablehlo.dot_general %884, %329, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %886 = stablehlo.transpose %885, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %887 = stablehlo.dot_general %884, %340, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %888 = stablehlo.transpose %886, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %889 = stablehlo.transpose %869, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %890 = stablehlo.reshape %889 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %891 = stablehlo.dot_general %890, %324, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %892 = stablehlo.transpose %891, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %893 = stablehlo.convert %892 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %894 = stablehlo.convert %890 : tensor<8x16xf64>
    %895 = stablehlo.convert %arg20 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %896 = stablehlo.dot_general %894, %895, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %897 = stablehlo.transpose %888, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %898 = stablehlo.reshape %897 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %899 = stablehlo.dot_general %898, %324, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %900 = stablehlo.transpose %899, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %901 = stablehlo.convert %900 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %902 = stablehlo.convert %898 : tensor<8x16xf64>
    %903 = stablehlo.convert %arg19 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %904 = stablehlo.dot_general %902, %903, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %905 = stablehlo.add %896, %904 : tensor<8x16xf64>
    %906 = stablehlo.transpose %887, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %907 = stablehlo.reshape %906 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %908 = stablehlo.dot_general %907, %324, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %909 = stablehlo.transpose %908, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %910 = stablehlo.convert %909 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %911 = stablehlo.convert %907 : tensor<8x16xf64>
    %912 = stablehlo.convert %arg18 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %913 = stablehlo.dot_general %911, %912, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %914 = stablehlo.add %905, %913 : tensor<8x16xf64>
    %915 = stablehlo.multiply %316, %914 : tensor<8x16xf64>
    %cst_178 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %916 = stablehlo.reduce(%915 init: %cst_178) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %917 = stablehlo.reshape %916 : (tensor<8xf64>) -> tensor<8x1xf64>
    %918 = stablehlo.broadcast_in_dim %319, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %919 = stablehlo.multiply %914, %918 : tensor<8x16xf64>
    %920 = stablehlo.multiply %917, %322 : tensor<8x1xf64>
    %921 = stablehlo.negate %919 : tensor<8x16xf64>
    %cst_179 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %922 = stablehlo.reduce(%921 init: %cst_179) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %923 = stablehlo.reshape %922 : (tensor<8xf64>) -> tensor<8x1xf64>
    %924 = stablehlo.add %859, %919 : tensor<8x16xf64>
    %cst_180 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %925 = stablehlo.broadcast_in_dim %cst_180, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %926 = stablehlo.divide %920, %925 : tensor<8x1xf64>
    %cst_181 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %927 = stablehlo.reduce(%926 init: %cst_181) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf64>, tensor<f64>) -> tensor<8xf64>
    %928 = stablehlo.broadcast_in_dim %927, dims = [0] : (tensor<8xf64>) -> tensor<8x16xf64>
    %929 = stablehlo.multiply %928, %310 : tensor<8x16xf64>
    %930 = stablehlo.negate %929 : tensor<8x16xf64>
    %cst_182 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %931 = stablehlo.reduce(%930 init: %cst_182) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %932 = stablehlo.reshape %931 : (tensor<8xf64>) -> tensor<8x1xf64>
    %933 = stablehlo.add %924, %929 : tensor<8x16xf64>
    %934 = stablehlo.add %923, %932 : tensor<8x1xf64>
    %cst_183 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %935 = stablehlo.broadcast_in_dim %cst_183, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %936 = stablehlo.divide %934, %935 : tensor<8x1xf64>
    %cst_184 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %937 = stablehlo.reduce(%936 init: %cst_184) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf64>, tensor<f64>) -> tensor<8xf64>
    %938 = stablehlo.broadcast_in_dim %937, dims = [0] : (tensor<8xf64>) -> tensor<8x16xf64>
    %939 = stablehlo.add %933, %938 : tensor<8x16xf64>
    %940 = stablehlo.dot_general %939, %297, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x32xf64>) -> tensor<16x32xf64>
    %941 = stablehlo.transpose %940, dims = [1, 0] : (tensor<16x32xf64>) -> tensor<32x16xf64>
    %942 = stablehlo.convert %941 : (tensor<32x16xf64>) -> tensor<32x16xf32>
    %943 = stablehlo.convert %939 : tensor<8x16xf64>
    %944 = stablehlo.convert %arg17 : (tensor<32x16xf32>) -> tensor<32x16xf64>
    %945 = stablehlo.dot_general %943, %944, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<32x16xf64>) -> tensor<8x32xf64>
    %946 = stablehlo.multiply %279, %945 : tensor<8x32xf64>
    %947 = stablehlo.multiply %945, %296 : tensor<8x32xf64>
    %cst_185 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %948 = stablehlo.broadcast_in_dim %cst_185, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %949 = stablehlo.multiply %948, %946 : tensor<8x32xf64>
    %950 = stablehlo.multiply %949, %292 : tensor<8x32xf64>
    %951 = stablehlo.multiply %950, %290 : tensor<8x32xf64>
    %952 = stablehlo.add %950, %951 : tensor<8x32xf64>
    %cst_186 = stablehlo.constant dense<0.79788456080286541> : tensor<f64>
    %953 = stablehlo.broadcast_in_dim %cst_186, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %954 = stablehlo.multiply %953, %952 : tensor<8x32xf64>
    %955 = stablehlo.add %947, %954 : tensor<8x32xf64>
    %cst_187 = stablehlo.constant dense<4.471500e-02> : tensor<f64>
    %956 = stablehlo.broadcast_in_dim %cst_187, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %957 = stablehlo.multiply %956, %954 : tensor<8x32xf64>
    %958 = stablehlo.multiply %957, %284 : tensor<8x32xf64>
    %959 = stablehlo.add %955, %958 : tensor<8x32xf64>
    %960 = stablehlo.dot_general %959, %276, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<8x16xf64>) -> tensor<32x16xf64>
    %961 = stablehlo.transpose %960, dims = [1, 0] : (tensor<32x16xf64>) -> tensor<16x32xf64>
    %962 = stablehlo.convert %961 : (tensor<16x32xf64>) -> tensor<16x32xf32>
    %963 = stablehlo.convert %959 : tensor<8x32xf64>
    %964 = stablehlo.convert %arg16 : (tensor<16x32xf32>) -> tensor<16x32xf64>
    %965 = stablehlo.dot_general %963, %964, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<16x32xf64>) -> tensor<8x16xf64>
    %966 = stablehlo.add %939, %965 : tensor<8x16xf64>
    %967 = stablehlo.dot_general %966, %272, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %968 = stablehlo.transpose %967, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %969 = stablehlo.convert %968 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %970 = stablehlo.convert %966 : tensor<8x16xf64>
    %971 = stablehlo.convert %arg15 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %972 = stablehlo.dot_general %970, %971, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %973 = stablehlo.reshape %972 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %974 = stablehlo.transpose %973, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %975 = stablehlo.dot_general %974, %266, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %976 = stablehlo.transpose %975, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %977 = stablehlo.dot_general %974, %236, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %978 = stablehlo.broadcast_in_dim %269, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %979 = stablehlo.multiply %977, %978 : tensor<2x8x8xf64>
    %980 = stablehlo.multiply %979, %262 : tensor<2x8x8xf64>
    %cst_188 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %981 = stablehlo.reduce(%980 init: %cst_188) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %982 = stablehlo.reshape %981 : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %983 = stablehlo.negate %982 : tensor<2x8x1xf64>
    %984 = stablehlo.broadcast_in_dim %264, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %985 = stablehlo.divide %977, %984 : tensor<2x8x8xf64>
    %cst_189 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %986 = stablehlo.reduce(%983 init: %cst_189) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf64>, tensor<f64>) -> tensor<2x8xf64>
    %987 = stablehlo.broadcast_in_dim %986, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x8xf64>
    %988 = stablehlo.add %985, %987 : tensor<2x8x8xf64>
    %989 = stablehlo.multiply %988, %262 : tensor<2x8x8xf64>
    %cst_190 = stablehlo.constant dense<2.8284271247461903> : tensor<f64>
    %990 = stablehlo.broadcast_in_dim %cst_190, dims = [] : (tensor<f64>) -> tensor<2x8x8xf64>
    %991 = stablehlo.divide %989, %990 : tensor<2x8x8xf64>
    %992 = stablehlo.dot_general %991, %226, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %993 = stablehlo.transpose %992, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %994 = stablehlo.dot_general %991, %237, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %995 = stablehlo.transpose %993, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %996 = stablehlo.transpose %976, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %997 = stablehlo.reshape %996 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %998 = stablehlo.dot_general %997, %221, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %999 = stablehlo.transpose %998, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %1000 = stablehlo.convert %999 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %1001 = stablehlo.convert %997 : tensor<8x16xf64>
    %1002 = stablehlo.convert %arg14 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %1003 = stablehlo.dot_general %1001, %1002, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %1004 = stablehlo.transpose %995, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %1005 = stablehlo.reshape %1004 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %1006 = stablehlo.dot_general %1005, %221, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %1007 = stablehlo.transpose %1006, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %1008 = stablehlo.convert %1007 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %1009 = stablehlo.convert %1005 : tensor<8x16xf64>
    %1010 = stablehlo.convert %arg13 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %1011 = stablehlo.dot_general %1009, %1010, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %1012 = stablehlo.add %1003, %1011 : tensor<8x16xf64>
    %1013 = stablehlo.transpose %994, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %1014 = stablehlo.reshape %1013 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %1015 = stablehlo.dot_general %1014, %221, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %1016 = stablehlo.transpose %1015, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %1017 = stablehlo.convert %1016 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %1018 = stablehlo.convert %1014 : tensor<8x16xf64>
    %1019 = stablehlo.convert %arg12 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %1020 = stablehlo.dot_general %1018, %1019, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %1021 = stablehlo.add %1012, %1020 : tensor<8x16xf64>
    %1022 = stablehlo.multiply %213, %1021 : tensor<8x16xf64>
    %cst_191 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1023 = stablehlo.reduce(%1022 init: %cst_191) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %1024 = stablehlo.reshape %1023 : (tensor<8xf64>) -> tensor<8x1xf64>
    %1025 = stablehlo.broadcast_in_dim %216, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %1026 = stablehlo.multiply %1021, %1025 : tensor<8x16xf64>
    %1027 = stablehlo.multiply %1024, %219 : tensor<8x1xf64>
    %1028 = stablehlo.negate %1026 : tensor<8x16xf64>
    %cst_192 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1029 = stablehlo.reduce(%1028 init: %cst_192) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %1030 = stablehlo.reshape %1029 : (tensor<8xf64>) -> tensor<8x1xf64>
    %1031 = stablehlo.add %966, %1026 : tensor<8x16xf64>
    %cst_193 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %1032 = stablehlo.broadcast_in_dim %cst_193, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %1033 = stablehlo.divide %1027, %1032 : tensor<8x1xf64>
    %cst_194 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1034 = stablehlo.reduce(%1033 init: %cst_194) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf64>, tensor<f64>) -> tensor<8xf64>
    %1035 = stablehlo.broadcast_in_dim %1034, dims = [0] : (tensor<8xf64>) -> tensor<8x16xf64>
    %1036 = stablehlo.multiply %1035, %207 : tensor<8x16xf64>
    %1037 = stablehlo.negate %1036 : tensor<8x16xf64>
    %cst_195 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1038 = stablehlo.reduce(%1037 init: %cst_195) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %1039 = stablehlo.reshape %1038 : (tensor<8xf64>) -> tensor<8x1xf64>
    %1040 = stablehlo.add %1031, %1036 : tensor<8x16xf64>
    %1041 = stablehlo.add %1030, %1039 : tensor<8x1xf64>
    %cst_196 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %1042 = stablehlo.broadcast_in_dim %cst_196, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %1043 = stablehlo.divide %1041, %1042 : tensor<8x1xf64>
    %cst_197 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1044 = stablehlo.reduce(%1043 init: %cst_197) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf64>, tensor<f64>) -> tensor<8xf64>
    %1045 = stablehlo.broadcast_in_dim %1044, dims = [0] : (tensor<8xf64>) -> tensor<8x16xf64>
    %1046 = stablehlo.add %1040, %1045 : tensor<8x16xf64>
    %1047 = stablehlo.dot_general %1046, %194, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x32xf64>) -> tensor<16x32xf64>
    %1048 = stablehlo.transpose %1047, dims = [1, 0] : (tensor<16x32xf64>) -> tensor<32x16xf64>
    %1049 = stablehlo.convert %1048 : (tensor<32x16xf64>) -> tensor<32x16xf32>
    %1050 = stablehlo.convert %1046 : tensor<8x16xf64>
    %1051 = stablehlo.convert %arg11 : (tensor<32x16xf32>) -> tensor<32x16xf64>
    %1052 = stablehlo.dot_general %1050, %1051, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<32x16xf64>) -> tensor<8x32xf64>
    %1053 = stablehlo.multiply %176, %1052 : tensor<8x32xf64>
    %1054 = stablehlo.multiply %1052, %193 : tensor<8x32xf64>
    %cst_198 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %1055 = stablehlo.broadcast_in_dim %cst_198, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %1056 = stablehlo.multiply %1055, %1053 : tensor<8x32xf64>
    %1057 = stablehlo.multiply %1056, %189 : tensor<8x32xf64>
    %1058 = stablehlo.multiply %1057, %187 : tensor<8x32xf64>
    %1059 = stablehlo.add %1057, %1058 : tensor<8x32xf64>
    %cst_199 = stablehlo.constant dense<0.79788456080286541> : tensor<f64>
    %1060 = stablehlo.broadcast_in_dim %cst_199, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %1061 = stablehlo.multiply %1060, %1059 : tensor<8x32xf64>
    %1062 = stablehlo.add %1054, %1061 : tensor<8x32xf64>
    %cst_200 = stablehlo.constant dense<4.471500e-02> : tensor<f64>
    %1063 = stablehlo.broadcast_in_dim %cst_200, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %1064 = stablehlo.multiply %1063, %1061 : tensor<8x32xf64>
    %1065 = stablehlo.multiply %1064, %181 : tensor<8x32xf64>
    %1066 = stablehlo.add %1062, %1065 : tensor<8x32xf64>
    %1067 = stablehlo.dot_general %1066, %173, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<8x16xf64>) -> tensor<32x16xf64>
    %1068 = stablehlo.transpose %1067, dims = [1, 0] : (tensor<32x16xf64>) -> tensor<16x32xf64>
    %1069 = stablehlo.convert %1068 : (tensor<16x32xf64>) -> tensor<16x32xf32>
    %1070 = stablehlo.convert %1066 : tensor<8x32xf64>
    %1071 = stablehlo.convert %arg10 : (tensor<16x32xf32>) -> tensor<16x32xf64>
    %1072 = stablehlo.dot_general %1070, %1071, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<16x32xf64>) -> tensor<8x16xf64>
    %1073 = stablehlo.add %1046, %1072 : tensor<8x16xf64>
    %1074 = stablehlo.dot_general %1073, %169, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %1075 = stablehlo.transpose %1074, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %1076 = stablehlo.convert %1075 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %1077 = stablehlo.convert %1073 : tensor<8x16xf64>
    %1078 = stablehlo.convert %arg9 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %1079 = stablehlo.dot_general %1077, %1078, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %1080 = stablehlo.reshape %1079 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %1081 = stablehlo.transpose %1080, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %1082 = stablehlo.dot_general %1081, %163, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %1083 = stablehlo.transpose %1082, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %1084 = stablehlo.dot_general %1081, %133, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %1085 = stablehlo.broadcast_in_dim %166, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %1086 = stablehlo.multiply %1084, %1085 : tensor<2x8x8xf64>
    %1087 = stablehlo.multiply %1086, %159 : tensor<2x8x8xf64>
    %cst_201 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1088 = stablehlo.reduce(%1087 init: %cst_201) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %1089 = stablehlo.reshape %1088 : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %1090 = stablehlo.negate %1089 : tensor<2x8x1xf64>
    %1091 = stablehlo.broadcast_in_dim %161, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %1092 = stablehlo.divide %1084, %1091 : tensor<2x8x8xf64>
    %cst_202 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1093 = stablehlo.reduce(%1090 init: %cst_202) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf64>, tensor<f64>) -> tensor<2x8xf64>
    %1094 = stablehlo.broadcast_in_dim %1093, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x8xf64>
    %1095 = stablehlo.add %1092, %1094 : tensor<2x8x8xf64>
    %1096 = stablehlo.multiply %1095, %159 : tensor<2x8x8xf64>
    %cst_203 = stablehlo.constant dense<2.8284271247461903> : tensor<f64>
    %1097 = stablehlo.broadcast_in_dim %cst_203, dims = [] : (tensor<f64>) -> tensor<2x8x8xf64>
    %1098 = stablehlo.divide %1096, %1097 : tensor<2x8x8xf64>
    %1099 = stablehlo.dot_general %1098, %123, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %1100 = stablehlo.transpose %1099, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %1101 = stablehlo.dot_general %1098, %134, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %1102 = stablehlo.transpose %1100, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %1103 = stablehlo.transpose %1083, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %1104 = stablehlo.reshape %1103 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %1105 = stablehlo.dot_general %1104, %118, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %1106 = stablehlo.transpose %1105, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %1107 = stablehlo.convert %1106 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %1108 = stablehlo.convert %1104 : tensor<8x16xf64>
    %1109 = stablehlo.convert %arg8 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %1110 = stablehlo.dot_general %1108, %1109, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %1111 = stablehlo.transpose %1102, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %1112 = stablehlo.reshape %1111 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %1113 = stablehlo.dot_general %1112, %118, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %1114 = stablehlo.transpose %1113, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %1115 = stablehlo.convert %1114 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %1116 = stablehlo.convert %1112 : tensor<8x16xf64>
    %1117 = stablehlo.convert %arg7 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %1118 = stablehlo.dot_general %1116, %1117, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %1119 = stablehlo.add %1110, %1118 : tensor<8x16xf64>
    %1120 = stablehlo.transpose %1101, dims = [1, 0, 2] : (tensor<2x8x8xf64>) -> tensor<8x2x8xf64>
    %1121 = stablehlo.reshape %1120 : (tensor<8x2x8xf64>) -> tensor<8x16xf64>
    %1122 = stablehlo.dot_general %1121, %118, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %1123 = stablehlo.transpose %1122, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %1124 = stablehlo.convert %1123 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %1125 = stablehlo.convert %1121 : tensor<8x16xf64>
    %1126 = stablehlo.convert %arg6 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %1127 = stablehlo.dot_general %1125, %1126, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %1128 = stablehlo.add %1119, %1127 : tensor<8x16xf64>
    %1129 = stablehlo.multiply %110, %1128 : tensor<8x16xf64>
    %cst_204 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1130 = stablehlo.reduce(%1129 init: %cst_204) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %1131 = stablehlo.reshape %1130 : (tensor<8xf64>) -> tensor<8x1xf64>
    %1132 = stablehlo.broadcast_in_dim %113, dims = [0, 1] : (tensor<8x1xf64>) -> tensor<8x16xf64>
    %1133 = stablehlo.multiply %1128, %1132 : tensor<8x16xf64>
    %1134 = stablehlo.multiply %1131, %116 : tensor<8x1xf64>
    %1135 = stablehlo.negate %1133 : tensor<8x16xf64>
    %cst_205 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1136 = stablehlo.reduce(%1135 init: %cst_205) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %1137 = stablehlo.reshape %1136 : (tensor<8xf64>) -> tensor<8x1xf64>
    %1138 = stablehlo.add %1073, %1133 : tensor<8x16xf64>
    %cst_206 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %1139 = stablehlo.broadcast_in_dim %cst_206, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %1140 = stablehlo.divide %1134, %1139 : tensor<8x1xf64>
    %cst_207 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1141 = stablehlo.reduce(%1140 init: %cst_207) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf64>, tensor<f64>) -> tensor<8xf64>
    %1142 = stablehlo.broadcast_in_dim %1141, dims = [0] : (tensor<8xf64>) -> tensor<8x16xf64>
    %1143 = stablehlo.multiply %1142, %104 : tensor<8x16xf64>
    %1144 = stablehlo.negate %1143 : tensor<8x16xf64>
    %cst_208 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1145 = stablehlo.reduce(%1144 init: %cst_208) applies stablehlo.add across dimensions = [1] : (tensor<8x16xf64>, tensor<f64>) -> tensor<8xf64>
    %1146 = stablehlo.reshape %1145 : (tensor<8xf64>) -> tensor<8x1xf64>
    %1147 = stablehlo.add %1138, %1143 : tensor<8x16xf64>
    %1148 = stablehlo.add %1137, %1146 : tensor<8x1xf64>
    %cst_209 = stablehlo.constant dense<1.600000e+01> : tensor<f64>
    %1149 = stablehlo.broadcast_in_dim %cst_209, dims = [] : (tensor<f64>) -> tensor<8x1xf64>
    %1150 = stablehlo.divide %1148, %1149 : tensor<8x1xf64>
    %cst_210 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1151 = stablehlo.reduce(%1150 init: %cst_210) applies stablehlo.add across dimensions = [1] : (tensor<8x1xf64>, tensor<f64>) -> tensor<8xf64>
    %1152 = stablehlo.broadcast_in_dim %1151, dims = [0] : (tensor<8xf64>) -> tensor<8x16xf64>
    %1153 = stablehlo.add %1147, %1152 : tensor<8x16xf64>
    %1154 = stablehlo.dot_general %1153, %91, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x32xf64>) -> tensor<16x32xf64>
    %1155 = stablehlo.transpose %1154, dims = [1, 0] : (tensor<16x32xf64>) -> tensor<32x16xf64>
    %1156 = stablehlo.convert %1155 : (tensor<32x16xf64>) -> tensor<32x16xf32>
    %1157 = stablehlo.convert %1153 : tensor<8x16xf64>
    %1158 = stablehlo.convert %arg5 : (tensor<32x16xf32>) -> tensor<32x16xf64>
    %1159 = stablehlo.dot_general %1157, %1158, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<32x16xf64>) -> tensor<8x32xf64>
    %1160 = stablehlo.multiply %73, %1159 : tensor<8x32xf64>
    %1161 = stablehlo.multiply %1159, %90 : tensor<8x32xf64>
    %cst_211 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %1162 = stablehlo.broadcast_in_dim %cst_211, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %1163 = stablehlo.multiply %1162, %1160 : tensor<8x32xf64>
    %1164 = stablehlo.multiply %1163, %86 : tensor<8x32xf64>
    %1165 = stablehlo.multiply %1164, %84 : tensor<8x32xf64>
    %1166 = stablehlo.add %1164, %1165 : tensor<8x32xf64>
    %cst_212 = stablehlo.constant dense<0.79788456080286541> : tensor<f64>
    %1167 = stablehlo.broadcast_in_dim %cst_212, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %1168 = stablehlo.multiply %1167, %1166 : tensor<8x32xf64>
    %1169 = stablehlo.add %1161, %1168 : tensor<8x32xf64>
    %cst_213 = stablehlo.constant dense<4.471500e-02> : tensor<f64>
    %1170 = stablehlo.broadcast_in_dim %cst_213, dims = [] : (tensor<f64>) -> tensor<8x32xf64>
    %1171 = stablehlo.multiply %1170, %1168 : tensor<8x32xf64>
    %1172 = stablehlo.multiply %1171, %78 : tensor<8x32xf64>
    %1173 = stablehlo.add %1169, %1172 : tensor<8x32xf64>
    %1174 = stablehlo.dot_general %1173, %70, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<8x16xf64>) -> tensor<32x16xf64>
    %1175 = stablehlo.transpose %1174, dims = [1, 0] : (tensor<32x16xf64>) -> tensor<16x32xf64>
    %1176 = stablehlo.convert %1175 : (tensor<16x32xf64>) -> tensor<16x32xf32>
    %1177 = stablehlo.convert %1173 : tensor<8x32xf64>
    %1178 = stablehlo.convert %arg4 : (tensor<16x32xf32>) -> tensor<16x32xf64>
    %1179 = stablehlo.dot_general %1177, %1178, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x32xf64>, tensor<16x32xf64>) -> tensor<8x16xf64>
    %1180 = stablehlo.add %1153, %1179 : tensor<8x16xf64>
    %1181 = stablehlo.dot_general %1180, %65, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<8x16xf64>) -> tensor<16x16xf64>
    %1182 = stablehlo.transpose %1181, dims = [1, 0] : (tensor<16x16xf64>) -> tensor<16x16xf64>
    %1183 = stablehlo.convert %1182 : (tensor<16x16xf64>) -> tensor<16x16xf32>
    %1184 = stablehlo.convert %1180 : tensor<8x16xf64>
    %1185 = stablehlo.convert %arg3 : (tensor<16x16xf32>) -> tensor<16x16xf64>
    %1186 = stablehlo.dot_general %1184, %1185, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf64>, tensor<16x16xf64>) -> tensor<8x16xf64>
    %1187 = stablehlo.reshape %1186 : (tensor<8x16xf64>) -> tensor<8x2x8xf64>
    %1188 = stablehlo.transpose %1187, dims = [1, 0, 2] : (tensor<8x2x8xf64>) -> tensor<2x8x8xf64>
    %1189 = stablehlo.dot_general %1188, %57, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %1190 = stablehlo.transpose %1189, dims = [0, 2, 1] : (tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %1191 = stablehlo.convert %1190 : (tensor<2x8x8xf64>) -> tensor<2x8x8xf32>
    %1192 = stablehlo.convert %1188 : tensor<2x8x8xf64>
    %1193 = stablehlo.convert %26 : (tensor<2x8x8xf32>) -> tensor<2x8x8xf64>
    %1194 = stablehlo.dot_general %1192, %1193, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf64>, tensor<2x8x8xf64>) -> tensor<2x8x8xf64>
    %1195 = stablehlo.broadcast_in_dim %60, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %1196 = stablehlo.multiply %1194, %1195 : tensor<2x8x8xf64>
    %1197 = stablehlo.multiply %1196, %53 : tensor<2x8x8xf64>
    %cst_214 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1198 = stablehlo.reduce(%1197 init: %cst_214) applies stablehlo.add across dimensions = [2] : (tensor<2x8x8xf64>, tensor<f64>) -> tensor<2x8xf64>
    %1199 = stablehlo.reshape %1198 : (tensor<2x8xf64>) -> tensor<2x8x1xf64>
    %1200 = stablehlo.negate %1199 : tensor<2x8x1xf64>
    %1201 = stablehlo.broadcast_in_dim %55, dims = [0, 1, 2] : (tensor<2x8x1xf64>) -> tensor<2x8x8xf64>
    %1202 = stablehlo.divide %1194, %1201 : tensor<2x8x8xf64>
    %cst_215 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1203 = stablehlo.reduce(%1200 init: %cst_215) applies stablehlo.add across dimensions = [2] : (tensor<2x8x1xf64>, tensor<f64>) -> tensor<2x8xf64>
    %1204 = stablehlo.broadcast_in_dim %1203, dims = [0, 1] : (tensor<2x8xf64>) -> tensor<2x8x8xf64>
    %1205 = stablehlo.add %1202, %1204 : tensor<2x8x8xf64>
    %1206 = stablehlo.multiply %1205, %53 : tensor<2x8x8xf64>
    %cst_216 = stablehlo.constant dense<2.8284271247461903> : tensor<f64>
    %1207 = stablehlo.broadcast_in_dim %cst_216, dims = [] : (tensor<f64>) -> tensor<2x8x8xf64>
    %1208 = stablehlo.divide %1206, %1207 : tensor<2x8x8xf64>
    %1209 = stablehlo.convert %1208 : (tensor<2x8x8xf64>) -> tensor<2x8x8xf32>
    %1210 = stablehlo.dot_general %1209, %20, batching_dims = [0] x [0], contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %1211 = stablehlo.transpose %1210, dims = [0, 2, 1] : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %1212 = stablehlo.dot_general %1209, %27, batching_dims = [0] x [0], contracting_dims = [2] x [2], precision = [DEFAULT, DEFAULT] : (tensor<2x8x8xf32>, tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %1213 = stablehlo.transpose %1211, dims = [0, 2, 1] : (tensor<2x8x8xf32>) -> tensor<2x8x8xf32>
    %1214 = stablehlo.transpose %1191, dims = [1, 0, 2] : (tensor<2x8x8xf32>) -> tensor<8x2x8xf32>
    %1215 = stablehlo.reshape %1214 : (tensor<8x2x8xf32>) -> tensor<8x16xf32>
    %1216 = stablehlo.dot_general %1215, %17, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
    %1217 = stablehlo.transpose %1216, dims = [1, 0] : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %1218 = stablehlo.transpose %1213, dims = [1, 0, 2] : (tensor<2x8x8xf32>) -> tensor<8x2x8xf32>
    %1219 = stablehlo.reshape %1218 : (tensor<8x2x8xf32>) -> tensor<8x16xf32>
    %1220 = stablehlo.dot_general %1219, %17, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
    %1221 = stablehlo.transpose %1220, dims = [1, 0] : (tensor<16x16xf32>) -> tensor<16x16xf32>
    %1222 = stablehlo.transpose %1212, dims = [1, 0, 2] : (tensor<2x8x8xf32>) -> tensor<8x2x8xf32>
    %1223 = stablehlo.reshape %1222 : (tensor<8x2x8xf32>) -> tensor<8x16xf32>
    %1224 = stablehlo.dot_general %1223, %17, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<16x16xf32>
    %1225 = stablehlo.transpose %1224, dims = [1, 0] : (tensor<16x16xf32>) -> tensor<16x16xf32>
    return %615, %1225, %1221, %1217, %1183, %1176, %1156, %1124, %1115, %1107, %1076, %1069, %1049, %1017, %1008, %1000, %969, %962, %942, %910, %901, %893, %862, %855, %835, %803, %794, %786, %755, %748, %728, %696, %687, %679, %648, %641, %621 : tensor<f64>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x32xf32>, tensor<32x16xf32>
  }
}
