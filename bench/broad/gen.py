#!/usr/bin/env python3
"""The broad bench: JAX programs by op class x element type x shape, written in the format of
the shared bench (`../shared/bench`): one folder per program with `program.mlir` (JAX's
`jax.jit(f).lower(*args).as_text()`), `program.generic.mlir`, `argN.npy` (fixed seeds),
`outN.npy` (XLA CPU's results, the checks; strided samples for big outputs), `meta.json`, and
an `index.json` over all of them.

    python bench/broad/gen.py [OUT_DIR] [--only a,b] [--list]      (default target/broad-bench)

Needs jax==0.10.2 / jaxlib==0.10.2 and ml_dtypes. The programs are chosen to find where Oxla
falls behind XLA and IREE, not to flatter it: skinny and odd shapes, narrow element types, the
op classes of issue 40's cliffs, loops, and whole models. See bench/broad/README.md.
"""

import argparse
import json
import os
import re
import sys
import time
import zlib

os.environ["JAX_PLATFORMS"] = "cpu"  # the checks are XLA CPU's results, whatever plugins exist

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

BF16 = ml_dtypes.bfloat16
F16 = np.float16
PROGRAMS = {}  # name -> (class, description, build, options)


def add(name, cls, desc, build, **opts):
    """Registers a program: build(rng) -> (fn, [(arg name, array)]); opts: flops, rtol,
    atol_rel (atol as a fraction of the output's RMS), x64, exact, metric."""
    assert name not in PROGRAMS, name
    PROGRAMS[name] = (cls, desc, build, opts)


def arr(rng, shape, dt, scale=1.0):
    dt = np.dtype(dt)
    if dt == np.int8:
        return rng.integers(-128, 128, size=shape, dtype=np.int8)
    if dt == np.int32:
        return rng.integers(-1000, 1000, size=shape, dtype=np.int32)
    if dt == np.complex64:
        return (rng.standard_normal(shape) * scale + 1j * rng.standard_normal(shape) * scale).astype(np.complex64)
    x = rng.standard_normal(shape, dtype=np.float64) * scale
    return x.astype(dt)


def dn(batch):
    return (((2,), (1,)), ((0,), (0,))) if batch else (((1,), (0,)), ((), ()))


# ----------------------------------------------------------------------------------------
# matmul / batched matmul
# ----------------------------------------------------------------------------------------

def mm(name, M, K, N, adt=np.float32, bdt=None, pref=None, batch=None, layout="nn", desc=None):
    bdt = bdt or adt
    mixed = np.dtype(adt) != np.dtype(bdt)

    def build(rng):
        if layout == "nt":
            ash, bsh = (M, K), (N, K)
            dims = (((1,), (1,)), ((), ()))
        elif layout == "tn":
            ash, bsh = (K, M), (K, N)
            dims = (((0,), (0,)), ((), ()))
        else:
            ash, bsh = (M, K), (K, N)
            dims = dn(batch)
        if batch:
            ash, bsh = (batch,) + ash, (batch,) + bsh
        a = arr(rng, ash, adt)
        b = arr(rng, bsh, bdt, scale=1.0 / np.sqrt(K) if np.dtype(bdt).kind != "i" else 1.0)
        if mixed:
            fn = lambda a, b: jnp.matmul(a, b)  # noqa: E731 (JAX's promotion: a convert, then the dot)
        else:
            fn = lambda a, b: lax.dot_general(a, b, dims, preferred_element_type=pref)  # noqa: E731
        return fn, [("a", a), ("b", b)]
    tn = lambda d: np.dtype(d).name  # noqa: E731
    what = f"{tn(adt)} x {tn(bdt)}" + (f" -> {np.dtype(pref).name}" if pref is not None else "")
    d = desc or (f"{'batched ' if batch else ''}matmul {what}, "
                 f"{(str(batch) + ' x ') if batch else ''}{M}x{K} @ {K}x{N} ({layout})")
    add(name, "matmul", d, build, flops=2 * (batch or 1) * M * K * N,
        x64=np.dtype(adt) == np.float64, exact=np.dtype(adt).kind == "i")


def matmuls():
    f32, f64, i8 = np.float32, np.float64, np.int8
    mm("mm_f32_64", 64, 64, 64)
    mm("mm_f32_512", 512, 512, 512)
    mm("mm_f32_1000", 1000, 1000, 1000)
    mm("mm_f32_2048", 2048, 2048, 2048)
    mm("mm_f32_gemv_1x2048x4096", 1, 2048, 4096)
    mm("mm_f32_matvec_4096x2048x1", 4096, 2048, 1)
    mm("mm_f32_8x4096x1024", 8, 4096, 1024)
    mm("mm_f32_16384x64x64", 16384, 64, 64)
    mm("mm_f32_64x16384x64", 64, 16384, 64)
    mm("mm_f32_nt_1024", 1024, 1024, 1024, layout="nt")
    mm("mm_f32_tn_1024", 1024, 1024, 1024, layout="tn")
    mm("mm_f64_64", 64, 64, 64, f64)
    mm("mm_f64_512", 512, 512, 512, f64)
    mm("mm_f64_1024", 1024, 1024, 1024, f64)
    mm("mm_f64_gemv_1x2048x2048", 1, 2048, 2048, f64)
    mm("mm_bf16f32_256", 256, 256, 256, BF16, pref=np.float32)
    mm("mm_bf16f32_1024", 1024, 1024, 1024, BF16, pref=np.float32)
    mm("mm_bf16f32_2048", 2048, 2048, 2048, BF16, pref=np.float32)
    mm("mm_bf16f32_gemv_1x4096x4096", 1, 4096, 4096, BF16, pref=np.float32)
    mm("mm_bf16_512", 512, 512, 512, BF16)
    mm("mm_bf16_1024", 1024, 1024, 1024, BF16)
    mm("mm_bf16_16x4096x4096", 16, 4096, 4096, BF16)
    mm("mm_f16_512", 512, 512, 512, F16)
    mm("mm_f16_1024", 1024, 1024, 1024, F16)
    mm("mm_f16f32_1024", 1024, 1024, 1024, F16, pref=np.float32)
    mm("mm_i8i32_256", 256, 256, 256, i8, pref=np.int32)
    mm("mm_i8i32_1024", 1024, 1024, 1024, i8, pref=np.int32)
    mm("mm_i8i32_512x2048x512", 512, 2048, 512, i8, pref=np.int32)
    mm("mm_i8i32_gemv_1x4096x4096", 1, 4096, 4096, i8, pref=np.int32)
    mm("mm_i8i32_64x1024x4096", 64, 1024, 4096, i8, pref=np.int32)
    mm("mm_f32xbf16_1024", 1024, 1024, 1024, f32, BF16)
    mm("mm_f32xbf16_8x4096x4096", 8, 4096, 4096, f32, BF16)
    mm("bmm_f32_32x128x64x128", 128, 64, 128, batch=32)
    mm("bmm_f32_8x512", 512, 512, 512, batch=8)
    mm("bmm_f32_4096x8x8x8", 8, 8, 8, batch=4096)
    mm("bmm_f32_8x1x1024x1024", 1, 1024, 1024, batch=8)
    mm("bmm_bf16f32_16x256", 256, 256, 256, BF16, pref=np.float32, batch=16)
    mm("bmm_i8i32_8x256", 256, 256, 256, i8, pref=np.int32, batch=8)
    mm("bmm_f64_8x256", 256, 256, 256, f64, batch=8)
    mm("mm_c64_512", 512, 512, 512, np.complex64)


# ----------------------------------------------------------------------------------------
# convolutions
# ----------------------------------------------------------------------------------------

def conv(name, x_shape, w_shape, stride=1, pad="SAME", groups=1, dil=1, dt=np.float32, pref=None,
         dims=("NHWC", "HWIO", "NHWC"), desc=""):
    nsp = len(x_shape) - 2

    def build(rng):
        x = arr(rng, x_shape, dt)
        fan_in = int(np.prod(w_shape)) // w_shape[-1] if dims[1].endswith("IO") else int(np.prod(w_shape[1:]))
        w = arr(rng, w_shape, dt, scale=1.0 / np.sqrt(fan_in))

        def fn(x, w):
            return lax.conv_general_dilated(x, w, (stride,) * nsp, pad, rhs_dilation=(dil,) * nsp,
                                            dimension_numbers=dims, feature_group_count=groups,
                                            preferred_element_type=pref)
        return fn, [("x", x), ("w", w)]
    # flops from the output's size: 2 * out elements * (window * in channels per group)
    out = jax.eval_shape(lambda x, w: lax.conv_general_dilated(
        x, w, (stride,) * nsp, pad, rhs_dilation=(dil,) * nsp, dimension_numbers=dims, feature_group_count=groups),
        jax.ShapeDtypeStruct(x_shape, np.float32), jax.ShapeDtypeStruct(w_shape, np.float32))
    k = int(np.prod(w_shape)) // (w_shape[-1] if dims[1].endswith("IO") else w_shape[0])
    add(name, "conv", desc, build, flops=2 * int(np.prod(out.shape)) * k, x64=np.dtype(dt) == np.float64)


def convs():
    conv("conv1x1_b1_56x56_64to256", (1, 56, 56, 64), (1, 1, 64, 256), desc="1x1 conv (pointwise), 56x56, 64 -> 256 channels")
    conv("conv1x1_b8_28x28_256to64", (8, 28, 28, 256), (1, 1, 256, 64), desc="1x1 conv, batch 8, 28x28, 256 -> 64 (bottleneck squeeze)")
    conv("conv3x3_b1_14x14_256", (1, 14, 14, 256), (3, 3, 256, 256), desc="3x3 conv, small image many channels: 14x14x256 -> 256")
    conv("conv3x3_b16_16x16_64to128", (16, 16, 16, 64), (3, 3, 64, 128), desc="3x3 conv, batch 16, 16x16, 64 -> 128")
    conv("conv3x3_valid_b1_130x130_32", (1, 130, 130, 32), (3, 3, 32, 32), pad="VALID", desc="3x3 VALID conv, 130x130x32 -> 128x128x32")
    conv("conv5x5_b4_32x32_32to64", (4, 32, 32, 32), (5, 5, 32, 64), desc="5x5 conv, batch 4, 32x32, 32 -> 64")
    conv("convdw3x3_b1_112x112_32", (1, 112, 112, 32), (3, 3, 1, 32), groups=32, desc="depthwise 3x3 (feature_group_count = 32), 112x112x32")
    conv("convdw3x3s2_b8_56x56_128", (8, 56, 56, 128), (3, 3, 1, 128), stride=2, groups=128, desc="depthwise 3x3 stride 2, batch 8, 56x56x128")
    conv("convdw5x5_b1_56x56_256", (1, 56, 56, 256), (5, 5, 1, 256), groups=256, desc="depthwise 5x5, 56x56x256")
    conv("convg8_3x3_b8_28x28_128", (8, 28, 28, 128), (3, 3, 16, 128), groups=8, desc="grouped 3x3 conv, 8 groups of 16 channels, batch 8, 28x28")
    conv("convg32_3x3_b1_56x56_128", (1, 56, 56, 128), (3, 3, 4, 128), groups=32, desc="grouped 3x3 conv (ResNeXt), 32 groups of 4 channels, 56x56")
    conv("conv_stem7x7s2_b1_224_3to64", (1, 224, 224, 3), (7, 7, 3, 64), stride=2, desc="ResNet stem: 7x7 stride 2 from 3 channels, 224x224 -> 112x112x64")
    conv("conv_stem7x7s2_b8_224_3to64", (8, 224, 224, 3), (7, 7, 3, 64), stride=2, desc="ResNet stem, batch 8")
    conv("conv3x3d2_b1_64x64_64", (1, 64, 64, 64), (3, 3, 64, 64), dil=2, desc="dilated 3x3 (rhs_dilation 2), 64x64x64")
    conv("conv1d_k5_b8_1024_128", (8, 1024, 128), (5, 128, 128), dims=("NWC", "WIO", "NWC"), desc="1-D conv, kernel 5, batch 8, length 1024, 128 -> 128")
    conv("conv1d_dw4_causal_b4_4096_512", (4, 4096, 512), (4, 1, 512), pad=((3, 0),), groups=512,
         dims=("NWC", "WIO", "NWC"), desc="1-D causal depthwise conv, kernel 4 (Mamba-style), batch 4, length 4096, 512 channels")
    conv("conv3d_3x3x3_b1_16x32x32_32", (1, 16, 32, 32, 32), (3, 3, 3, 32, 32), dims=("NDHWC", "DHWIO", "NDHWC"),
         desc="3-D conv 3x3x3, 16x32x32x32 -> 32")
    conv("conv_nchw3x3_b8_64x32x32", (8, 64, 32, 32), (64, 64, 3, 3), dims=("NCHW", "OIHW", "NCHW"),
         desc="3x3 conv in PyTorch layout NCHW / OIHW, batch 8, 64 channels, 32x32")
    conv("conv_bf16_3x3_b1_56x56_64", (1, 56, 56, 64), (3, 3, 64, 64), dt=BF16, desc="bf16 3x3 conv (bf16 result), 56x56x64")
    conv("conv_bf16f32_3x3_b8_28x28_128", (8, 28, 28, 128), (3, 3, 128, 128), dt=BF16, pref=np.float32,
         desc="bf16 3x3 conv, f32 result (preferred_element_type), batch 8, 28x28x128")
    conv("conv_f64_3x3_b1_28x28_64", (1, 28, 28, 64), (3, 3, 64, 64), dt=np.float64, desc="f64 3x3 conv 28x28x64")

    def convt(rng):
        x = arr(rng, (8, 16, 16, 64), np.float32)
        w = arr(rng, (3, 3, 64, 32), np.float32, 1 / 24)
        return (lambda x, w: lax.conv_transpose(x, w, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))), \
            [("x", x), ("w", w)]
    add("convT3x3s2_b8_16x16_64to32", "conv", "transposed conv (lax.conv_transpose) 3x3 stride 2: 16x16x64 -> 32x32x32, batch 8",
        convt, flops=2 * 8 * 32 * 32 * 32 * 9 * 64 // 4)

    def cgrad(wrt):
        def build(rng):
            x = arr(rng, (8, 28, 28, 64), np.float32)
            w = arr(rng, (3, 3, 64, 64), np.float32, 1 / 24)
            g = arr(rng, (8, 28, 28, 64), np.float32)

            def f(x, w, g):
                _, vjp = jax.vjp(lambda x, w: lax.conv_general_dilated(
                    x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")), x, w)
                return vjp(g)[wrt]
            return f, [("x", x), ("w", w), ("g", g)]
        return build
    add("conv_grad_input_3x3_b8_28x28_64", "conv", "conv gradient wrt the input (vjp of a 3x3 SAME conv), batch 8, 28x28x64",
        cgrad(0), flops=2 * 8 * 28 * 28 * 64 * 9 * 64)
    add("conv_grad_weight_3x3_b8_28x28_64", "conv", "conv gradient wrt the weights (vjp of a 3x3 SAME conv), batch 8, 28x28x64",
        cgrad(1), flops=2 * 8 * 28 * 28 * 64 * 9 * 64)


# ----------------------------------------------------------------------------------------
# pooling, scans, arg-reductions, reductions
# ----------------------------------------------------------------------------------------

def simple(name, cls, desc, fn, shapes, dt=np.float32, scale=1.0, **opts):
    def build(rng):
        args = []
        for i, s in enumerate(shapes):
            if len(s) == 2 and isinstance(s[0], tuple):
                shp, d = s
            else:
                shp, d = s, dt
            args.append((f"x{i}", arr(rng, shp, d, scale)))
        return fn, args
    add(name, cls, desc, build, **opts)


def pools_scans_reductions():
    def maxpool(w, s, pad):
        return lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, w, w, 1), (1, s, s, 1), pad)

    def avgpool(w, s, pad):
        return lambda x: lax.reduce_window(x, 0.0, lax.add, (1, w, w, 1), (1, s, s, 1), pad) / (w * w)
    simple("maxpool2x2s2_b8_56x56_64", "pool", "max pool 2x2 stride 2 (reduce_window), batch 8, 56x56x64", maxpool(2, 2, "VALID"), [(8, 56, 56, 64)])
    simple("maxpool3x3s2_same_b8_112x112_64", "pool", "max pool 3x3 stride 2 SAME padding, batch 8, 112x112x64", maxpool(3, 2, "SAME"), [(8, 112, 112, 64)])
    simple("avgpool2x2s2_b8_56x56_64", "pool", "average pool 2x2 stride 2, batch 8, 56x56x64", avgpool(2, 2, "VALID"), [(8, 56, 56, 64)])
    simple("avgpool3x3s2_same_b8_56x56_128", "pool", "average pool 3x3 stride 2 SAME padding (sum / 9), batch 8, 56x56x128", avgpool(3, 2, "SAME"), [(8, 56, 56, 128)])
    simple("globalavgpool_b32_7x7_2048", "pool", "global average pool (mean over H, W), batch 32, 7x7x2048", lambda x: jnp.mean(x, axis=(1, 2)), [(32, 7, 7, 2048)])

    simple("cumsum_ax0_4096x512", "scan", "cumsum along axis 0 of [4096, 512]", lambda x: jnp.cumsum(x, axis=0), [(4096, 512)], rtol=1e-4, atol_rel=1e-4)
    simple("cumsum_ax1_512x4096", "scan", "cumsum along axis 1 of [512, 4096]", lambda x: jnp.cumsum(x, axis=1), [(512, 4096)], rtol=1e-4, atol_rel=1e-4)
    simple("cumsum_3d_ax1_64x256x64", "scan", "cumsum along the middle axis of [64, 256, 64]", lambda x: jnp.cumsum(x, axis=1), [(64, 256, 64)], rtol=1e-4, atol_rel=1e-4)
    simple("cumsum_i32_ax1_1024x1024", "scan", "integer cumsum along axis 1 of i32 [1024, 1024]", lambda x: jnp.cumsum(x, axis=1), [((1024, 1024), np.int32)])

    def cumprod_build(rng):
        x = (1.0 + 0.01 * rng.standard_normal((256, 2048))).astype(np.float32)
        return (lambda x: jnp.cumprod(x, axis=1)), [("x", x)]
    add("cumprod_ax1_256x2048", "scan", "cumprod along axis 1 of [256, 2048] (values near 1)", cumprod_build, rtol=1e-4, atol_rel=1e-4)

    def cumprod0_build(rng):
        x = (1.0 + 0.01 * rng.standard_normal((2048, 256))).astype(np.float32)
        return (lambda x: jnp.cumprod(x, axis=0)), [("x", x)]
    add("cumprod_ax0_2048x256", "scan", "cumprod along axis 0 of [2048, 256] (values near 1)", cumprod0_build, rtol=1e-4, atol_rel=1e-4)
    simple("cummax_ax0_2048x512", "scan", "cummax along axis 0 of [2048, 512]", lambda x: lax.cummax(x, axis=0), [(2048, 512)], exact=True)
    simple("cummax_ax1_512x2048", "scan", "cummax along axis 1 of [512, 2048]", lambda x: lax.cummax(x, axis=1), [(512, 2048)], exact=True)
    simple("cumsum_3d_ax2_64x64x256", "scan", "cumsum along the last axis of [64, 64, 256]", lambda x: jnp.cumsum(x, axis=2), [(64, 64, 256)], rtol=1e-4, atol_rel=1e-4)

    simple("argmax_ax0_2048x1024", "argreduce", "argmax along axis 0 of [2048, 1024]", lambda x: jnp.argmax(x, axis=0), [(2048, 1024)])
    simple("argmax_ax1_1024x2048", "argreduce", "argmax along axis 1 of [1024, 2048]", lambda x: jnp.argmax(x, axis=1), [(1024, 2048)])
    simple("argmin_ax0_2048x1024", "argreduce", "argmin along axis 0 of [2048, 1024]", lambda x: jnp.argmin(x, axis=0), [(2048, 1024)])
    simple("argmin_ax1_1024x2048", "argreduce", "argmin along axis 1 of [1024, 2048]", lambda x: jnp.argmin(x, axis=1), [(1024, 2048)])
    simple("argmax_3d_ax1_64x512x64", "argreduce", "argmax along the middle axis of [64, 512, 64]", lambda x: jnp.argmax(x, axis=1), [(64, 512, 64)])
    simple("argmax_vocab_256x32000", "argreduce", "greedy sampling: argmax over a 32000 vocabulary, 256 rows", lambda x: jnp.argmax(x, axis=-1), [(256, 32000)])

    simple("rsum_ax0_4096x2048", "reduce", "sum along the outer axis of [4096, 2048]", lambda x: jnp.sum(x, axis=0), [(4096, 2048)], rtol=1e-4, atol_rel=1e-4)
    simple("rsum_ax1_4096x2048", "reduce", "sum along the inner axis of [4096, 2048]", lambda x: jnp.sum(x, axis=1), [(4096, 2048)], rtol=1e-4, atol_rel=1e-4)
    simple("rmax_3d_ax1_128x512x128", "reduce", "max along the middle axis of [128, 512, 128]", lambda x: jnp.max(x, axis=1), [(128, 512, 128)])
    simple("rmean_3d_ax01_64x256x512", "reduce", "mean over the two outer axes of [64, 256, 512]", lambda x: jnp.mean(x, axis=(0, 1)), [(64, 256, 512)], rtol=1e-4, atol_rel=1e-4)
    simple("rsum_f64_ax1_2048x2048", "reduce", "f64 sum along axis 1 of [2048, 2048]", lambda x: jnp.sum(x, axis=1), [(2048, 2048)], dt=np.float64, x64=True)
    simple("rsum_bf16_ax1_4096x2048", "reduce", "bf16 sum along axis 1 of [4096, 2048] (bf16 result)", lambda x: jnp.sum(x, axis=1), [(4096, 2048)], dt=BF16)
    simple("rmin_i32_ax0_4096x1024", "reduce", "i32 min along axis 0 of [4096, 1024]", lambda x: jnp.min(x, axis=0), [((4096, 1024), np.int32)])
    simple("rany_ax1_4096x2048", "reduce", "any(x > 3) along axis 1 (i1 reduce with or)", lambda x: jnp.any(x > 3.0, axis=1), [(4096, 2048)])
    simple("logsumexp_ax1_2048x2048", "reduce", "logsumexp along axis 1 of [2048, 2048]", lambda x: jax.nn.logsumexp(x, axis=1), [(2048, 2048)])
    simple("var_ax0_4096x1024", "reduce", "variance along axis 0 of [4096, 1024]", lambda x: jnp.var(x, axis=0), [(4096, 1024)], rtol=1e-4, atol_rel=1e-4)
    simple("norm_l2_ax1_8192x256", "reduce", "L2 norm of each row of [8192, 256]", lambda x: jnp.linalg.norm(x, axis=1), [(8192, 256)])


# ----------------------------------------------------------------------------------------
# data movement into arithmetic
# ----------------------------------------------------------------------------------------

def rope_half(x):
    s, d = x.shape[1], x.shape[-1]
    pos = jnp.arange(s, dtype=jnp.float32)[:, None]
    inv = 1.0 / (10000.0 ** (jnp.arange(0, d // 2, dtype=jnp.float32) * 2.0 / d))
    ang = pos * inv[None, :]
    cos = jnp.concatenate([jnp.cos(ang), jnp.cos(ang)], -1)[None, :, None, :]
    sin = jnp.concatenate([jnp.sin(ang), jnp.sin(ang)], -1)[None, :, None, :]
    x1, x2 = x[..., : d // 2], x[..., d // 2:]
    rot = jnp.concatenate([-x2, x1], axis=-1)
    return x * cos + rot * sin


def rope_interleaved(x):
    s, d = x.shape[1], x.shape[-1]
    pos = jnp.arange(s, dtype=jnp.float32)[:, None]
    inv = 1.0 / (10000.0 ** (jnp.arange(0, d // 2, dtype=jnp.float32) * 2.0 / d))
    ang = (pos * inv[None, :])[None, :, None, :]
    c, s_ = jnp.cos(ang), jnp.sin(ang)
    xe, xo = x[..., 0::2], x[..., 1::2]
    return jnp.stack([xe * c - xo * s_, xe * s_ + xo * c], axis=-1).reshape(x.shape)


def data_movement():
    simple("rope_half_b1_s2048_h16_d64", "movement", "RoPE rotate-half (slices, negate, concatenate, sin/cos of iota) on [1, 2048, 16, 64]", rope_half, [(1, 2048, 16, 64)],
           rtol=1e-3, atol_rel=2e-3)  # angles up to 2047 rad: one ulp of the f32 angle (1.2e-4) moves sin/cos that much
    simple("rope_interleaved_b4_s512_h8_d64", "movement", "RoPE interleaved pairs (strided slices, stack, reshape) on [4, 512, 8, 64]", rope_interleaved, [(4, 512, 8, 64)])
    simple("concat3_mul_1024x512", "movement", "concatenate three [1024, 512] along axis 1, times a [1536] row", lambda a, b, c, w: jnp.concatenate([a, b, c], 1) * w, [(1024, 512)] * 3 + [(1536,)])
    simple("concat_ax0_add_2x2048x1024", "movement", "concatenate two [2048, 1024] along axis 0, plus a [4096, 1024]", lambda a, b, c: jnp.concatenate([a, b], 0) + c, [(2048, 1024), (2048, 1024), (4096, 1024)])
    simple("pad_const_add_1024", "movement", "pad [1018, 1018] by 3 with zeros, plus a [1024, 1024]", lambda x, y: jnp.pad(x, 3) + y, [(1018, 1018), (1024, 1024)])
    simple("pad_reflect_b8_64x64x64", "movement", "reflect padding by 1 (jnp.pad mode=reflect: reverse + concatenate) of [8, 64, 64, 64], then * 2", lambda x: jnp.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)), mode="reflect") * 2.0, [(8, 64, 64, 64)])
    simple("reverse_add_2048", "movement", "x[::-1, ::-1] + y on [2048, 2048]", lambda x, y: x[::-1, ::-1] + y, [(2048, 2048)] * 2)
    simple("transpose_add_2048", "movement", "x.T + y on [2048, 2048]", lambda x, y: x.T + y, [(2048, 2048)] * 2)
    simple("transpose_0213_mul_8x512x16x64", "movement", "heads split: transpose [8, 512, 16, 64] -> [8, 16, 512, 64], times 0.125", lambda x: jnp.transpose(x, (0, 2, 1, 3)) * 0.125, [(8, 512, 16, 64)])
    simple("transpose_021_add_64x256x384", "movement", "transpose the two inner axes of [64, 256, 384], plus y", lambda x, y: jnp.transpose(x, (0, 2, 1)) + y, [(64, 256, 384), (64, 384, 256)])

    def bmask(rng):
        x = arr(rng, (4096, 1024), np.float32)
        m = rng.random(4096) < 0.5
        b = arr(rng, (1024,), np.float32)
        return (lambda x, m, b: jnp.where(m[:, None], x, 0.0) + b[None, :]), [("x", x), ("mask", m), ("b", b)]
    add("bcast_mask_where_4096x1024", "movement", "broadcast a row mask (i1 [4096]) into a select, plus a broadcast bias row", bmask)
    simple("iota_causal_mask_8x1024x1024", "movement", "causal mask from iota compare, select -inf into [8, 1024, 1024] scores, then exp",
           lambda s: jnp.exp(jnp.where(jnp.arange(1024)[:, None] >= jnp.arange(1024)[None, :], s, -jnp.inf)), [(8, 1024, 1024)])
    simple("strided_slice_mul_2048", "movement", "strided slices x[::2, 1::2] * y[1::2, ::2] of [2048, 2048]", lambda x, y: x[::2, 1::2] * y[1::2, ::2], [(2048, 2048)] * 2)
    simple("depth_to_space_b8_32x32x256", "movement", "pixel shuffle (reshape, transpose, reshape) [8, 32, 32, 256] -> [8, 64, 64, 64], plus bias",
           lambda x, b: jnp.transpose(x.reshape(8, 32, 32, 2, 2, 64), (0, 1, 3, 2, 4, 5)).reshape(8, 64, 64, 64) + b, [(8, 32, 32, 256), (64,)])
    simple("repeat4_add_1024x256", "movement", "jnp.repeat x 4 along axis 1 of [1024, 256], plus y", lambda x, y: jnp.repeat(x, 4, axis=1) + y, [(1024, 256), (1024, 1024)])

    def tal(rng):
        x = arr(rng, (1024, 1024), np.float32)
        i = rng.integers(0, 1024, size=(1024, 64), dtype=np.int32)
        return (lambda x, i: jnp.take_along_axis(x, i, axis=1) * 2.0), [("x", x), ("idx", i)]
    add("take_along_axis_1024x1024_64", "movement", "take_along_axis (gather) of 64 columns per row of [1024, 1024], times 2", tal, exact=True)

    def dus(rng):
        x = arr(rng, (2048, 2048), np.float32)
        y = arr(rng, (800, 200), np.float32)
        return (lambda x, y: x.at[100:900, 200:400].set(y) * 2.0), [("x", x), ("y", y)]
    add("slice_set_mul_2048", "movement", "x.at[100:900, 200:400].set(y) * 2 on [2048, 2048]", dus, exact=True)

    def onehot(rng):
        ids = rng.integers(0, 8192, size=(1024,), dtype=np.int32)
        t = arr(rng, (8192, 128), np.float32)
        return (lambda i, t: jax.nn.one_hot(i, 8192, dtype=jnp.float32) @ t), [("ids", ids), ("table", t)]
    add("onehot_matmul_1024x8192x128", "movement", "one_hot(ids, 8192) @ table [8192, 128] (a gather written as a matmul)", onehot, flops=2 * 1024 * 8192 * 128)


# ----------------------------------------------------------------------------------------
# top_k, sort
# ----------------------------------------------------------------------------------------

def topk_sort():
    for k, (r, n) in [(1, (256, 32768)), (8, (256, 32768)), (64, (256, 32768)), (8, (8192, 128)), (64, (64, 131072)), (8, (1, 1048576))]:
        simple(f"topk{k}_{r}x{n}", "topk", f"lax.top_k(x, {k}) over rows of [{r}, {n}]", (lambda k: lambda x: lax.top_k(x, k))(k), [(r, n)])
    simple("sort_rows_1024x1024", "sort", "jnp.sort along rows of [1024, 1024]", lambda x: jnp.sort(x, axis=1), [(1024, 1024)])
    simple("argsort_rows_1024x1024", "sort", "jnp.argsort along rows of [1024, 1024] (stable, 2-operand sort)", lambda x: jnp.argsort(x, axis=1), [(1024, 1024)])
    simple("sort_1d_262144", "sort", "jnp.sort of 262144 floats", lambda x: jnp.sort(x), [(262144,)])
    simple("argsort_1d_262144", "sort", "jnp.argsort of 262144 floats", lambda x: jnp.argsort(x), [(262144,)])
    simple("sort_desc_i32_cols_4096x256", "sort", "descending i32 sort along axis 0 of [4096, 256]", lambda x: -jnp.sort(-x, axis=0), [((4096, 256), np.int32)])

    def kv(rng):
        k = rng.integers(0, 1 << 20, size=(65536,), dtype=np.int32)
        v = arr(rng, (65536,), np.float32)
        return (lambda k, v: lax.sort((k, v), num_keys=1)), [("keys", k), ("vals", v)]
    add("sort_kv_i32_f32_65536", "sort", "lax.sort of (i32 key, f32 value) pairs, 65536", kv)


# ----------------------------------------------------------------------------------------
# loops
# ----------------------------------------------------------------------------------------

def attend(q, k, v, mask=None):
    s = jnp.einsum("...qhd,...khd->...hqk", q, k) * (1.0 / float(np.sqrt(q.shape[-1])))  # weak type: stays bf16
    if mask is not None:
        s = jnp.where(mask, s, -1e30)
    p = jax.nn.softmax(s, axis=-1)
    return jnp.einsum("...hqk,...khd->...qhd", p, v)


def loops():
    def decode(rng):
        d, h, hd, L, steps = 512, 8, 64, 1024, 64
        x0 = arr(rng, (1, d), np.float32)
        wq, wk, wv, wo = (arr(rng, (d, d), np.float32, 1 / np.sqrt(d)) for _ in range(4))
        cache_k = np.zeros((1, L, h, hd), np.float32)
        cache_v = np.zeros((1, L, h, hd), np.float32)

        def f(x0, wq, wk, wv, wo, ck, cv):
            def body(t, c):
                x, ck, cv = c
                q = (x @ wq).reshape(1, 1, h, hd)
                k = (x @ wk).reshape(1, 1, h, hd)
                v = (x @ wv).reshape(1, 1, h, hd)
                ck = lax.dynamic_update_slice(ck, k, (0, t, 0, 0))
                cv = lax.dynamic_update_slice(cv, v, (0, t, 0, 0))
                mask = (jnp.arange(L) <= t)[None, None, None, :]
                o = attend(q, ck, cv, mask).reshape(1, d)
                return jnp.tanh(x + o @ wo), ck, cv
            return lax.fori_loop(0, steps, body, (x0, ck, cv))
        return f, [("x0", x0), ("wq", wq), ("wk", wk), ("wv", wv), ("wo", wo), ("cache_k", cache_k), ("cache_v", cache_v)]
    add("decode_kv_loop_64steps_1024", "loop", "decode loop: 64 fori_loop steps, each projects q/k/v, dynamic_update_slice into a [1, 1024, 8, 64] KV cache and attends over it (masked)",
        decode, rtol=1e-3, atol_rel=1e-4)

    def lstm(rng):
        T, B, I, H = 128, 32, 128, 256
        xs = arr(rng, (T, B, I), np.float32)
        wx = arr(rng, (I, 4 * H), np.float32, 1 / np.sqrt(I))
        wh = arr(rng, (H, 4 * H), np.float32, 1 / np.sqrt(H))
        b = arr(rng, (4 * H,), np.float32, 0.1)

        def f(xs, wx, wh, b):
            def step(c, x):
                h, cc = c
                g = x @ wx + h @ wh + b
                i, fg, o, u = jnp.split(g, 4, axis=-1)
                cc = jax.nn.sigmoid(fg) * cc + jax.nn.sigmoid(i) * jnp.tanh(u)
                h = jax.nn.sigmoid(o) * jnp.tanh(cc)
                return (h, cc), h
            z = jnp.zeros((B, H), jnp.float32)
            (h, c), hs = lax.scan(step, (z, z), xs)
            return hs, c
        return f, [("xs", xs), ("wx", wx), ("wh", wh), ("b", b)]
    add("lstm_scan_t128_b32_h256", "loop", "LSTM via lax.scan: 128 steps, batch 32, input 128, hidden 256", lstm,
        flops=2 * 128 * 32 * (128 + 256) * 1024, rtol=1e-3, atol_rel=1e-4)

    def gru(rng):
        T, B, H = 256, 8, 128
        xs = arr(rng, (T, B, H), np.float32)
        wx = arr(rng, (H, 3 * H), np.float32, 1 / np.sqrt(H))
        wh = arr(rng, (H, 3 * H), np.float32, 1 / np.sqrt(H))

        def f(xs, wx, wh):
            def step(h, x):
                gx, gh = x @ wx, h @ wh
                r = jax.nn.sigmoid(gx[:, :H] + gh[:, :H])
                z = jax.nn.sigmoid(gx[:, H:2 * H] + gh[:, H:2 * H])
                n = jnp.tanh(gx[:, 2 * H:] + r * gh[:, 2 * H:])
                h = (1 - z) * n + z * h
                return h, h
            return lax.scan(step, jnp.zeros((B, H), jnp.float32), xs)
        return f, [("xs", xs), ("wx", wx), ("wh", wh)]
    add("gru_scan_t256_b8_h128", "loop", "GRU via lax.scan: 256 steps, batch 8, hidden 128", gru, rtol=1e-3, atol_rel=1e-4)

    def rnn(rng):
        xs = arr(rng, (1000, 1, 64), np.float32)
        w = arr(rng, (64, 64), np.float32, 1 / 8)

        def f(xs, w):
            return lax.scan(lambda h, x: (jnp.tanh(h @ w + x),) * 2, jnp.zeros((1, 64), jnp.float32), xs)
        return f, [("xs", xs), ("w", w)]
    add("rnn_tanh_scan_t1000_h64", "loop", "tanh RNN via lax.scan, 1000 steps of a [1, 64] x [64, 64] step (per-iteration overhead)", rnn, rtol=1e-3, atol_rel=1e-4)

    def wscalar(rng):
        x = np.array(0.5, np.float32)
        return (lambda x: lax.fori_loop(0, 10000, lambda i, v: v * 0.999 + jnp.sin(v) * 1e-3, x)), [("x", x)]
    add("while_scalar_10000", "loop", "fori_loop of 10000 iterations on a scalar (tiny body: loop overhead)", wscalar, rtol=1e-4, atol_rel=1e-5)

    def wvec(rng):
        x = arr(rng, (16,), np.float32)
        return (lambda x: lax.fori_loop(0, 4096, lambda i, v: jnp.tanh(v * 1.01 + jnp.roll(v, 1) * 0.1), x)), [("x", x)]
    add("while_vec16_4096", "loop", "fori_loop of 4096 iterations on a [16] vector (roll, tanh)", wvec, rtol=1e-3, atol_rel=1e-4)

    def newton(rng):
        a = (rng.random(1 << 20) * 100 + 1).astype(np.float32)
        return (lambda a: lax.fori_loop(0, 20, lambda i, x: 0.5 * (x + a / x), a)), [("a", a)]
    add("newton_sqrt_1m_20iters", "loop", "20 Newton iterations for sqrt on 1M floats (fori_loop with a big carried tensor)", newton)

    def ema(rng):
        xs = arr(rng, (4096, 64), np.float32)
        return (lambda xs: lax.scan(lambda c, x: (0.9 * c + 0.1 * x,) * 2, jnp.zeros((64,), jnp.float32), xs)), [("xs", xs)]
    add("scan_ema_t4096_c64", "loop", "exponential moving average via lax.scan over 4096 steps of [64] (stacked outputs)", ema, rtol=1e-4, atol_rel=1e-5)

    def wdata(rng):
        x = arr(rng, (1024,), np.float32, 1000.0)
        return (lambda x: lax.while_loop(lambda x: jnp.max(jnp.abs(x)) > 1e-3, lambda x: x * 0.5, x)), [("x", x)]
    add("while_datadep_halve_1024", "loop", "while_loop with a data-dependent condition (max |x| > 1e-3), body x * 0.5", wdata, exact=True)


# ----------------------------------------------------------------------------------------
# attention, norms, MLP, losses, gathers and scatters
# ----------------------------------------------------------------------------------------

def nn_ops():
    def attn(name, B, H, S, D, dt=np.float32, causal=True, kvh=None):
        kvh = kvh or H

        def build(rng):
            q = arr(rng, (B, S, H, D), dt)
            k = arr(rng, (B, S, kvh, D), dt)
            v = arr(rng, (B, S, kvh, D), dt)

            def f(q, k, v):
                if kvh != H:
                    k = jnp.repeat(k, H // kvh, axis=2)
                    v = jnp.repeat(v, H // kvh, axis=2)
                mask = (jnp.arange(S)[:, None] >= jnp.arange(S)[None, :]) if causal else None
                return attend(q, k, v, mask)
            return f, [("q", q), ("k", k), ("v", v)]
        add(name, "attention", f"{'causal ' if causal else ''}attention {np.dtype(dt).name}, batch {B}, {H} heads"
            + (f" ({kvh} kv heads)" if kvh != H else "") + f", seq {S}, head dim {D}", build,
            flops=4 * B * H * S * S * D, rtol=1e-3 if dt == np.float32 else None)
    attn("attn_causal_b4_h8_s512_d64", 4, 8, 512, 64)
    attn("attn_causal_b1_h16_s2048_d64", 1, 16, 2048, 64)
    attn("attn_bf16_b8_h8_s256_d64", 8, 8, 256, 64, dt=BF16, causal=False)
    attn("attn_gqa_b1_h32_kv8_s1024_d128", 1, 32, 1024, 128, kvh=8)

    simple("softmax_vocab_64x32000", "norm", "softmax over a 32000 vocabulary, 64 rows", lambda x: jax.nn.softmax(x, axis=-1), [(64, 32000)], rtol=1e-4, atol_rel=1e-6)

    def ln(x, g, b):
        xf = x.astype(jnp.float32)
        mu = xf.mean(-1, keepdims=True)
        var = ((xf - mu) ** 2).mean(-1, keepdims=True)
        return ((xf - mu) * lax.rsqrt(var + 1e-5) * g + b).astype(x.dtype)
    simple("layernorm_bf16_4096x1024", "norm", "LayerNorm of bf16 [4096, 1024] (f32 statistics, bf16 result)", ln, [((4096, 1024), BF16), (1024,), (1024,)])
    simple("softmax_bf16_4096x1024", "norm", "softmax of bf16 rows [4096, 1024]", lambda x: jax.nn.softmax(x, axis=-1), [((4096, 1024), BF16)])
    simple("softmax_f16_8192x256", "norm", "softmax of f16 rows [8192, 256]", lambda x: jax.nn.softmax(x, axis=-1), [((8192, 256), F16)])
    simple("softmax_f32_16384x128", "norm", "softmax of short f32 rows [16384, 128]", lambda x: jax.nn.softmax(x, axis=-1), [(16384, 128)], rtol=1e-4, atol_rel=1e-6)
    simple("layernorm_f16_4096x1024", "norm", "LayerNorm of f16 [4096, 1024] (f32 statistics, f16 result)", ln, [((4096, 1024), F16), (1024,), (1024,)])
    simple("rmsnorm_bf16_8192x512", "norm", "RMSNorm of bf16 [8192, 512] with a bf16 scale", lambda x, g: x * lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + 1e-6) * g, [((8192, 512), BF16), ((512,), BF16)])
    simple("rmsnorm_8192x512", "norm", "RMSNorm of [8192, 512] with a scale", lambda x, g: x * lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + 1e-6) * g, [(8192, 512), (512,)])

    def mlp_erf(rng):
        x = arr(rng, (512, 1024), np.float32)
        w1 = arr(rng, (1024, 4096), np.float32, 1 / 32)
        w2 = arr(rng, (4096, 1024), np.float32, 1 / 64)
        return (lambda x, w1, w2: jax.nn.gelu(x @ w1, approximate=False) @ w2), [("x", x), ("w1", w1), ("w2", w2)]
    add("mlp_gelu_erf_512x1024x4096", "mlp", "MLP with exact (erf) GELU: [512, 1024] @ [1024, 4096] -> gelu -> @ [4096, 1024]", mlp_erf,
        flops=2 * 2 * 512 * 1024 * 4096)

    def xent_build(grad):
        def build(rng):
            lg = arr(rng, (256, 32000), np.float32, 3.0)
            lab = rng.integers(0, 32000, size=(256,), dtype=np.int32)

            def loss(lg, lab):
                lp = jax.nn.log_softmax(lg, axis=-1)
                return -jnp.mean(jnp.take_along_axis(lp, lab[:, None], axis=1))
            return (jax.value_and_grad(loss) if grad else loss), [("logits", lg), ("labels", lab)]
        return build
    add("xent_32000_b256", "loss", "cross-entropy over a 32000 vocabulary: log_softmax + label gather + mean, 256 rows", xent_build(False))
    add("xent_grad_32000_b256", "loss", "cross-entropy over 32000 classes and its gradient wrt the logits, 256 rows", xent_build(True), rtol=1e-4, atol_rel=1e-4)

    def lmhead(rng):
        h = arr(rng, (512, 256), np.float32)
        w = arr(rng, (256, 32000), np.float32, 1 / 16)
        lab = rng.integers(0, 32000, size=(512,), dtype=np.int32)

        def f(h, w, lab):
            lp = jax.nn.log_softmax(h @ w, axis=-1)
            return -jnp.mean(jnp.take_along_axis(lp, lab[:, None], axis=1))
        return f, [("h", h), ("w", w), ("labels", lab)]
    add("lm_head_xent_512x256x32000", "loss", "LM head + cross-entropy: [512, 256] @ [256, 32000], log_softmax, label gather, mean", lmhead,
        flops=2 * 512 * 256 * 32000, rtol=1e-4, atol_rel=1e-4)

    def embed(rng):
        t = arr(rng, (32000, 256), np.float32)
        ids = rng.integers(0, 32000, size=(4096,), dtype=np.int32)
        return (lambda t, i: t[i] * 16.0), [("table", t), ("ids", ids)]
    add("embed_gather_32000x256_4096", "gather", "embedding gather: 4096 rows of a [32000, 256] table, times 16", embed, exact=True)

    def embed_grad(rng):
        t = arr(rng, (32000, 128), np.float32)
        ids = rng.integers(0, 1000, size=(8192,), dtype=np.int32)
        g = (rng.integers(-8, 8, size=(8192, 128)) / 16).astype(np.float32)

        def f(t, ids, g):
            _, vjp = jax.vjp(lambda t: t[ids], t)
            return vjp(g)[0]
        return f, [("table", t), ("ids", ids), ("g", g)]
    add("embed_grad_scatter_32000x128_8192", "scatter", "gradient of an embedding gather: scatter-add of 8192 rows (ids in 0..999, many duplicates) into [32000, 128]",
        embed_grad, exact=True)

    def segsum(rng):
        v = (rng.integers(-8, 8, size=(1 << 20,)) / 16).astype(np.float32)
        s = np.sort(rng.integers(0, 1024, size=(1 << 20,), dtype=np.int32))
        return (lambda v, s: jax.ops.segment_sum(v, s, num_segments=1024)), [("values", v), ("segments", s)]
    add("segment_sum_1m_1024", "scatter", "segment_sum of 1M values (sorted ids) into 1024 segments", segsum, exact=True)

    def scat_rows(rng):
        acc = arr(rng, (1024, 256), np.float32)
        ids = rng.integers(0, 1024, size=(16384,), dtype=np.int32)
        u = (rng.integers(-8, 8, size=(16384, 256)) / 16).astype(np.float32)
        return (lambda a, i, u: a.at[i].add(u)), [("acc", acc), ("ids", ids), ("updates", u)]
    add("scatter_add_rows_16384_into_1024x256", "scatter", "scatter-add of 16384 rows into [1024, 256] (unsorted ids, duplicates)", scat_rows, rtol=1e-6, atol_rel=1e-6)

    def bincount(rng):
        x = rng.integers(0, 4096, size=(1 << 20,), dtype=np.int32)
        return (lambda x: jnp.zeros((4096,), jnp.int32).at[x].add(1)), [("x", x)]
    add("bincount_1m_4096", "scatter", "histogram: scatter-add of ones for 1M i32 ids into 4096 bins", bincount)

    def scat_max(rng):
        ids = rng.integers(0, 4096, size=(1 << 18,), dtype=np.int32)
        v = arr(rng, (1 << 18,), np.float32)
        return (lambda i, v: jnp.full((4096,), -jnp.inf, jnp.float32).at[i].max(v)), [("ids", ids), ("v", v)]
    add("scatter_max_262144_4096", "scatter", "scatter-max of 262144 values into 4096 bins", scat_max, exact=True)


# ----------------------------------------------------------------------------------------
# complex
# ----------------------------------------------------------------------------------------

def complex_ops():
    simple("fft2_c64_512x512", "fft", "2-D complex FFT (jnp.fft.fft2) of c64 [512, 512]", jnp.fft.fft2, [((512, 512), np.complex64)],
           rtol=1e-4, atol_rel=1e-5, flops=5 * 512 * 512 * 18)
    simple("fft_c64_b256_4096", "fft", "1-D complex FFT of length 4096, 256 rows", jnp.fft.fft, [((256, 4096), np.complex64)],
           rtol=1e-4, atol_rel=1e-5, flops=5 * 256 * 4096 * 12)
    simple("ifft_c64_b64_16384", "fft", "1-D inverse complex FFT of length 16384, 64 rows", jnp.fft.ifft, [((64, 16384), np.complex64)],
           rtol=1e-4, atol_rel=1e-5)
    simple("rfft_b32_65536", "fft", "real FFT of length 65536, 32 rows", jnp.fft.rfft, [(32, 65536)], rtol=1e-4, atol_rel=1e-5)
    simple("rfft2_b8_512x512", "fft", "2-D real FFT (jnp.fft.rfft2) of [8, 512, 512]", jnp.fft.rfft2, [(8, 512, 512)], rtol=1e-4, atol_rel=1e-5)
    simple("irfft_b256_1024", "fft", "inverse real FFT (c64 [256, 513] -> f32 [256, 1024])", lambda x: jnp.fft.irfft(x, n=1024), [((256, 513), np.complex64)],
           rtol=1e-4, atol_rel=1e-5)
    simple("c64_ew_mul_abs_1024x1024", "fft", "complex elementwise: |x * y| + angle(x) on c64 [1024, 1024]", lambda x, y: jnp.abs(x * y) + jnp.angle(x),
           [((1024, 1024), np.complex64)] * 2)


# ----------------------------------------------------------------------------------------
# whole models
# ----------------------------------------------------------------------------------------

def c2d(x, w, s=1, groups=1):
    return lax.conv_general_dilated(x, w, (s, s), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"), feature_group_count=groups)


def models():
    def resnet_params(rng, C):
        return [arr(rng, (3, 3, C, C), np.float32, 1 / np.sqrt(9 * C)), (1 + 0.1 * rng.standard_normal(C)).astype(np.float32),
                arr(rng, (C,), np.float32, 0.1), arr(rng, (3, 3, C, C), np.float32, 1 / np.sqrt(9 * C)),
                (1 + 0.1 * rng.standard_normal(C)).astype(np.float32), arr(rng, (C,), np.float32, 0.1)]

    def resnet_block(x, w1, s1, b1, w2, s2, b2):
        h = jax.nn.relu(c2d(x, w1) * s1 + b1)
        return jax.nn.relu(x + c2d(h, w2) * s2 + b2)
    B, HW, C = 8, 28, 128
    rflops = 2 * 2 * B * HW * HW * C * 9 * C

    def rfwd(rng):
        p = resnet_params(rng, C)
        return resnet_block, [("x", arr(rng, (B, HW, HW, C), np.float32))] + list(zip(["w1", "s1", "b1", "w2", "s2", "b2"], p))
    add("resnet_block_fwd_b8_28x28_128", "model", "ResNet basic block forward (two 3x3 convs, folded batch-norm affine, ReLU, residual), batch 8, 28x28x128",
        rfwd, flops=rflops, rtol=1e-4, atol_rel=1e-4)

    def rgrad(rng):
        p = resnet_params(rng, C)
        x = arr(rng, (B, HW, HW, C), np.float32)

        def f(x, *p):
            return jax.value_and_grad(lambda p: jnp.mean(resnet_block(x, *p) ** 2))(list(p))
        return f, [("x", x)] + list(zip(["w1", "s1", "b1", "w2", "s2", "b2"], p))
    add("resnet_block_fwdgrad_b8_28x28_128", "model", "ResNet basic block forward + gradient wrt its 6 parameters (mean-square loss), batch 8, 28x28x128",
        rgrad, flops=3 * rflops, rtol=1e-3, atol_rel=1e-4)

    def mbnet(rng):
        Bm, HWm, Cin, Cout = 8, 56, 64, 128
        x = arr(rng, (Bm, HWm, HWm, Cin), np.float32)
        wd = arr(rng, (3, 3, 1, Cin), np.float32, 1 / 3)
        sd = (1 + 0.1 * rng.standard_normal(Cin)).astype(np.float32)
        wp = arr(rng, (1, 1, Cin, Cout), np.float32, 1 / 8)
        bp = arr(rng, (Cout,), np.float32, 0.1)

        def f(x, wd, sd, wp, bp):
            h = jnp.clip(c2d(x, wd, groups=Cin) * sd, 0, 6)
            return jnp.clip(c2d(h, wp) + bp, 0, 6)
        return f, [("x", x), ("wd", wd), ("sd", sd), ("wp", wp), ("bp", bp)]
    add("mobilenet_dwsep_b8_56x56_64to128", "model", "MobileNet depthwise-separable block: depthwise 3x3 + scale + ReLU6, pointwise 64 -> 128 + bias + ReLU6, batch 8, 56x56",
        mbnet, flops=2 * 8 * 56 * 56 * (9 * 64 + 64 * 128), rtol=1e-4, atol_rel=1e-4)

    # --- transformer (pre-LN, causal, GELU MLP)
    def tparams(rng, L, d, V):
        ps = {"emb": arr(rng, (V, d), np.float32, 0.1)}
        for i in range(L):
            for nm, sh in [("wqkv", (d, 3 * d)), ("wo", (d, d)), ("w1", (d, 4 * d)), ("w2", (4 * d, d))]:
                ps[f"l{i}_{nm}"] = arr(rng, sh, np.float32, 1 / np.sqrt(sh[0]))
            ps[f"l{i}_g1"] = np.ones(d, np.float32)
            ps[f"l{i}_g2"] = np.ones(d, np.float32)
        return ps

    def rms(x, g):
        return x * lax.rsqrt(jnp.mean(x * x, -1, keepdims=True) + 1e-6) * g

    def tfwd(ps, ids, L, d, nh):
        x = ps["emb"][ids]  # [B, S, d]
        Bt, S = ids.shape
        mask = jnp.arange(S)[:, None] >= jnp.arange(S)[None, :]
        for i in range(L):
            h = rms(x, ps[f"l{i}_g1"])
            q, k, v = jnp.split(h @ ps[f"l{i}_wqkv"], 3, axis=-1)
            sh = lambda t: t.reshape(Bt, S, nh, d // nh)  # noqa: E731
            x = x + attend(sh(q), sh(k), sh(v), mask).reshape(Bt, S, d) @ ps[f"l{i}_wo"]
            h = rms(x, ps[f"l{i}_g2"])
            x = x + jax.nn.gelu(h @ ps[f"l{i}_w1"]) @ ps[f"l{i}_w2"]
        return x @ ps["emb"].T

    def train(rng):
        L, d, nh, V, Bt, S = 2, 256, 4, 2048, 8, 128
        ps = tparams(rng, L, d, V)
        ids = rng.integers(0, V, size=(Bt, S + 1), dtype=np.int32)
        names = sorted(ps)

        def f(ids, *vals):
            p = dict(zip(names, vals))

            def loss(p):
                lg = tfwd(p, ids[:, :-1], L, d, nh)
                lp = jax.nn.log_softmax(lg, -1)
                return -jnp.mean(jnp.take_along_axis(lp, ids[:, 1:, None], axis=-1))
            lv, g = jax.value_and_grad(loss)(p)
            return [lv] + [p[n] - 0.1 * g[n] for n in names]
        return f, [("ids", ids)] + [(n, ps[n]) for n in names]
    add("transformer_train_step_l2_d256_s128_b8", "model", "transformer training step: 2 pre-RMSNorm causal layers (d 256, 4 heads, GELU MLP), tied 2048-token embedding, "
        "cross-entropy, value_and_grad, SGD update; batch 8, seq 128", train, rtol=1e-3, atol_rel=1e-4,
        flops=3 * 2 * 8 * 128 * (2 * (12 * 256 * 256) + 2048 * 256))

    def decode_step(rng):
        L, d, nh, V, Smax = 3, 512, 8, 2048, 1024
        ps = tparams(rng, L, d, V)
        ck = arr(rng, (L, 1, Smax, nh, d // nh), np.float32)
        cv = arr(rng, (L, 1, Smax, nh, d // nh), np.float32)
        pos = np.array(700, np.int32)
        tok = np.array([17], np.int32)
        names = sorted(ps)

        def f(tok, pos, ck, cv, *vals):
            p = dict(zip(names, vals))
            x = p["emb"][tok]  # [1, d]
            mask = (jnp.arange(Smax) <= pos)[None, None, None, :]
            ks, vs = [], []
            for i in range(L):
                h = rms(x, p[f"l{i}_g1"])
                q, k, v = jnp.split(h @ p[f"l{i}_wqkv"], 3, axis=-1)
                hs = lambda t: t.reshape(1, 1, nh, d // nh)  # noqa: E731
                cki = lax.dynamic_update_slice(ck[i], hs(k), (0, pos, 0, 0))
                cvi = lax.dynamic_update_slice(cv[i], hs(v), (0, pos, 0, 0))
                ks.append(cki)
                vs.append(cvi)
                x = x + attend(hs(q), cki, cvi, mask).reshape(1, d) @ p[f"l{i}_wo"]
                h = rms(x, p[f"l{i}_g2"])
                x = x + jax.nn.gelu(h @ p[f"l{i}_w1"]) @ p[f"l{i}_w2"]
            logits = x @ p["emb"].T
            return jnp.argmax(logits, -1), logits, jnp.stack(ks), jnp.stack(vs)
        return f, [("tok", tok), ("pos", pos), ("cache_k", ck), ("cache_v", cv)] + [(n, ps[n]) for n in names]
    add("transformer_decode_step_l3_d512_kv1024", "model", "transformer decode step: one token through 3 layers (d 512, 8 heads) with a KV cache of 1024 "
        "(dynamic_update_slice at pos 700, masked attention), logits over 2048 tokens, argmax; returns the updated caches", decode_step,
        rtol=1e-3, atol_rel=1e-4)

    def qmlp(rng):
        x = rng.integers(-128, 128, size=(64, 1024), dtype=np.int8)
        w1 = rng.integers(-128, 128, size=(1024, 4096), dtype=np.int8)
        w2 = rng.integers(-128, 128, size=(4096, 1024), dtype=np.int8)
        s1 = (rng.random(4096) * 1e-5 + 1e-5).astype(np.float32)
        s2 = (rng.random(1024) * 1e-3 + 1e-3).astype(np.float32)

        def f(x, w1, s1, w2, s2):
            h = lax.dot(x, w1, preferred_element_type=jnp.int32).astype(jnp.float32) * s1
            hq = jnp.clip(jnp.round(jax.nn.relu(h) * 127.0), -128, 127).astype(jnp.int8)
            return lax.dot(hq, w2, preferred_element_type=jnp.int32).astype(jnp.float32) * s2
        return f, [("x", x), ("w1", w1), ("s1", s1), ("w2", w2), ("s2", s2)]
    add("quant_int8_mlp_b64_1024x4096", "model", "quantized int8 MLP inference: i8 x i8 -> i32 dot, dequantize, ReLU, requantize to i8, second i8 dot; batch 64, 1024 -> 4096 -> 1024",
        qmlp, flops=2 * 2 * 64 * 1024 * 4096, rtol=1e-3, atol_rel=1e-3)

    def bmlp(rng):
        x = arr(rng, (256, 1024), BF16)
        w1 = arr(rng, (1024, 4096), BF16, 1 / 32)
        w2 = arr(rng, (4096, 1024), BF16, 1 / 64)
        b1 = arr(rng, (4096,), BF16, 0.1)
        return (lambda x, w1, b1, w2: jax.nn.gelu(x @ w1 + b1) @ w2), [("x", x), ("w1", w1), ("b1", b1), ("w2", w2)]
    add("bf16_mlp_b256_1024x4096", "model", "bf16 MLP inference (bf16 dots and GELU): [256, 1024] -> 4096 -> 1024", bmlp, flops=2 * 2 * 256 * 1024 * 4096)

    def mlp1(rng):
        x = arr(rng, (1, 2048), np.float32)
        ws = [arr(rng, (2048, 2048), np.float32, 1 / 45) for _ in range(3)]
        return (lambda x, a, b, c: jax.nn.relu(jax.nn.relu(x @ a) @ b) @ c), [("x", x), ("w1", ws[0]), ("w2", ws[1]), ("w3", ws[2])]
    add("mlp_b1_3x2048", "model", "batch-1 MLP latency: three [2048, 2048] layers (GEMV chain)", mlp1, flops=3 * 2 * 2048 * 2048)


# ----------------------------------------------------------------------------------------
# elementwise
# ----------------------------------------------------------------------------------------

def elementwise():
    n = (2048, 2048)
    simple("ew_erf_2048", "elementwise", "erf of [2048, 2048] (chlo.erf)", lax.erf, [n])
    simple("ew_sin_cos_2048", "elementwise", "sin(x) * cos(y) on [2048, 2048]", lambda x, y: jnp.sin(x) * jnp.cos(y), [n, n], scale=10.0, rtol=1e-4, atol_rel=1e-5)
    simple("ew_exp_log_f64_1024", "elementwise", "f64 log(1 + exp(x)) on [1024, 1024]", lambda x: jnp.log1p(jnp.exp(x)), [(1024, 1024)], dt=np.float64, x64=True)
    simple("ew_pow_2048", "elementwise", "|x| ** y on [2048, 2048]", lambda x, y: jnp.abs(x) ** y, [n, n], rtol=1e-4)
    simple("ew_sigmoid_silu_2048", "elementwise", "x * sigmoid(x) (SiLU) on [2048, 2048]", jax.nn.silu, [n])
    simple("ew_gelu_tanh_bf16_2048", "elementwise", "tanh-GELU in bf16 on [2048, 2048]", lambda x: jax.nn.gelu(x, approximate=True), [(n, BF16)])
    simple("ew_silu_f16_2048", "elementwise", "SiLU in f16 on [2048, 2048]", jax.nn.silu, [(n, F16)])
    simple("ew_i32_divrem_2048", "elementwise", "i32 (x // 7) + (x % 13) * y on [2048, 2048]", lambda x, y: (x // 7) + (x % 13) * y, [(n, np.int32), (n, np.int32)])
    simple("ew_atan2_2048", "elementwise", "atan2(y, x) on [2048, 2048]", jnp.arctan2, [n, n])
    simple("ew_quantize_i8_2048", "elementwise", "quantize f32 -> i8: clip(round(x * 40), -128, 127)", lambda x: jnp.clip(jnp.round(x * 40.0), -128, 127).astype(jnp.int8), [n])
    simple("ew_f32_bf16_roundtrip_2048", "elementwise", "convert f32 -> bf16 -> f32, then x - that (rounding error)", lambda x: x - x.astype(jnp.bfloat16).astype(jnp.float32), [n], exact=True)
    simple("ew_softplus_clamp_2048", "elementwise", "softplus then clamp to [0, 4] on [2048, 2048]", lambda x: jnp.clip(jax.nn.softplus(x), 0.0, 4.0), [n])
    simple("ew_isfinite_select_2048", "elementwise", "where(isfinite(x / y), x / y, 0) on [2048, 2048]", lambda x, y: jnp.where(jnp.isfinite(x / y), x / y, 0.0), [n, n])


# ----------------------------------------------------------------------------------------
# random numbers (threefry: integer hash rounds, element-wise DAGs with values used twice)
# ----------------------------------------------------------------------------------------

def random_bits():
    def key(rng):
        return np.asarray(jax.random.key_data(jax.random.PRNGKey(int(rng.integers(1 << 31)))))

    def bern(rng):
        return (lambda k: jax.random.bernoulli(jax.random.wrap_key_data(k), 0.9, (512, 1024))), [("key", key(rng))]
    add("rng_bernoulli_512x1024", "rng", "jax.random.bernoulli(key, 0.9, [512, 1024]) (threefry2x32)", bern, exact=True)

    def normal(rng):
        return (lambda k: jax.random.normal(jax.random.wrap_key_data(k), (1024, 1024))), [("key", key(rng))]
    add("rng_normal_1024x1024", "rng", "jax.random.normal(key, [1024, 1024]) f32 (threefry2x32, erf_inv)", normal, rtol=1e-5, atol_rel=1e-5)

    def dropout(rng):
        x = arr(rng, (1024, 1024), np.float32)

        def f(k, x):
            keep = jax.random.bernoulli(jax.random.wrap_key_data(k), 0.9, x.shape)
            return jnp.where(keep, x / 0.9, 0.0)
        return f, [("key", key(rng)), ("x", x)]
    add("rng_dropout_1024x1024", "rng", "dropout(p=0.1) of [1024, 1024] f32: bernoulli mask, scale, select", dropout, rtol=1e-6, atol_rel=1e-6)

    def bits(rng):
        return (lambda k: jax.random.bits(jax.random.wrap_key_data(k), (1 << 20,), jnp.uint32)), [("key", key(rng))]
    add("rng_bits_u32_1m", "rng", "jax.random.bits(key, [1M]) u32 (threefry2x32 alone)", bits, exact=True)


GROUPS = [matmuls, convs, pools_scans_reductions, data_movement, topk_sort, loops, nn_ops, complex_ops, models, elementwise, random_bits]

# ----------------------------------------------------------------------------------------
# writing
# ----------------------------------------------------------------------------------------


def dtype_name(a):
    return "bfloat16" if a.dtype == BF16 else str(a.dtype)


def census(text):
    ops = {}
    for m in re.finditer(r"(?<![\w.])((?:stablehlo|chlo|func|mhlo|sdy)\.[a-z_]+)", text):
        ops[m.group(1)] = ops.get(m.group(1), 0) + 1
    calls = len(re.findall(r"\bcall @\w+", text))
    if calls:
        ops["func.call"] = calls
    # the pretty form prints func.return as a bare `return`
    ops["func.return"] = len(re.findall(r"^\s*(?:func\.)?return\b", text, re.M))
    dialects = sorted({k.split(".")[0] for k in ops})
    return dict(ops=dict(sorted(ops.items())), dialects=dialects,
                non_stablehlo_dialects=[d for d in dialects if d not in ("stablehlo", "func")],
                chlo_ops=sorted(k for k in ops if k.startswith("chlo.")),
                custom_calls=sorted(set(re.findall(r"call_target_name\s*=\s*\"([^\"]+)\"", text))),
                private_functions=sorted(set(re.findall(r"func\.func private @(\w+)", text))),
                public_main=bool(re.search(r"func\.func public @main", text)))


def sampled(o):
    n = o.size
    stride = 1 if n <= (1 << 18) else (7 if n <= (1 << 22) else 31)
    flat = o.reshape(-1)
    return stride, (flat[::stride] if stride > 1 else o)


def write_one(out_dir, name):
    cls, desc, build, opts = PROGRAMS[name]
    jax.config.update("jax_enable_x64", bool(opts.get("x64")))
    seed = zlib.crc32(name.encode())
    rng = np.random.default_rng(seed)
    fn, args = build(rng)
    vals = [a for _, a in args]
    jf = jax.jit(fn, keep_unused=True)  # the program takes every argument the folder holds
    lowered = jf.lower(*vals)
    text = lowered.as_text()
    try:
        generic = lowered.compiler_ir("stablehlo").operation.get_asm(print_generic_op_form=True, enable_debug_info=False)
    except Exception:  # noqa: BLE001
        generic = None
    outs = [np.asarray(o) for o in jax.tree_util.tree_leaves(jax.block_until_ready(jf(*vals)))]
    d = os.path.join(out_dir, name)
    os.makedirs(d, exist_ok=True)
    for f in os.listdir(d):
        os.remove(os.path.join(d, f))
    with open(os.path.join(d, "program.mlir"), "w") as fh:
        fh.write(text)
    if generic:
        with open(os.path.join(d, "program.generic.mlir"), "w") as fh:
            fh.write(generic)
    inputs = []
    in_bytes = 0
    for i, (an, a) in enumerate(args):
        a = np.asarray(a)
        np.save(os.path.join(d, f"arg{i}.npy"), a)
        inputs.append(dict(file=f"arg{i}.npy", name=an, shape=list(a.shape), dtype=dtype_name(a)))
        in_bytes += a.nbytes
    outputs = []
    out_bytes = 0
    for k, o in enumerate(outs):
        stride, s = sampled(o)
        np.save(os.path.join(d, f"out{k}.npy"), s)
        out_bytes += o.nbytes
        narrow = o.dtype in (BF16, np.float16)
        kind = "c" if np.iscomplexobj(o) else ("f" if (o.dtype.kind == "f" or o.dtype == BF16) else "i")
        m = dict(file=f"out{k}.npy", shape=list(o.shape), dtype=dtype_name(o), stride=stride, sample_len=int(s.size))
        if kind == "i" or o.dtype == np.bool_ or opts.get("exact"):
            m.update(rtol=0.0, atol=0.0)
        else:
            mag = np.abs(o.astype(np.complex128 if kind == "c" else np.float64))
            rmsv = float(np.sqrt(np.mean(mag ** 2))) if o.size else 0.0
            if o.dtype == np.float64:
                rtol, arel = 1e-9, 1e-9
            elif narrow:
                rtol, arel = 3e-2, 3e-2
            else:
                rtol, arel = opts.get("rtol") or 1e-4, opts.get("atol_rel") or 1e-4
            m.update(rtol=rtol, atol=float(arel * max(rmsv, 1e-30)))
        if not narrow:
            if kind == "c":
                for part, v in (("real_", o.real.astype(np.float64)), ("imag_", o.imag.astype(np.float64))):
                    m.update({part + "sum": float(v.sum()), part + "abs_sum": float(np.abs(v).sum()), part + "sq_sum": float((v * v).sum())})
            else:
                v = o.astype(np.float64)
                m.update(sum=float(v.sum()), abs_sum=float(np.abs(v).sum()), sq_sum=float((v * v).sum()))
        outputs.append(m)
    flops = opts.get("flops")
    meta = dict(name=name, description=desc, op_class=cls, inputs=inputs, outputs=outputs, flops=flops,
                ops_per_element=None, flops_note=None, bytes_moved_min=int(in_bytes + out_bytes),
                metric="GFLOPS" if flops else "GB/s", exact=bool(opts.get("exact")), generated_in_program=None,
                stablehlo=census(text), producer=f"jax {jax.__version__} jax.jit(f).lower(*args).as_text()",
                jax_function=name, seed=seed)
    with open(os.path.join(d, "meta.json"), "w") as fh:
        json.dump(meta, fh, indent=1)
    size = sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))
    return dict(name=name, op_class=cls, description=desc, bytes_on_disk=size)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", nargs="?", default="target/broad-bench")
    ap.add_argument("--only", default="", help="comma-separated program names (index.json keeps the others)")
    ap.add_argument("--list", action="store_true", help="print the programs and exit")
    a = ap.parse_args()
    for g in GROUPS:
        g()
    if a.list:
        for n, (c, d, _, _) in PROGRAMS.items():
            print(f"{n:44s} {c:12s} {d}")
        print(f"{len(PROGRAMS)} programs", file=sys.stderr)
        return
    os.makedirs(a.out, exist_ok=True)
    only = [n for n in a.only.split(",") if n]
    for n in only:
        if n not in PROGRAMS:
            raise SystemExit(f"unknown program {n}")
    idx_path = os.path.join(a.out, "index.json")
    index = {}
    if only and os.path.exists(idx_path):
        with open(idx_path) as fh:
            index = {w["name"]: w for w in json.load(fh)["workloads"] if w["name"] in PROGRAMS}
    failed = []
    for n in PROGRAMS:
        if only and n not in only:
            continue
        t0 = time.time()
        try:
            index[n] = write_one(a.out, n)
            print(f"# {n}: {index[n]['bytes_on_disk'] / 1e6:.1f} MB, {time.time() - t0:.1f} s", file=sys.stderr, flush=True)
        except Exception as e:  # noqa: BLE001
            failed.append(n)
            print(f"# {n}: FAILED {type(e).__name__}: {e}", file=sys.stderr, flush=True)
    order = list(PROGRAMS)
    ws = sorted(index.values(), key=lambda w: order.index(w["name"]) if w["name"] in order else 1 << 30)
    with open(idx_path, "w") as fh:
        json.dump(dict(generator="bench/broad/gen.py", jax=jax.__version__, workloads=ws), fh, indent=1)
    total = sum(w["bytes_on_disk"] for w in ws)
    print(f"{len(ws)} programs, {total / 1e9:.2f} GB in {a.out}" + (f"; failed: {', '.join(failed)}" if failed else ""), file=sys.stderr)
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
