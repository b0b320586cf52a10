"""Loading and checking a bench folder for the anchor scripts, for any element type.

`run_anchors.py` (in `../shared/bench/anchors`) loads the `.npy` files with plain numpy and
compares in f64; that is enough for the shared bench's f32 / i32 / c64 programs. The broad
bench (`bench/broad/gen.py`) also has bfloat16 (and other ml_dtypes) arguments and results,
which numpy stores raw (`<V2`): these helpers give such arrays the type `meta.json` names and
compare 16-bit floats in f32, then defer to `run_anchors.py`'s own `check`.
"""

import json
import os

import numpy as np


def _typed(a, dtype_name):
    if a.dtype.kind == "V" and dtype_name:
        import ml_dtypes
        return a.view(getattr(ml_dtypes, dtype_name))
    return a


def load_dir(d):
    with open(os.path.join(d, "meta.json")) as fh:
        meta = json.load(fh)
    args = [_typed(np.load(os.path.join(d, i["file"])), i.get("dtype")) for i in meta["inputs"]]
    exp = [_typed(np.load(os.path.join(d, o["file"])), o.get("dtype")) for o in meta["outputs"]]
    return meta, args, exp


def _narrow(dt):
    return dt.kind == "V" or dt == np.float16 or dt.name in ("bfloat16",) or dt.name.startswith("float8")


def check(ra, outs, meta, exp):
    """`ra.check` (run_anchors.py's), with 16-bit and ml_dtypes floats widened to f32 first
    (their shape and dtype still checked against meta.json) and booleans compared exactly."""
    outs = [np.asarray(o) for o in outs]
    pre = []
    for o, om in zip(outs, meta["outputs"]):
        if list(o.shape) != om["shape"] or str(o.dtype) != om["dtype"]:
            pre.append(f"shape/dtype {list(o.shape)}/{o.dtype} != {om['shape']}/{om['dtype']}")
        else:
            pre.append(None)
    w_outs, w_meta_out, w_exp = [], [], []
    for o, om, e in zip(outs, meta["outputs"], exp):
        om = dict(om)
        if _narrow(o.dtype) or o.dtype == np.bool_:
            to = np.int32 if o.dtype == np.bool_ else np.float32
            o, e = o.astype(to), e.astype(to)
            om["dtype"] = str(np.dtype(to))
        w_outs.append(o)
        w_meta_out.append(om)
        w_exp.append(e)
    res = ra.check(w_outs, dict(meta, outputs=w_meta_out), w_exp)
    for r, p in zip(res, pre):
        if p:
            r.update(ok=False, error=p)
    return res
