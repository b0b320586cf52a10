"""XLA's HLO for the 20 bench programs (../shared/bench/*/program.mlir), with JAX 0.10.2's
jaxlib: `NAME.before.hlo` is the module XLA receives (what `jax.jit(f).lower(x)
.as_text(dialect="hlo")` prints), `NAME.after.hlo` the module after XLA CPU's pipeline (what
`.compile().as_text()` prints: layouts, bitcasts, kCustom fusions, is_scheduled).

    JAX_PLATFORMS=cpu python gen.py [BENCH_DIR]

`cargo test -p oxla --test xla_hlo` runs both against the bench folder's inputs and outputs.
"""

import os
import sys

from jax._src import xla_bridge
from jax._src.lib import _jax
from jax._src.lib import xla_client as xc

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, *[".."] * 6, "shared", "bench")

backend = xla_bridge.get_backend("cpu")
device = backend.local_devices()[0]
for name in sorted(os.listdir(BENCH)):
    path = os.path.join(BENCH, name, "program.mlir")
    if not os.path.isfile(path):
        continue
    text = open(path).read()
    before = _jax.mlir.mlir_module_to_xla_computation(text, use_tuple_args=False, return_tuple=False)
    with open(os.path.join(HERE, f"{name}.before.hlo"), "w") as f:
        f.write(before.as_hlo_text())
    exe = backend.compile_and_load(text, xc.DeviceList((device,)), xc.CompileOptions())
    with open(os.path.join(HERE, f"{name}.after.hlo"), "w") as f:
        f.write(exe.hlo_modules()[0].to_string())
    print(name)
