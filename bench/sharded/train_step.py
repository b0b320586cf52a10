"""A small transformer's training step under jax.jit with NamedShardings, three ways
(data parallel, Megatron tensor parallel, FSDP), on Oxla and on JAX's CPU backend over the
same number of devices. Prints, per layout and backend: whether the updated parameters match
the one-device result, the collectives in the compiled program, and the step time.

    XLA_FLAGS=--xla_force_host_platform_device_count=4 OXLA_NUM_DEVICES=4 \
        JAX_PLATFORMS=oxla,cpu python bench/sharded/train_step.py [devices] [repeats]
"""
import re
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

N = int(sys.argv[1]) if len(sys.argv) > 1 else 4
REPEATS = int(sys.argv[2]) if len(sys.argv) > 2 else 5
B, S, D, H, F, V = 8, 64, 128, 4, 512, 512


def init(key):
    ks = jax.random.split(key, 7)
    n = lambda k, s: jax.random.normal(k, s, jnp.float32) * 0.05
    return dict(emb=n(ks[0], (V, D)), wq=n(ks[1], (D, D)), wk=n(ks[2], (D, D)),
                wv=n(ks[3], (D, D)), wo=n(ks[4], (D, D)), w1=n(ks[5], (D, F)),
                w2=n(ks[6], (F, D)))


def layernorm(x):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) * jax.lax.rsqrt(v + 1e-5)


def loss(p, ids):
    x = p["emb"][ids]
    h = layernorm(x)
    q, k, v = (h @ p[w] for w in ("wq", "wk", "wv"))
    split = lambda t: t.reshape(B, S, H, D // H).transpose(0, 2, 1, 3)
    q, k, v = split(q), split(k), split(v)
    a = jax.nn.softmax(q @ k.transpose(0, 1, 3, 2) / np.sqrt(D // H), axis=-1)
    o = (a @ v).transpose(0, 2, 1, 3).reshape(B, S, D)
    x = x + o @ p["wo"]
    x = x + jax.nn.gelu(layernorm(x) @ p["w1"]) @ p["w2"]
    logits = x @ p["emb"].T
    return -jnp.mean(jax.nn.log_softmax(logits)[..., 0])


def step(p, ids):
    g = jax.grad(loss)(p, ids)
    return jax.tree.map(lambda a, b: a - 0.1 * b, p, g)


LAYOUTS = {
    "data parallel": (dict(emb=P(), wq=P(), wk=P(), wv=P(), wo=P(), w1=P(), w2=P()), P("x")),
    "tensor parallel": (dict(emb=P(), wq=P(None, "x"), wk=P(None, "x"), wv=P(None, "x"),
                             wo=P("x", None), w1=P(None, "x"), w2=P("x", None)), P()),
    "fsdp": (dict(emb=P("x"), wq=P("x"), wk=P("x"), wv=P("x"), wo=P("x"), w1=P("x"),
                  w2=P("x")), P("x")),
}
KINDS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute")


BYTES = {"f32": 4, "f64": 8, "bf16": 2, "f16": 2, "s32": 4, "u32": 4, "s8": 1, "u8": 1,
         "pred": 1, "s64": 8, "u64": 8}


def collectives(text):
    """Per kind: how many, and the bytes of their results per device."""
    out = {}
    for k in KINDS:
        for m in re.finditer(rf"= ([^\n]*?) {k}(?:-start)?\(", text):
            size = 0
            for ty, dims in re.findall(r"(\w+)\[([\d,]*)\]", m.group(1)):
                n = 1
                for d in filter(None, dims.split(",")):
                    n *= int(d)
                size += n * BYTES.get(ty, 4)
            c, b = out.get(k, (0, 0))
            out[k] = (c + 1, b + size)
    return out


def main():
    params = init(jax.random.key(0))
    ids = np.random.default_rng(0).integers(0, V, (B, S)).astype(np.int32)
    ref = jax.jit(step, backend="cpu")(params, ids)
    for name, (pspec, ispec) in LAYOUTS.items():
        for backend in ("oxla", "cpu"):
            mesh = Mesh(np.array(jax.devices(backend)[:N]), ("x",))
            ps = {k: NamedSharding(mesh, v) for k, v in pspec.items()}
            p = jax.device_put(params, ps)
            x = jax.device_put(ids, NamedSharding(mesh, ispec))
            f = jax.jit(step, out_shardings=ps)
            c = f.lower(p, x).compile()
            text = c.as_text() or ""
            if backend == "oxla":  # the per-partition program rides in the opaque call
                text = text.encode().decode("unicode_escape")
            out = f(p, x)
            jax.block_until_ready(out)
            t = []
            for _ in range(REPEATS):
                t0 = time.perf_counter()
                jax.block_until_ready(f(p, x))
                t.append(time.perf_counter() - t0)
            err = max(float(np.max(np.abs(np.asarray(out[k]) - np.asarray(ref[k]))))
                      for k in ref)
            counts = {k: f"{c} ({b / 1024:.0f} KiB)" for k, (c, b) in collectives(text).items()}
            print(f"{name:16s} {backend:5s} N={N} max|diff|={err:.2e} "
                  f"step={1e3 * min(t):8.2f} ms  collectives={counts}", flush=True)


if __name__ == "__main__":
    main()
