"""Writes the Shardy test programs of `tests/sdy.rs`: small JAX 0.10.2 programs lowered with
Shardy (JAX's default partitioner) on 8 CPU devices, as JAX hands them to a PJRT plugin
(StableHLO portable artifacts with the `sdy` dialect kept), each next to its MLIR text.

    XLA_FLAGS=--xla_force_host_platform_device_count=8 JAX_PLATFORMS=cpu python gen.py
"""

import pathlib

import jax
import jax.numpy as jnp
from jax._src.interpreters import mlir
from jax._src.lib import _jax
from jax._src.lib.mlir.dialects import hlo
from jax.sharding import NamedSharding, PartitionSpec as P

HERE = pathlib.Path(__file__).resolve().parent


def write(name, lowered):
    module = lowered.compiler_ir("stablehlo")
    target = hlo.get_version_from_compatibility_requirement(
        hlo.StablehloCompatibilityRequirement.WEEK_4
    )
    bc = _jax.mlir.serialize_portable_artifact(mlir.module_to_bytecode(module), target, True)
    (HERE / f"{name}.mlirbc").write_bytes(bc)
    (HERE / f"{name}.mlir").write_text(lowered.as_text(debug_info=False))


devs = jax.devices()
assert len(devs) == 8 and jax.config.jax_use_shardy_partitioner
mesh = jax.make_mesh((8,), ("x",), devices=devs)
mesh2 = jax.make_mesh((2, 4), ("x", "y"), devices=devs)
x = jnp.arange(16.0, dtype=jnp.float32).reshape(8, 2)

# Replicated arguments and results on a mesh, and a sharding constraint.
rep = NamedSharding(mesh, P())
write(
    "constraint_replicated",
    jax.jit(
        lambda a: jax.lax.with_sharding_constraint(a * 2, rep), in_shardings=rep, out_shardings=rep
    ).lower(x),
)

# shard_map on one axis, with a psum; and on two axes of a 2x4 mesh, one result replicated.
xs = jax.device_put(x, NamedSharding(mesh, P("x")))
write(
    "manual_psum",
    jax.jit(
        jax.shard_map(
            lambda a: a * 2 + jax.lax.psum(a, "x"), mesh=mesh, in_specs=P("x"), out_specs=P("x")
        )
    ).lower(xs),
)
x2 = jax.device_put(x, NamedSharding(mesh2, P("x", None)))
write(
    "manual_2d",
    jax.jit(
        jax.shard_map(
            lambda a: (a + 1, jax.lax.psum(a.sum(), "x")),
            mesh=mesh2,
            in_specs=P("x", None),
            out_specs=(P("x", None), P()),
        )
    ).lower(x2),
)

# A sharded argument outside shard_map (what automatic partitioning would take), with a
# sharding over both axes of the 2x4 mesh.
write(
    "sharded_2d",
    jax.jit(lambda a: a + 1, in_shardings=NamedSharding(mesh2, P("y", "x"))).lower(x),
)

# jax.random (a sharding constraint on the empty mesh) and a LAPACK custom call with its
# sharding rule.
write("random", jax.jit(lambda k: jax.random.normal(k, (3,))).lower(jax.random.key(0)))
write("cholesky", jax.jit(jnp.linalg.cholesky).lower(jnp.eye(3, dtype=jnp.float32)))
