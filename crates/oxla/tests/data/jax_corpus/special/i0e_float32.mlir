module @jit_i0e attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf32>) -> (tensor<20xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.abs %arg0 : tensor<20xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %cst_1 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %4 = stablehlo.multiply %1, %0 : tensor<20xf32>
    %5 = stablehlo.subtract %4, %2 : tensor<20xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %9 = stablehlo.multiply %5, %6 : tensor<20xf32>
    %10 = stablehlo.subtract %9, %7 : tensor<20xf32>
    %cst_5 = stablehlo.constant dense<-1.30002498E-8> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %12 = stablehlo.add %10, %11 : tensor<20xf32>
    %13 = stablehlo.multiply %5, %12 : tensor<20xf32>
    %14 = stablehlo.subtract %13, %6 : tensor<20xf32>
    %cst_6 = stablehlo.constant dense<6.04699508E-8> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %16 = stablehlo.add %14, %15 : tensor<20xf32>
    %17 = stablehlo.multiply %5, %16 : tensor<20xf32>
    %18 = stablehlo.subtract %17, %12 : tensor<20xf32>
    %cst_7 = stablehlo.constant dense<-2.67079372E-7> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %20 = stablehlo.add %18, %19 : tensor<20xf32>
    %21 = stablehlo.multiply %5, %20 : tensor<20xf32>
    %22 = stablehlo.subtract %21, %16 : tensor<20xf32>
    %cst_8 = stablehlo.constant dense<1.11738757E-6> : tensor<f32>
    %23 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %24 = stablehlo.add %22, %23 : tensor<20xf32>
    %25 = stablehlo.multiply %5, %24 : tensor<20xf32>
    %26 = stablehlo.subtract %25, %20 : tensor<20xf32>
    %cst_9 = stablehlo.constant dense<-4.41673819E-6> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %28 = stablehlo.add %26, %27 : tensor<20xf32>
    %29 = stablehlo.multiply %5, %28 : tensor<20xf32>
    %30 = stablehlo.subtract %29, %24 : tensor<20xf32>
    %cst_10 = stablehlo.constant dense<1.64484482E-5> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %32 = stablehlo.add %30, %31 : tensor<20xf32>
    %33 = stablehlo.multiply %5, %32 : tensor<20xf32>
    %34 = stablehlo.subtract %33, %28 : tensor<20xf32>
    %cst_11 = stablehlo.constant dense<-5.75419508E-5> : tensor<f32>
    %35 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %36 = stablehlo.add %34, %35 : tensor<20xf32>
    %37 = stablehlo.multiply %5, %36 : tensor<20xf32>
    %38 = stablehlo.subtract %37, %32 : tensor<20xf32>
    %cst_12 = stablehlo.constant dense<1.88502891E-4> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %40 = stablehlo.add %38, %39 : tensor<20xf32>
    %41 = stablehlo.multiply %5, %40 : tensor<20xf32>
    %42 = stablehlo.subtract %41, %36 : tensor<20xf32>
    %cst_13 = stablehlo.constant dense<-5.76375576E-4> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %44 = stablehlo.add %42, %43 : tensor<20xf32>
    %45 = stablehlo.multiply %5, %44 : tensor<20xf32>
    %46 = stablehlo.subtract %45, %40 : tensor<20xf32>
    %cst_14 = stablehlo.constant dense<0.00163947558> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %48 = stablehlo.add %46, %47 : tensor<20xf32>
    %49 = stablehlo.multiply %5, %48 : tensor<20xf32>
    %50 = stablehlo.subtract %49, %44 : tensor<20xf32>
    %cst_15 = stablehlo.constant dense<-4.324310e-03> : tensor<f32>
    %51 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %52 = stablehlo.add %50, %51 : tensor<20xf32>
    %53 = stablehlo.multiply %5, %52 : tensor<20xf32>
    %54 = stablehlo.subtract %53, %48 : tensor<20xf32>
    %cst_16 = stablehlo.constant dense<0.0105464607> : tensor<f32>
    %55 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %56 = stablehlo.add %54, %55 : tensor<20xf32>
    %57 = stablehlo.multiply %5, %56 : tensor<20xf32>
    %58 = stablehlo.subtract %57, %52 : tensor<20xf32>
    %cst_17 = stablehlo.constant dense<-0.0237374157> : tensor<f32>
    %59 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %60 = stablehlo.add %58, %59 : tensor<20xf32>
    %61 = stablehlo.multiply %5, %60 : tensor<20xf32>
    %62 = stablehlo.subtract %61, %56 : tensor<20xf32>
    %cst_18 = stablehlo.constant dense<0.0493052825> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %64 = stablehlo.add %62, %63 : tensor<20xf32>
    %65 = stablehlo.multiply %5, %64 : tensor<20xf32>
    %66 = stablehlo.subtract %65, %60 : tensor<20xf32>
    %cst_19 = stablehlo.constant dense<-9.490110e-02> : tensor<f32>
    %67 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %68 = stablehlo.add %66, %67 : tensor<20xf32>
    %69 = stablehlo.multiply %5, %68 : tensor<20xf32>
    %70 = stablehlo.subtract %69, %64 : tensor<20xf32>
    %cst_20 = stablehlo.constant dense<0.171620905> : tensor<f32>
    %71 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %72 = stablehlo.add %70, %71 : tensor<20xf32>
    %73 = stablehlo.multiply %5, %72 : tensor<20xf32>
    %74 = stablehlo.subtract %73, %68 : tensor<20xf32>
    %cst_21 = stablehlo.constant dense<-0.304682672> : tensor<f32>
    %75 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %76 = stablehlo.add %74, %75 : tensor<20xf32>
    %77 = stablehlo.multiply %5, %76 : tensor<20xf32>
    %78 = stablehlo.subtract %77, %72 : tensor<20xf32>
    %cst_22 = stablehlo.constant dense<0.676795303> : tensor<f32>
    %79 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %80 = stablehlo.add %78, %79 : tensor<20xf32>
    %81 = stablehlo.subtract %80, %72 : tensor<20xf32>
    %cst_23 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %82 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %83 = stablehlo.multiply %82, %81 : tensor<20xf32>
    %84 = stablehlo.divide %3, %0 : tensor<20xf32>
    %85 = stablehlo.subtract %84, %2 : tensor<20xf32>
    %cst_24 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %86 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %cst_25 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %87 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %cst_26 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %88 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %89 = stablehlo.multiply %85, %86 : tensor<20xf32>
    %90 = stablehlo.subtract %89, %87 : tensor<20xf32>
    %cst_27 = stablehlo.constant dense<3.39623196E-9> : tensor<f32>
    %91 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %92 = stablehlo.add %90, %91 : tensor<20xf32>
    %93 = stablehlo.multiply %85, %92 : tensor<20xf32>
    %94 = stablehlo.subtract %93, %86 : tensor<20xf32>
    %cst_28 = stablehlo.constant dense<2.26666899E-8> : tensor<f32>
    %95 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %96 = stablehlo.add %94, %95 : tensor<20xf32>
    %97 = stablehlo.multiply %85, %96 : tensor<20xf32>
    %98 = stablehlo.subtract %97, %92 : tensor<20xf32>
    %cst_29 = stablehlo.constant dense<2.04891862E-7> : tensor<f32>
    %99 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %100 = stablehlo.add %98, %99 : tensor<20xf32>
    %101 = stablehlo.multiply %85, %100 : tensor<20xf32>
    %102 = stablehlo.subtract %101, %96 : tensor<20xf32>
    %cst_30 = stablehlo.constant dense<2.89137051E-6> : tensor<f32>
    %103 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %104 = stablehlo.add %102, %103 : tensor<20xf32>
    %105 = stablehlo.multiply %85, %104 : tensor<20xf32>
    %106 = stablehlo.subtract %105, %100 : tensor<20xf32>
    %cst_31 = stablehlo.constant dense<6.88975852E-5> : tensor<f32>
    %107 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %108 = stablehlo.add %106, %107 : tensor<20xf32>
    %109 = stablehlo.multiply %85, %108 : tensor<20xf32>
    %110 = stablehlo.subtract %109, %104 : tensor<20xf32>
    %cst_32 = stablehlo.constant dense<0.00336911646> : tensor<f32>
    %111 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %112 = stablehlo.add %110, %111 : tensor<20xf32>
    %113 = stablehlo.multiply %85, %112 : tensor<20xf32>
    %114 = stablehlo.subtract %113, %108 : tensor<20xf32>
    %cst_33 = stablehlo.constant dense<0.804490387> : tensor<f32>
    %115 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %116 = stablehlo.add %114, %115 : tensor<20xf32>
    %117 = stablehlo.subtract %116, %108 : tensor<20xf32>
    %cst_34 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %118 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %119 = stablehlo.multiply %118, %117 : tensor<20xf32>
    %120 = stablehlo.sqrt %0 : tensor<20xf32>
    %121 = stablehlo.divide %119, %120 : tensor<20xf32>
    %cst_35 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %122 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %123 = stablehlo.compare LE, %0, %122, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %124 = stablehlo.select %123, %83, %121 : tensor<20xi1>, tensor<20xf32>
    return %124 : tensor<20xf32>
  }
}
