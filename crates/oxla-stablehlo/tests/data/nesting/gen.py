"""Writes the bytecode files of tests/nesting.rs (JAX 0.10.2). Run from this folder:
    python gen.py
callsite500.mlirbc: jax.export of sin(x) * 2 + 1 reached through 500 nested Python calls, with
    full tracebacks in locations (a 500-deep `callsite(... at callsite(...))` chain).
arrayN.mlirbc: a portable artifact whose function carries an attribute of N nested arrays.
dag60.mlirbc: plain MLIR bytecode of a module whose attribute doubles 60 times (a_k = [a_k-1,
    a_k-1]; uniquing stores each level once).
"""
import io
import sys

import numpy as np
import jax
import jax.numpy as jnp
from jax import export
from jax._src.lib import _jax
import jax._src.interpreters.mlir

jax.config.update("jax_traceback_in_locations_limit", 100000)
sys.setrecursionlimit(5000)


def deep(x, d):
    if d == 0:
        return jnp.sin(x) * 2.0 + 1.0
    return deep(x, d - 1)


exp = export.export(jax.jit(lambda x: deep(x, 500)))(np.arange(4, dtype=np.float32))
open("callsite500.mlirbc", "wb").write(exp.mlir_module_serialized)

for n in (1000, 4000, 4200):
    attr = "[" * n + "1 : i64" + "]" * n
    text = f"""module @m {{
  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> attributes {{foo = {attr}}} {{
    %0 = stablehlo.add %arg0, %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }}
}}"""
    open(f"array{n}.mlirbc", "wb").write(_jax.mlir.serialize_portable_artifact(text, "1.0.0", False))

with jax._src.interpreters.mlir.make_ir_context():
    from jax._src.lib.mlir import ir

    m = ir.Module.parse("""module @m {
  func.func public @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
}""")
    a = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 1)
    for _ in range(60):
        a = ir.ArrayAttr.get([a, a])
    m.operation.attributes["foo"] = a
    f = io.BytesIO()
    m.operation.write_bytecode(f)
    open("dag60.mlirbc", "wb").write(f.getvalue())
