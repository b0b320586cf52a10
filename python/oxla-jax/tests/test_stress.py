"""Concurrency through the plugin at a reduced count (stress_jax.py is the full run: 8
threads x 1000 calls): 8 Python threads of mixed calls on 1 and on 8 devices, in a
subprocess with a deadline, so a deadlock or a crash fails the test."""

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.mark.parametrize("devices", [1, 8])
def test_eight_threads_of_mixed_calls(devices):
    calls = os.environ.get("OXLA_STRESS_JAX_CALLS", "150")
    env = dict(os.environ, OXLA_NUM_DEVICES=str(devices), JAX_PLATFORMS="oxla,cpu")
    p = subprocess.run(
        [sys.executable, os.path.join(HERE, "stress_jax.py"), "--threads", "8", "--calls", calls],
        env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr[-4000:]
    assert f"{8 * int(calls)} of {8 * int(calls)} calls right" in p.stdout, p.stdout
