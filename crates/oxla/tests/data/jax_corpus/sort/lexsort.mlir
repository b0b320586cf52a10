module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5xi32>, %arg1: tensor<5xi32>) -> (tensor<5xi64> {jax.result_info = "result"}) {
    %0 = call @lexsort(%arg0, %arg1) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi64>
    return %0 : tensor<5xi64>
  }
  func.func private @lexsort(%arg0: tensor<5xi32>, %arg1: tensor<5xi32>) -> tensor<5xi64> {
    %0 = stablehlo.iota dim = 0 : tensor<5xi64>
    %1:3 = "stablehlo.sort"(%arg1, %arg0, %0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>, %arg4: tensor<i32>, %arg5: tensor<i32>, %arg6: tensor<i64>, %arg7: tensor<i64>):
      %2 = stablehlo.compare LT, %arg4, %arg5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %3 = stablehlo.compare LT, %arg2, %arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %4 = stablehlo.compare EQ, %arg2, %arg3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %5 = stablehlo.and %4, %2 : tensor<i1>
      %6 = stablehlo.or %3, %5 : tensor<i1>
      stablehlo.return %6 : tensor<i1>
    }) : (tensor<5xi32>, tensor<5xi32>, tensor<5xi64>) -> (tensor<5xi32>, tensor<5xi32>, tensor<5xi64>)
    return %1#2 : tensor<5xi64>
  }
}
