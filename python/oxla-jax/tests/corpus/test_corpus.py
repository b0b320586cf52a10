"""Every program of the JAX corpus (crates/oxla/tests/data/jax_corpus/programs.py) through
`jax.jit` on Oxla and on JAX's CPU backend, compared with the corpus's tolerances.

Its own pytest run (see .ci/jax_plugin): programs.py turns on `jax_enable_x64` when imported,
which the other tests do not expect. Programs that differ from XLA on purpose or not yet are
the `jit` lines of the corpus's known_failures.txt (the Rust test's list): xfail here.
"""

import json
import os
import sys

import jax
import ml_dtypes
import numpy as np
import pytest

CORPUS = os.path.normpath(
    os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "crates", "oxla", "tests", "data", "jax_corpus")
)
sys.path.insert(0, CORPUS)

import programs as P  # noqa: E402  (turns on jax_enable_x64)

PROGRAMS = list(P.programs())
MANIFEST = {(e["area"], e["name"]): e for e in json.load(open(os.path.join(CORPUS, "manifest.json")))["programs"]}


def known_failures():
    out = set()
    with open(os.path.join(CORPUS, "known_failures.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, backend = line.split(":", 1)[0].split()
            if backend == "jit":
                out.add(name)
    return out


KNOWN = known_failures()


def leaves(x):
    return [np.asarray(a) for a in jax.tree_util.tree_leaves(x)]


def run(device, p):
    args = jax.device_put(p.args, device)
    return leaves(jax.jit(p.fn)(*args))


def widen(a):
    # numpy cannot compare bfloat16 arrays with tolerances.
    return a.astype(np.float32) if a.dtype == ml_dtypes.bfloat16 else a


@pytest.fixture(scope="module")
def devices():
    return jax.devices("oxla")[0], jax.devices("cpu")[0]


@pytest.mark.parametrize("p", PROGRAMS, ids=[f"{p.area}/{p.name}" for p in PROGRAMS])
def test_program(devices, p):
    oxla, cpu = devices
    key = f"{p.area}/{p.name}"
    if key in KNOWN:
        pytest.xfail("in known_failures.txt (differs from XLA on purpose or not yet)")
    entry = MANIFEST.get((p.area, p.name))
    rtol, atol = (entry["rtol"], entry["atol"]) if entry else (1e-6, 1e-6)
    got, want = run(oxla, p), run(cpu, p)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.shape == w.shape and g.dtype == w.dtype, (i, g.shape, g.dtype, w.shape, w.dtype)
        g, w = widen(g), widen(w)
        if rtol == 0 and atol == 0 or g.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w, err_msg=f"output {i}")
        else:
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True, err_msg=f"output {i}")
