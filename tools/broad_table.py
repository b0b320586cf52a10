#!/usr/bin/env python3
"""The broad bench's side-by-side table: Oxla (best of its passes) against XLA CPU and IREE
(best of default and data tiling) per program, with the op class from the bench's index.json,
compile times, the ratio to the faster peer, the check verdicts of all three, a summary (geo-mean,
how many at or under 1.0x and 1.25x), the worst programs and every failure.

    python tools/broad_table.py BENCH_DIR ANCHORS.json OXLA1.json [OXLA2.json ...] [--worst 15]
"""
import argparse
import json
import math
import os


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bench")
    ap.add_argument("anchors")
    ap.add_argument("oxla", nargs="+")
    ap.add_argument("--worst", type=int, default=15)
    a = ap.parse_args()
    with open(os.path.join(a.bench, "index.json")) as fh:
        index = {w["name"]: w for w in json.load(fh)["workloads"]}
    with open(a.anchors) as fh:
        anc = json.load(fh).get("workloads", {})
    ox, ox_fail = {}, {}
    for f in a.oxla:
        with open(f) as fh:
            for r in json.load(fh):
                if r.get("run_ms") is None:
                    ox_fail.setdefault(r["name"], r.get("check"))
                    continue
                best = ox.get(r["name"])
                # the best run time; a check that failed in any pass stays failed
                if best is None or r["run_ms"] < best["run_ms"]:
                    keep_bad = best and best.get("check") != "ok" and r.get("check") == "ok"
                    ox[r["name"]] = dict(r, check=best["check"] if keep_bad else r.get("check"))
                elif r.get("check") != "ok":
                    best["check"] = r.get("check")

    def ok(chk):
        if not chk:
            return None
        return all(c.get("ok") for c in chk)

    rows = []
    for name in index:
        w = anc.get(name, {})
        j = w.get("jax", {})
        xr, xc = j.get("median_ms"), j.get("compile_ms")
        irs = []
        for k in ("iree", "iree_datatiling"):
            lt = w.get(k, {}).get("local-task", {})
            if "median_ms" in lt:
                irs.append((lt["median_ms"], w[k].get("compile_ms"), ok(lt.get("check")), k))
        # the faster IREE configuration whose outputs check; else the faster one, shown but not
        # counted (a wrong answer is not a time to beat)
        ir = min((i for i in irs if i[2] is not False), default=None) or min(irs, default=None)
        o = ox.get(name)
        peers = [(v, who) for v, who, good in ((xr, "XLA", ok(j.get("check")) is not False),
                                               (ir and ir[0], "IREE", ir and ir[2] is not False)) if v and good]
        best, best_who = min(peers, default=(None, None))
        ratio = o["run_ms"] / best if (o and best) else None
        rows.append(dict(name=name, cls=index[name].get("op_class", "?"), o=o, ofail=ox_fail.get(name), xr=xr, xc=xc,
                         xok=ok(j.get("check")), xerr=j.get("worker_error"), ir=ir,
                         best=best, best_who=best_who, ierr=[w.get(k, {}).get("worker_error") or ("compile error" if "compile_error" in w.get(k, {}) else None)
                               or w.get(k, {}).get("local-task", {}).get("run_error", "")[:80] or None
                               for k in ("iree", "iree_datatiling")], ratio=ratio))

    f = lambda v, p=3: "-" if v is None else f"{v:.{p}f}"  # noqa: E731
    yn = lambda v: "-" if v is None else ("ok" if v else "FAIL")  # noqa: E731
    print("| program | class | oxla compile ms | XLA compile ms | IREE compile ms | oxla run ms | XLA run ms | IREE run ms "
          "| oxla / faster peer | oxla check | XLA check | IREE check |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|")
    for r in rows:
        o, ir = r["o"], r["ir"]
        ocheck = (o["check"] if o else ("FAILED" if r["ofail"] else "not run"))
        ocheck = "ok" if ocheck == "ok" else "**" + ("mismatch" if ocheck.startswith("mismatch") else "error") + "**"
        flag = " **" if r["ratio"] and r["ratio"] > 1.25 else ""
        print(f"| {r['name']} | {r['cls']} | {f(o and o.get('compile_ms'), 1)} | {f(r['xc'], 1)} | {f(ir and ir[1], 0)} | "
              f"{f(o and o['run_ms'])} | {f(r['xr'])} | {f(ir and ir[0])} | {f(r['ratio'], 2)}{flag} | {ocheck} | "
              f"{yn(r['xok']) if r['xr'] else (r['xerr'] or '-')} | {yn(ir[2]) if ir else '-'} |")
    rr = [r["ratio"] for r in rows if r["ratio"]]
    cr = [r["xc"] / r["o"]["compile_ms"] for r in rows if r["o"] and r["xc"] and r["o"].get("compile_ms")]
    g = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs)) if xs else float("nan")  # noqa: E731
    print()
    print(f"{len(rows)} programs; {len(rr)} with an Oxla time and a peer time that checks. Run time, Oxla / faster peer: geo-mean "
          f"{g(rr):.2f}x; {sum(1 for r in rr if r <= 1.0)} at or under 1.0x, {sum(1 for r in rr if r <= 1.25)} at or under "
          f"1.25x, {sum(1 for r in rr if r > 2.0)} over 2x; worst {max(rr):.2f}x. Compile: XLA / Oxla geo-mean {g(cr):.1f}x, "
          f"min {min(cr):.1f}x.")
    print()
    print(f"Worst {a.worst} (the cliffs):")
    print()
    print("| program | class | oxla run ms | faster peer ms | oxla / faster peer |")
    print("|---|---|---:|---:|---:|")
    for r in sorted((r for r in rows if r["ratio"]), key=lambda r: -r["ratio"])[:a.worst]:
        print(f"| {r['name']} | {r['cls']} | {f(r['o']['run_ms'])} | {f(r['best'])} ({r['best_who']}) | {r['ratio']:.2f} |")
    print()
    cls = {}
    for r in rows:
        if r["ratio"]:
            cls.setdefault(r["cls"], []).append(r["ratio"])
    print("By class: " + "; ".join(f"{c} {g(v):.2f}x (n={len(v)}, worst {max(v):.2f})" for c, v in sorted(cls.items())))
    print()
    bad = [r for r in rows if not r["o"] or r["o"]["check"] != "ok"]
    print(f"Oxla failures ({len(bad)}):" + ("" if bad else " none"))
    for r in bad:
        why = r["o"]["check"] if r["o"] else (r["ofail"] or "no result (crashed or timed out)")
        print(f"- {r['name']}: {why[:400]}")
    peer_bad = [(r["name"], "XLA", r["xerr"] or "check failed") for r in rows if not r["xr"] or r["xok"] is False]
    peer_bad += [(r["name"], "IREE", ", ".join(e for e in r["ierr"] if e) or "check failed")
                 for r in rows if not r["ir"] or r["ir"][2] is False]
    print()
    print(f"Peer failures or no time ({len(peer_bad)}):" + ("" if peer_bad else " none"))
    for n, who, why in peer_bad:
        print(f"- {n} ({who}): {why[:200]}")


if __name__ == "__main__":
    main()
