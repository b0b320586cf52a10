"""JAX's persistent compilation cache with Oxla executables: a first process compiles and
stores them (PJRT_Executable_Serialize), a second loads them (DeserializeAndLoad) instead of
compiling, and gets the same results. Each run is its own process: JAX decides once per
process whether the cache is used."""

import json
import os
import subprocess
import sys

SCRIPT = r"""
import json, sys
import jax, jax.numpy as jnp, numpy as np
from jax import monitoring

events = []
monitoring.register_event_listener(lambda name, **kw: events.append(name))
jax.config.update("jax_compilation_cache_dir", sys.argv[1])
jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
dev = jax.devices("oxla")[0]
x = jax.device_put(np.arange(12, dtype=np.float32).reshape(3, 4), dev)
f = jax.jit(lambda a: jnp.tanh(a @ a.T) + jnp.sum(a))
print(json.dumps({"out": np.asarray(f(x)).tolist(),
                  "hits": events.count("/jax/compilation_cache/cache_hits"),
                  "misses": events.count("/jax/compilation_cache/cache_misses")}))
"""


def run(cache_dir):
    env = dict(os.environ, JAX_PLATFORMS="oxla,cpu")
    out = subprocess.run([sys.executable, "-c", SCRIPT, cache_dir], env=env, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def test_persistent_cache_round_trip(tmp_path):
    first = run(str(tmp_path))
    assert first["misses"] >= 1 and first["hits"] == 0, first
    assert any(tmp_path.iterdir()), "nothing was written to the cache"
    second = run(str(tmp_path))
    assert second["hits"] >= 1 and second["misses"] == 0, second
    assert second["out"] == first["out"]
