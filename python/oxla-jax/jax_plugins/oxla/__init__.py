"""JAX plugin for Oxla: `jax.jit` programs compiled and run by Oxla through its PJRT C API.

JAX finds this module (namespace package `jax_plugins`, and the `jax_plugins` entry point) and
calls `initialize()`. Select the platform with `JAX_PLATFORMS=oxla` (or `oxla,cpu`).

Environment:
  OXLA_PJRT_LIBRARY_PATH  the plugin library to load instead of the bundled one
  OXLA_NUM_DEVICES        number of Oxla devices (default 1), for pmap / shard_map
  OXLA_JAX_PRIORITY       backend priority (default -100: the CPU backend stays the default
                          unless JAX_PLATFORMS names oxla)
  OXLA_JAX_CPU_LOWERINGS=0  do not reuse JAX's CPU lowering rules for platform oxla (see
                          `_reuse_cpu_lowerings`)

initialize() changes nothing global in JAX: JAX calls it for every installed plugin, whatever
JAX_PLATFORMS says, so its configuration (the Shardy partitioner included) stays as the user
set it, and what is added (donation, lowering rules, the compilation cache) is for platform
oxla only.
"""

import os
import pathlib
import sys

_NAME = "liboxla_pjrt.dylib" if sys.platform == "darwin" else "liboxla_pjrt.so"


def library_path() -> str:
    env = os.environ.get("OXLA_PJRT_LIBRARY_PATH")
    if env:
        return env
    bundled = pathlib.Path(__file__).resolve().parent / _NAME
    if bundled.exists():
        return str(bundled)
    raise RuntimeError(
        f"oxla-jax: no {_NAME} bundled and OXLA_PJRT_LIBRARY_PATH is not set; build it with "
        "`cargo build --release -p oxla-pjrt` and reinstall, or point OXLA_PJRT_LIBRARY_PATH at it"
    )


def initialize():
    from jax._src import xla_bridge

    # JAX lowers donate_argnums to aliasing attributes only for platforms on this list; Oxla
    # honours them (a donated buffer is deleted and may be updated in place).
    try:
        from jax._src.interpreters import mlir

        if "oxla" not in mlir._platforms_with_donation:
            mlir._platforms_with_donation.append("oxla")
    except (ImportError, AttributeError):
        pass
    if os.environ.get("OXLA_JAX_CPU_LOWERINGS", "1") != "0":
        _reuse_cpu_lowerings()
    _enable_compilation_cache()

    options = {}
    n = os.environ.get("OXLA_NUM_DEVICES")
    if n:
        options["num_devices"] = int(n)
    xla_bridge.register_plugin(
        "oxla",
        priority=int(os.environ.get("OXLA_JAX_PRIORITY", "-100")),
        library_path=library_path(),
        options=options or None,
    )
    # After the registration: JAX takes lowering rules only for platforms it knows.
    if os.environ.get("OXLA_JAX_CPU_LOWERINGS", "1") != "0":
        _per_platform_rules_as_cpu()
    # Host callbacks (pure_callback, io_callback, jax.debug.print, checkify) on platform oxla.
    from . import _callbacks

    _callbacks.install()


def _reuse_cpu_lowerings():
    """Lowers programs for platform oxla as JAX lowers them for its CPU backend.

    JAX has no rule for a new platform where its rules are per platform: eigh and svd, for
    example, exist only for cpu/cuda/rocm, and qr would fall back to the `Qr` custom call. The
    CPU rules emit `lapack_*_ffi` custom calls, which Oxla implements (oxla-lapack), and the
    StableHLO that the JAX corpus was exported and checked with. Only primitives without an
    oxla rule of their own are filled in. The host-callback rules (`debug_callback`,
    `debug_print`, checkify's `check`) call `emit_python_callback`, which `_callbacks`
    extends to platform oxla.
    """
    try:
        from jax._src.interpreters import mlir
    except ImportError:
        return
    table = getattr(mlir, "_platform_specific_lowerings", None)
    if table is None or "cpu" not in table:
        return
    mine = table["oxla"]
    for prim, entry in list(table["cpu"].items()):
        if prim not in mine:
            mine[prim] = entry


def _per_platform_rules_as_cpu():
    """`lax.platform_dependent` picks the CPU's branch on platform oxla.

    The `platform_index` primitive and the conditional behind `lax.platform_dependent` (which
    `jax.ffi` and others use) choose a branch by the lowering platform; no branch names oxla,
    so lowering failed ("MLIR translation rule for primitive 'platform_index(...)' not found
    for platform oxla") or took the default branch. Since oxla lowers as the CPU does
    (`_reuse_cpu_lowerings`), both get a rule for platform oxla only that treats a branch for
    `cpu` as one for oxla too, then lowers as JAX does. Other platforms are unchanged.
    """
    try:
        from jax._src.interpreters import mlir
        from jax._src.lax.control_flow import conditionals as cf

        index_rule, cond_rule = cf._platform_index_lowering, cf._cond_lowering
        index_p, cond_p = cf.platform_index_p, cf.cond_p
    except (ImportError, AttributeError):
        return

    def with_oxla(platforms):
        return tuple(
            ps if ps is None or "cpu" not in ps or "oxla" in ps else (*ps, "oxla")
            for ps in platforms
        )

    def platform_index(ctx, *, platforms):
        return index_rule(ctx, platforms=with_oxla(platforms))

    def cond(ctx, index, *args, branches, **params):
        if params.get("branches_platforms") is not None:
            params = dict(params, branches_platforms=with_oxla(params["branches_platforms"]))
        return cond_rule(ctx, index, *args, branches=branches, **params)

    try:
        mlir.register_lowering(index_p, platform_index, platform="oxla")
        mlir.register_lowering(cond_p, cond, platform="oxla")
    except (NotImplementedError, ValueError, RuntimeError):
        pass


def _enable_compilation_cache():
    """Lets JAX's persistent compilation cache store Oxla executables.

    JAX uses the cache only for the platforms on a fixed list (tpu, gpu, cpu, neuron); Oxla
    serializes and deserializes executables (PJRT_Executable_Serialize /
    PJRT_Executable_DeserializeAndLoad), so it is added by wrapping the check.
    """
    try:
        from jax._src import compilation_cache as cc
    except ImportError:
        return
    check = getattr(cc, "is_cache_used", None)
    if check is None or getattr(check, "_oxla", False):
        return

    def is_cache_used(backend):
        if getattr(backend, "platform", None) == "oxla" and cc._is_cache_enabled():
            return True
        return check(backend)

    is_cache_used._oxla = True
    is_cache_used.__wrapped__ = check
    cc.is_cache_used = is_cache_used
