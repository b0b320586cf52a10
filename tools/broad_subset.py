#!/usr/bin/env python3
"""A bench folder holding some programs of a generated broad bench (links, no copies), with
its own index.json, for tools/broad_bench.sh.

    python tools/broad_subset.py target/broad-bench /tmp/cliffs bench/broad/cliffs.txt
"""
import json
import os
import sys


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    src, dst, names_file = sys.argv[1:]
    with open(names_file) as fh:
        names = [l.strip() for l in fh if l.strip() and not l.startswith("#")]
    with open(os.path.join(src, "index.json")) as fh:
        index = json.load(fh)
    by_name = {w["name"]: w for w in index["workloads"]}
    missing = [n for n in names if n not in by_name]
    if missing:
        print(f"not in {src}: {', '.join(missing)}", file=sys.stderr)
        return 1
    os.makedirs(dst, exist_ok=True)
    for n in names:
        link = os.path.join(dst, n)
        if not os.path.lexists(link):
            os.symlink(os.path.abspath(os.path.join(src, n)), link)
    index["workloads"] = [by_name[n] for n in names]
    with open(os.path.join(dst, "index.json"), "w") as fh:
        json.dump(index, fh, indent=1)
    print(f"{len(names)} programs in {dst}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
