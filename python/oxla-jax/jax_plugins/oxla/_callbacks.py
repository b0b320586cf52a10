"""Python host callbacks on platform oxla.

JAX lowers `jax.pure_callback`, `io_callback`, `jax.debug.callback` / `jax.debug.print` and
checkify's errors through `jax._src.callback.emit_python_callback`, which knows only the cpu,
gpu and tpu backends. `install()` replaces that module attribute (the callers read it from the
module, so they all see the replacement) with one that lowers platform oxla's callbacks itself
and hands every other platform to JAX's own function.

On oxla a callback becomes a custom call `oxla_python_callback` whose `backend_config` is the
callback's id in `_CALLBACKS`, with the callback's operands and results (the token first when
JAX threads one, as on the CPU). The plugin (`crates/oxla-pjrt/src/host_callback.rs`) calls
back through one ctypes function, the trampoline, installed with the library's
`OxlaPjrt_SetHostCallbackTrampoline`: it receives the id and descriptors of the operands
(copied into fresh numpy arrays) and of the results' memory, runs the callback with JAX's
checks of the number, shapes and dtypes of its results, and writes them. An exception becomes
the execution's error, with the exception and its traceback as the message.

A callback stays registered as long as the lowering that emitted it: a holder in the module
context's keepalives (which JAX keeps with the lowered module and the compiled executable)
removes it when collected.
"""

import ctypes
import itertools
import threading
import traceback

import numpy as np

_ABI_VERSION = 1

# id -> the callback with its checks (`_Wrapped`).
_CALLBACKS: dict = {}
_ids = itertools.count(1)
_lock = threading.Lock()
_installed = {"trampoline": None, "lib": None}


class _Array(ctypes.Structure):
    _fields_ = [
        ("element_type", ctypes.c_int32),
        ("rank", ctypes.c_int32),
        ("dims", ctypes.POINTER(ctypes.c_int64)),
        ("data", ctypes.c_void_p),
        ("size_bytes", ctypes.c_uint64),
    ]


_TRAMPOLINE = ctypes.CFUNCTYPE(
    ctypes.c_int32,
    ctypes.c_uint64,
    ctypes.POINTER(_Array),
    ctypes.c_uint64,
    ctypes.POINTER(_Array),
    ctypes.c_uint64,
    ctypes.c_void_p,
    ctypes.c_uint64,
)


class _Keep:
    """Unregisters callback `id` when the lowering (and executable) holding it is collected."""

    __slots__ = ("id", "__weakref__")

    def __init__(self, id_):
        self.id = id_

    def __del__(self, _pop=_CALLBACKS.pop):
        # `_pop` is bound now: at interpreter exit the module's globals may be gone.
        _pop(self.id, None)


class _Wrapped:
    """The callback with JAX's checks of its results (as `emit_python_callback` does on CPU)."""

    def __init__(self, callback, operand_avals, result_avals):
        self.callback = callback
        self.operand_avals = list(operand_avals)
        self.result_avals = list(result_avals)

    def __call__(self, *args):
        from jax._src import dtypes

        out_vals = self.callback(*args)
        if len(out_vals) != len(self.result_avals):
            raise RuntimeError(
                "Mismatched number of outputs from callback. "
                f"Expected: {len(self.result_avals)}, Actual: {len(out_vals)}"
            )
        out_vals = tuple(dtypes.canonicalize_value(np.asarray(a)) for a in out_vals)
        for i, (out_val, out_aval) in enumerate(zip(out_vals, self.result_avals)):
            if out_val.shape != out_aval.shape:
                raise RuntimeError(
                    f"Incorrect output shape for return value #{i}: "
                    f"Expected: {out_aval.shape}, Actual: {out_val.shape}"
                )
            if out_val.dtype != out_aval.dtype:
                raise RuntimeError(
                    f"Incorrect output dtype for return value #{i}: "
                    f"Expected: {out_aval.dtype}, Actual: {out_val.dtype}"
                )
        return out_vals


def _run(id_, operands, num_operands, results, num_results):
    wrapped = _CALLBACKS.get(id_)
    if wrapped is None:
        raise RuntimeError(
            f"oxla: host callback {id_} is not registered (its executable outlived the "
            "lowering that registered it)"
        )
    if num_operands != len(wrapped.operand_avals):
        raise RuntimeError(
            f"oxla: host callback {id_} received {num_operands} operands, "
            f"{len(wrapped.operand_avals)} expected"
        )
    if num_results != len(wrapped.result_avals):
        raise RuntimeError(
            f"oxla: host callback {id_} has memory for {num_results} results, "
            f"{len(wrapped.result_avals)} expected"
        )
    args = []
    for i, aval in enumerate(wrapped.operand_avals):
        a = operands[i]
        shape = tuple(a.dims[d] for d in range(a.rank))
        x = np.empty(shape, dtype=aval.dtype)
        if x.nbytes != a.size_bytes:
            raise RuntimeError(
                f"oxla: host callback {id_}: operand {i} has {a.size_bytes} bytes, "
                f"{x.nbytes} expected for {aval.dtype}{list(shape)}"
            )
        if x.nbytes:
            ctypes.memmove(x.ctypes.data, a.data, x.nbytes)
        args.append(x)
    outs = wrapped(*args)
    for i, out in enumerate(outs):
        r = results[i]
        out = np.ascontiguousarray(out)
        if out.nbytes != r.size_bytes:
            raise RuntimeError(
                f"oxla: host callback {id_}: result {i} has {out.nbytes} bytes, "
                f"{r.size_bytes} expected"
            )
        if out.nbytes:
            ctypes.memmove(r.data, out.ctypes.data, out.nbytes)


def _trampoline(id_, operands, num_operands, results, num_results, error, capacity):
    try:
        _run(id_, operands, num_operands, results, num_results)
        return 0
    except BaseException as e:  # noqa: BLE001 - everything must come back as an error
        try:
            message = "".join(traceback.format_exception(e)).rstrip()
            data = message.encode("utf-8", "replace")
            if len(data) >= capacity:
                # Keep the end: the exception's own line comes last.
                data = b"..." + data[len(data) - capacity + 4 :]
            ctypes.memmove(error, data + b"\0", len(data) + 1)
        except BaseException:  # noqa: BLE001
            pass
        return 1


def _ensure_trampoline():
    """Installs the trampoline in the plugin library (once)."""
    if _installed["trampoline"] is not None:
        return
    with _lock:
        if _installed["trampoline"] is not None:
            return
        from . import library_path

        lib = ctypes.CDLL(library_path())
        setter = lib.OxlaPjrt_SetHostCallbackTrampoline
        setter.argtypes = [_TRAMPOLINE]
        setter.restype = ctypes.c_uint32
        tramp = _TRAMPOLINE(_trampoline)
        version = setter(tramp)
        if version != _ABI_VERSION:
            setter(_TRAMPOLINE())
            raise RuntimeError(
                f"oxla: the plugin library's host-callback ABI is version {version}, this "
                f"package's {_ABI_VERSION}; reinstall the package with its library"
            )
        _installed["lib"] = lib
        _installed["trampoline"] = tramp

        import atexit

        # Callbacks after the interpreter has gone must fail cleanly, not call into it.
        atexit.register(lambda: setter(_TRAMPOLINE()))


def register(callback, operand_avals, result_avals):
    """Registers `callback`; returns its id and the holder that keeps it registered."""
    _ensure_trampoline()
    id_ = next(_ids)
    _CALLBACKS[id_] = _Wrapped(callback, operand_avals, result_avals)
    return id_, _Keep(id_)


def install():
    """Replaces `jax._src.callback.emit_python_callback` with one that handles platform oxla."""
    try:
        import dataclasses

        from jax._src import callback as cb
        from jax._src import config
        from jax._src import core
        from jax._src import ffi
        from jax._src.interpreters import mlir
        from jax._src.sharding_impls import SdyArray as _SdyArray
        from jax._src.sharding_impls import SdyArrayList as _SdyArrayList
    except ImportError:
        return
    original = getattr(cb, "emit_python_callback", None)
    if original is None or getattr(original, "_oxla", False):
        return

    def emit_python_callback(
        ctx,
        callback,
        token,
        operands,
        operand_avals,
        result_avals,
        *,
        has_side_effect,
        returns_token=True,
        partitioned=False,
        sharding=None,
    ):
        platforms = ctx.module_context.platforms
        if "oxla" not in platforms:
            return original(
                ctx,
                callback,
                token,
                operands,
                operand_avals,
                result_avals,
                has_side_effect=has_side_effect,
                returns_token=returns_token,
                partitioned=partitioned,
                sharding=sharding,
            )
        if len(platforms) > 1:
            raise NotImplementedError("multi-platform lowering for python_callback")
        if partitioned and result_avals:
            raise ValueError("Partitioned callback not supported with return values.")
        id_, keep = register(callback, operand_avals, result_avals)
        ctx.module_context.add_keepalive(keep)
        # JAX then waits for the execution's completion token in `effects_barrier` (where an
        # error of a callback whose results are unused surfaces) and leaves the program out
        # of the persistent compilation cache (the id is this process's).
        ctx.module_context.add_host_callback(_CALLBACKS[id_])
        if token:
            operands = [token, *operands]
            ctx = dataclasses.replace(
                ctx,
                avals_in=[core.abstract_token, *ctx.avals_in],
                avals_out=[core.abstract_token, *ctx.avals_out],
            )
        result = ffi.build_ffi_lowering_function(
            "oxla_python_callback",
            has_side_effect=has_side_effect,
            api_version=2,
            backend_config=str(id_),
        )(ctx, *operands)
        # The sharding JAX asks for: outside a shard_map, a maximal one (the callback runs
        # once, on that device: Oxla's importer makes it a conditional on the partition);
        # inside, a manual one (once per device). With Shardy and a token among several
        # results, the token takes a sharding of its own first, as in JAX's lowering.
        if sharding is not None:
            if (
                token
                and len(ctx.avals_out) > 1
                and config.use_shardy_partitioner.value
                and isinstance(sharding, _SdyArrayList)
            ):
                first = sharding.shardings[0]
                token_sharding = _SdyArray(
                    mesh_shape=(),
                    dim_shardings=(),
                    logical_device_ids=first.logical_device_ids,
                )
                sharding = _SdyArrayList((token_sharding, *sharding.shardings))
            mlir.set_sharding(ctx.module_context, result, sharding)
        results = list(result.results)
        if token:
            token, *results = results
        return results, token, None

    emit_python_callback._oxla = True
    emit_python_callback.__wrapped__ = original
    cb.emit_python_callback = emit_python_callback
