module @jit_i0e attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf64>) -> (tensor<20xf64> {jax.result_info = "result"}) {
    %0 = stablehlo.abs %arg0 : tensor<20xf64>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %cst_1 = stablehlo.constant dense<3.200000e+01> : tensor<f64>
    %3 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %4 = stablehlo.multiply %1, %0 : tensor<20xf64>
    %5 = stablehlo.subtract %4, %2 : tensor<20xf64>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %6 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %7 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %8 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %9 = stablehlo.multiply %5, %6 : tensor<20xf64>
    %10 = stablehlo.subtract %9, %7 : tensor<20xf64>
    %cst_5 = stablehlo.constant dense<-4.4153416464793395E-18> : tensor<f64>
    %11 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %12 = stablehlo.add %10, %11 : tensor<20xf64>
    %13 = stablehlo.multiply %5, %12 : tensor<20xf64>
    %14 = stablehlo.subtract %13, %6 : tensor<20xf64>
    %cst_6 = stablehlo.constant dense<3.3307945188222384E-17> : tensor<f64>
    %15 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %16 = stablehlo.add %14, %15 : tensor<20xf64>
    %17 = stablehlo.multiply %5, %16 : tensor<20xf64>
    %18 = stablehlo.subtract %17, %12 : tensor<20xf64>
    %cst_7 = stablehlo.constant dense<-2.4312798465479549E-16> : tensor<f64>
    %19 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %20 = stablehlo.add %18, %19 : tensor<20xf64>
    %21 = stablehlo.multiply %5, %20 : tensor<20xf64>
    %22 = stablehlo.subtract %21, %16 : tensor<20xf64>
    %cst_8 = stablehlo.constant dense<1.7153912855551331E-15> : tensor<f64>
    %23 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %24 = stablehlo.add %22, %23 : tensor<20xf64>
    %25 = stablehlo.multiply %5, %24 : tensor<20xf64>
    %26 = stablehlo.subtract %25, %20 : tensor<20xf64>
    %cst_9 = stablehlo.constant dense<-1.1685332877993451E-14> : tensor<f64>
    %27 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %28 = stablehlo.add %26, %27 : tensor<20xf64>
    %29 = stablehlo.multiply %5, %28 : tensor<20xf64>
    %30 = stablehlo.subtract %29, %24 : tensor<20xf64>
    %cst_10 = stablehlo.constant dense<7.6761854986049361E-14> : tensor<f64>
    %31 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %32 = stablehlo.add %30, %31 : tensor<20xf64>
    %33 = stablehlo.multiply %5, %32 : tensor<20xf64>
    %34 = stablehlo.subtract %33, %28 : tensor<20xf64>
    %cst_11 = stablehlo.constant dense<-4.856446783111929E-13> : tensor<f64>
    %35 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %36 = stablehlo.add %34, %35 : tensor<20xf64>
    %37 = stablehlo.multiply %5, %36 : tensor<20xf64>
    %38 = stablehlo.subtract %37, %32 : tensor<20xf64>
    %cst_12 = stablehlo.constant dense<2.9550526631296399E-12> : tensor<f64>
    %39 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %40 = stablehlo.add %38, %39 : tensor<20xf64>
    %41 = stablehlo.multiply %5, %40 : tensor<20xf64>
    %42 = stablehlo.subtract %41, %36 : tensor<20xf64>
    %cst_13 = stablehlo.constant dense<-1.7268262914415559E-11> : tensor<f64>
    %43 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %44 = stablehlo.add %42, %43 : tensor<20xf64>
    %45 = stablehlo.multiply %5, %44 : tensor<20xf64>
    %46 = stablehlo.subtract %45, %40 : tensor<20xf64>
    %cst_14 = stablehlo.constant dense<9.6758090353732369E-11> : tensor<f64>
    %47 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %48 = stablehlo.add %46, %47 : tensor<20xf64>
    %49 = stablehlo.multiply %5, %48 : tensor<20xf64>
    %50 = stablehlo.subtract %49, %44 : tensor<20xf64>
    %cst_15 = stablehlo.constant dense<-5.1897956016352627E-10> : tensor<f64>
    %51 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %52 = stablehlo.add %50, %51 : tensor<20xf64>
    %53 = stablehlo.multiply %5, %52 : tensor<20xf64>
    %54 = stablehlo.subtract %53, %48 : tensor<20xf64>
    %cst_16 = stablehlo.constant dense<2.6598237246823866E-9> : tensor<f64>
    %55 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %56 = stablehlo.add %54, %55 : tensor<20xf64>
    %57 = stablehlo.multiply %5, %56 : tensor<20xf64>
    %58 = stablehlo.subtract %57, %52 : tensor<20xf64>
    %cst_17 = stablehlo.constant dense<-1.300025009986248E-8> : tensor<f64>
    %59 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %60 = stablehlo.add %58, %59 : tensor<20xf64>
    %61 = stablehlo.multiply %5, %60 : tensor<20xf64>
    %62 = stablehlo.subtract %61, %56 : tensor<20xf64>
    %cst_18 = stablehlo.constant dense<6.0469950225419186E-8> : tensor<f64>
    %63 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %64 = stablehlo.add %62, %63 : tensor<20xf64>
    %65 = stablehlo.multiply %5, %64 : tensor<20xf64>
    %66 = stablehlo.subtract %65, %60 : tensor<20xf64>
    %cst_19 = stablehlo.constant dense<-2.6707938539406119E-7> : tensor<f64>
    %67 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %68 = stablehlo.add %66, %67 : tensor<20xf64>
    %69 = stablehlo.multiply %5, %68 : tensor<20xf64>
    %70 = stablehlo.subtract %69, %64 : tensor<20xf64>
    %cst_20 = stablehlo.constant dense<1.1173875391201037E-6> : tensor<f64>
    %71 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %72 = stablehlo.add %70, %71 : tensor<20xf64>
    %73 = stablehlo.multiply %5, %72 : tensor<20xf64>
    %74 = stablehlo.subtract %73, %68 : tensor<20xf64>
    %cst_21 = stablehlo.constant dense<-4.4167383584587505E-6> : tensor<f64>
    %75 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %76 = stablehlo.add %74, %75 : tensor<20xf64>
    %77 = stablehlo.multiply %5, %76 : tensor<20xf64>
    %78 = stablehlo.subtract %77, %72 : tensor<20xf64>
    %cst_22 = stablehlo.constant dense<1.6448448070728896E-5> : tensor<f64>
    %79 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %80 = stablehlo.add %78, %79 : tensor<20xf64>
    %81 = stablehlo.multiply %5, %80 : tensor<20xf64>
    %82 = stablehlo.subtract %81, %76 : tensor<20xf64>
    %cst_23 = stablehlo.constant dense<-5.754195010082104E-5> : tensor<f64>
    %83 = stablehlo.broadcast_in_dim %cst_23, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %84 = stablehlo.add %82, %83 : tensor<20xf64>
    %85 = stablehlo.multiply %5, %84 : tensor<20xf64>
    %86 = stablehlo.subtract %85, %80 : tensor<20xf64>
    %cst_24 = stablehlo.constant dense<1.8850288509584165E-4> : tensor<f64>
    %87 = stablehlo.broadcast_in_dim %cst_24, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %88 = stablehlo.add %86, %87 : tensor<20xf64>
    %89 = stablehlo.multiply %5, %88 : tensor<20xf64>
    %90 = stablehlo.subtract %89, %84 : tensor<20xf64>
    %cst_25 = stablehlo.constant dense<-5.7637557453858236E-4> : tensor<f64>
    %91 = stablehlo.broadcast_in_dim %cst_25, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %92 = stablehlo.add %90, %91 : tensor<20xf64>
    %93 = stablehlo.multiply %5, %92 : tensor<20xf64>
    %94 = stablehlo.subtract %93, %88 : tensor<20xf64>
    %cst_26 = stablehlo.constant dense<0.0016394756169413357> : tensor<f64>
    %95 = stablehlo.broadcast_in_dim %cst_26, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %96 = stablehlo.add %94, %95 : tensor<20xf64>
    %97 = stablehlo.multiply %5, %96 : tensor<20xf64>
    %98 = stablehlo.subtract %97, %92 : tensor<20xf64>
    %cst_27 = stablehlo.constant dense<-0.0043243099950505759> : tensor<f64>
    %99 = stablehlo.broadcast_in_dim %cst_27, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %100 = stablehlo.add %98, %99 : tensor<20xf64>
    %101 = stablehlo.multiply %5, %100 : tensor<20xf64>
    %102 = stablehlo.subtract %101, %96 : tensor<20xf64>
    %cst_28 = stablehlo.constant dense<0.010546460394594998> : tensor<f64>
    %103 = stablehlo.broadcast_in_dim %cst_28, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %104 = stablehlo.add %102, %103 : tensor<20xf64>
    %105 = stablehlo.multiply %5, %104 : tensor<20xf64>
    %106 = stablehlo.subtract %105, %100 : tensor<20xf64>
    %cst_29 = stablehlo.constant dense<-0.023737414805899471> : tensor<f64>
    %107 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %108 = stablehlo.add %106, %107 : tensor<20xf64>
    %109 = stablehlo.multiply %5, %108 : tensor<20xf64>
    %110 = stablehlo.subtract %109, %104 : tensor<20xf64>
    %cst_30 = stablehlo.constant dense<0.049305284239670712> : tensor<f64>
    %111 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %112 = stablehlo.add %110, %111 : tensor<20xf64>
    %113 = stablehlo.multiply %5, %112 : tensor<20xf64>
    %114 = stablehlo.subtract %113, %108 : tensor<20xf64>
    %cst_31 = stablehlo.constant dense<-0.094901097048047639> : tensor<f64>
    %115 = stablehlo.broadcast_in_dim %cst_31, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %116 = stablehlo.add %114, %115 : tensor<20xf64>
    %117 = stablehlo.multiply %5, %116 : tensor<20xf64>
    %118 = stablehlo.subtract %117, %112 : tensor<20xf64>
    %cst_32 = stablehlo.constant dense<0.17162090152220877> : tensor<f64>
    %119 = stablehlo.broadcast_in_dim %cst_32, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %120 = stablehlo.add %118, %119 : tensor<20xf64>
    %121 = stablehlo.multiply %5, %120 : tensor<20xf64>
    %122 = stablehlo.subtract %121, %116 : tensor<20xf64>
    %cst_33 = stablehlo.constant dense<-0.3046826723431984> : tensor<f64>
    %123 = stablehlo.broadcast_in_dim %cst_33, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %124 = stablehlo.add %122, %123 : tensor<20xf64>
    %125 = stablehlo.multiply %5, %124 : tensor<20xf64>
    %126 = stablehlo.subtract %125, %120 : tensor<20xf64>
    %cst_34 = stablehlo.constant dense<0.67679527440947607> : tensor<f64>
    %127 = stablehlo.broadcast_in_dim %cst_34, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %128 = stablehlo.add %126, %127 : tensor<20xf64>
    %129 = stablehlo.subtract %128, %120 : tensor<20xf64>
    %cst_35 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %130 = stablehlo.broadcast_in_dim %cst_35, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %131 = stablehlo.multiply %130, %129 : tensor<20xf64>
    %132 = stablehlo.divide %3, %0 : tensor<20xf64>
    %133 = stablehlo.subtract %132, %2 : tensor<20xf64>
    %cst_36 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %134 = stablehlo.broadcast_in_dim %cst_36, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %cst_37 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %135 = stablehlo.broadcast_in_dim %cst_37, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %cst_38 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %136 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %137 = stablehlo.multiply %133, %134 : tensor<20xf64>
    %138 = stablehlo.subtract %137, %135 : tensor<20xf64>
    %cst_39 = stablehlo.constant dense<-7.2331804878747538E-18> : tensor<f64>
    %139 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %140 = stablehlo.add %138, %139 : tensor<20xf64>
    %141 = stablehlo.multiply %133, %140 : tensor<20xf64>
    %142 = stablehlo.subtract %141, %134 : tensor<20xf64>
    %cst_40 = stablehlo.constant dense<-4.8305044859441819E-18> : tensor<f64>
    %143 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %144 = stablehlo.add %142, %143 : tensor<20xf64>
    %145 = stablehlo.multiply %133, %144 : tensor<20xf64>
    %146 = stablehlo.subtract %145, %140 : tensor<20xf64>
    %cst_41 = stablehlo.constant dense<4.4656214202967598E-17> : tensor<f64>
    %147 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %148 = stablehlo.add %146, %147 : tensor<20xf64>
    %149 = stablehlo.multiply %133, %148 : tensor<20xf64>
    %150 = stablehlo.subtract %149, %144 : tensor<20xf64>
    %cst_42 = stablehlo.constant dense<3.4612228676974612E-17> : tensor<f64>
    %151 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %152 = stablehlo.add %150, %151 : tensor<20xf64>
    %153 = stablehlo.multiply %133, %152 : tensor<20xf64>
    %154 = stablehlo.subtract %153, %148 : tensor<20xf64>
    %cst_43 = stablehlo.constant dense<-2.8276239805165836E-16> : tensor<f64>
    %155 = stablehlo.broadcast_in_dim %cst_43, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %156 = stablehlo.add %154, %155 : tensor<20xf64>
    %157 = stablehlo.multiply %133, %156 : tensor<20xf64>
    %158 = stablehlo.subtract %157, %152 : tensor<20xf64>
    %cst_44 = stablehlo.constant dense<-3.425485619677219E-16> : tensor<f64>
    %159 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %160 = stablehlo.add %158, %159 : tensor<20xf64>
    %161 = stablehlo.multiply %133, %160 : tensor<20xf64>
    %162 = stablehlo.subtract %161, %156 : tensor<20xf64>
    %cst_45 = stablehlo.constant dense<1.7725601330565263E-15> : tensor<f64>
    %163 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %164 = stablehlo.add %162, %163 : tensor<20xf64>
    %165 = stablehlo.multiply %133, %164 : tensor<20xf64>
    %166 = stablehlo.subtract %165, %160 : tensor<20xf64>
    %cst_46 = stablehlo.constant dense<3.8116806693526224E-15> : tensor<f64>
    %167 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %168 = stablehlo.add %166, %167 : tensor<20xf64>
    %169 = stablehlo.multiply %133, %168 : tensor<20xf64>
    %170 = stablehlo.subtract %169, %164 : tensor<20xf64>
    %cst_47 = stablehlo.constant dense<-9.5548466988283073E-15> : tensor<f64>
    %171 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %172 = stablehlo.add %170, %171 : tensor<20xf64>
    %173 = stablehlo.multiply %133, %172 : tensor<20xf64>
    %174 = stablehlo.subtract %173, %168 : tensor<20xf64>
    %cst_48 = stablehlo.constant dense<-4.1505693472872222E-14> : tensor<f64>
    %175 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %176 = stablehlo.add %174, %175 : tensor<20xf64>
    %177 = stablehlo.multiply %133, %176 : tensor<20xf64>
    %178 = stablehlo.subtract %177, %172 : tensor<20xf64>
    %cst_49 = stablehlo.constant dense<1.54008621752141E-14> : tensor<f64>
    %179 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %180 = stablehlo.add %178, %179 : tensor<20xf64>
    %181 = stablehlo.multiply %133, %180 : tensor<20xf64>
    %182 = stablehlo.subtract %181, %176 : tensor<20xf64>
    %cst_50 = stablehlo.constant dense<3.8527783827421426E-13> : tensor<f64>
    %183 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %184 = stablehlo.add %182, %183 : tensor<20xf64>
    %185 = stablehlo.multiply %133, %184 : tensor<20xf64>
    %186 = stablehlo.subtract %185, %180 : tensor<20xf64>
    %cst_51 = stablehlo.constant dense<7.180124451383666E-13> : tensor<f64>
    %187 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %188 = stablehlo.add %186, %187 : tensor<20xf64>
    %189 = stablehlo.multiply %133, %188 : tensor<20xf64>
    %190 = stablehlo.subtract %189, %184 : tensor<20xf64>
    %cst_52 = stablehlo.constant dense<-1.7941785315068062E-12> : tensor<f64>
    %191 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %192 = stablehlo.add %190, %191 : tensor<20xf64>
    %193 = stablehlo.multiply %133, %192 : tensor<20xf64>
    %194 = stablehlo.subtract %193, %188 : tensor<20xf64>
    %cst_53 = stablehlo.constant dense<-1.3215811840447713E-11> : tensor<f64>
    %195 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %196 = stablehlo.add %194, %195 : tensor<20xf64>
    %197 = stablehlo.multiply %133, %196 : tensor<20xf64>
    %198 = stablehlo.subtract %197, %192 : tensor<20xf64>
    %cst_54 = stablehlo.constant dense<-3.1499165279632416E-11> : tensor<f64>
    %199 = stablehlo.broadcast_in_dim %cst_54, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %200 = stablehlo.add %198, %199 : tensor<20xf64>
    %201 = stablehlo.multiply %133, %200 : tensor<20xf64>
    %202 = stablehlo.subtract %201, %196 : tensor<20xf64>
    %cst_55 = stablehlo.constant dense<1.1889147107846439E-11> : tensor<f64>
    %203 = stablehlo.broadcast_in_dim %cst_55, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %204 = stablehlo.add %202, %203 : tensor<20xf64>
    %205 = stablehlo.multiply %133, %204 : tensor<20xf64>
    %206 = stablehlo.subtract %205, %200 : tensor<20xf64>
    %cst_56 = stablehlo.constant dense<4.9406023882249701E-10> : tensor<f64>
    %207 = stablehlo.broadcast_in_dim %cst_56, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %208 = stablehlo.add %206, %207 : tensor<20xf64>
    %209 = stablehlo.multiply %133, %208 : tensor<20xf64>
    %210 = stablehlo.subtract %209, %204 : tensor<20xf64>
    %cst_57 = stablehlo.constant dense<3.3962320257083865E-9> : tensor<f64>
    %211 = stablehlo.broadcast_in_dim %cst_57, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %212 = stablehlo.add %210, %211 : tensor<20xf64>
    %213 = stablehlo.multiply %133, %212 : tensor<20xf64>
    %214 = stablehlo.subtract %213, %208 : tensor<20xf64>
    %cst_58 = stablehlo.constant dense<2.266668990498178E-8> : tensor<f64>
    %215 = stablehlo.broadcast_in_dim %cst_58, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %216 = stablehlo.add %214, %215 : tensor<20xf64>
    %217 = stablehlo.multiply %133, %216 : tensor<20xf64>
    %218 = stablehlo.subtract %217, %212 : tensor<20xf64>
    %cst_59 = stablehlo.constant dense<2.0489185894690638E-7> : tensor<f64>
    %219 = stablehlo.broadcast_in_dim %cst_59, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %220 = stablehlo.add %218, %219 : tensor<20xf64>
    %221 = stablehlo.multiply %133, %220 : tensor<20xf64>
    %222 = stablehlo.subtract %221, %216 : tensor<20xf64>
    %cst_60 = stablehlo.constant dense<2.8913705208347567E-6> : tensor<f64>
    %223 = stablehlo.broadcast_in_dim %cst_60, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %224 = stablehlo.add %222, %223 : tensor<20xf64>
    %225 = stablehlo.multiply %133, %224 : tensor<20xf64>
    %226 = stablehlo.subtract %225, %220 : tensor<20xf64>
    %cst_61 = stablehlo.constant dense<6.8897583469168245E-5> : tensor<f64>
    %227 = stablehlo.broadcast_in_dim %cst_61, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %228 = stablehlo.add %226, %227 : tensor<20xf64>
    %229 = stablehlo.multiply %133, %228 : tensor<20xf64>
    %230 = stablehlo.subtract %229, %224 : tensor<20xf64>
    %cst_62 = stablehlo.constant dense<0.0033691164782556943> : tensor<f64>
    %231 = stablehlo.broadcast_in_dim %cst_62, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %232 = stablehlo.add %230, %231 : tensor<20xf64>
    %233 = stablehlo.multiply %133, %232 : tensor<20xf64>
    %234 = stablehlo.subtract %233, %228 : tensor<20xf64>
    %cst_63 = stablehlo.constant dense<0.80449041101410879> : tensor<f64>
    %235 = stablehlo.broadcast_in_dim %cst_63, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %236 = stablehlo.add %234, %235 : tensor<20xf64>
    %237 = stablehlo.subtract %236, %228 : tensor<20xf64>
    %cst_64 = stablehlo.constant dense<5.000000e-01> : tensor<f64>
    %238 = stablehlo.broadcast_in_dim %cst_64, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %239 = stablehlo.multiply %238, %237 : tensor<20xf64>
    %240 = stablehlo.sqrt %0 : tensor<20xf64>
    %241 = stablehlo.divide %239, %240 : tensor<20xf64>
    %cst_65 = stablehlo.constant dense<8.000000e+00> : tensor<f64>
    %242 = stablehlo.broadcast_in_dim %cst_65, dims = [] : (tensor<f64>) -> tensor<20xf64>
    %243 = stablehlo.compare LE, %0, %242, FLOAT : (tensor<20xf64>, tensor<20xf64>) -> tensor<20xi1>
    %244 = stablehlo.select %243, %131, %241 : tensor<20xi1>, tensor<20xf64>
    return %244 : tensor<20xf64>
  }
}
