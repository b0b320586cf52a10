module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xf64>) -> (tensor<5x5xf64> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [0:1, 0:5, 0:5] : (tensor<2x5x5xf64>) -> tensor<1x5x5xf64>
    %1 = stablehlo.reshape %0 : (tensor<1x5x5xf64>) -> tensor<5x5xf64>
    %2 = stablehlo.slice %arg0 [1:2, 0:5, 0:5] : (tensor<2x5x5xf64>) -> tensor<1x5x5xf64>
    %3 = stablehlo.reshape %2 : (tensor<1x5x5xf64>) -> tensor<5x5xf64>
    %4 = stablehlo.slice %arg0 [0:1, 0:5, 0:5] : (tensor<2x5x5xf64>) -> tensor<1x5x5xf64>
    %5 = stablehlo.reshape %4 : (tensor<1x5x5xf64>) -> tensor<5x5xf64>
    %6 = stablehlo.dot_general %3, %1, contracting_dims = [0] x [1], precision = [DEFAULT, DEFAULT] : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
    %7 = stablehlo.dot_general %6, %5, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x5xf64>, tensor<5x5xf64>) -> tensor<5x5xf64>
    return %7 : tensor<5x5xf64>
  }
}
