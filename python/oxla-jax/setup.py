"""Bundles the Oxla PJRT plugin library into the package at build time.

The library is built by `cargo build --release -p oxla-pjrt`. It is taken from `$OXLA_PJRT_LIB`
if set, else from the workspace's target directory (`$CARGO_TARGET_DIR` or `../../target`),
release build first. Without one, the package installs without a bundled library and
`initialize()` uses `$OXLA_PJRT_LIBRARY_PATH`.
"""

import os
import pathlib
import shutil
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = pathlib.Path(__file__).resolve().parent
NAME = "liboxla_pjrt.dylib" if sys.platform == "darwin" else "liboxla_pjrt.so"


def find_library():
    env = os.environ.get("OXLA_PJRT_LIB")
    if env:
        return pathlib.Path(env)
    roots = [os.environ.get("CARGO_TARGET_DIR"), HERE.parent.parent / "target"]
    for root in filter(None, roots):
        for profile in ("release", "debug"):
            p = pathlib.Path(root) / profile / NAME
            if p.exists():
                return p
    return None


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        lib = find_library()
        dest = pathlib.Path(self.build_lib) / "jax_plugins" / "oxla"
        if lib is None or not lib.exists():
            print(
                f"oxla-jax: no {NAME} found (build it with `cargo build --release -p oxla-pjrt` "
                "or set OXLA_PJRT_LIB); installing without a bundled library",
                file=sys.stderr,
            )
            return
        dest.mkdir(parents=True, exist_ok=True)
        shutil.copy2(lib, dest / NAME)
        print(f"oxla-jax: bundled {lib}", file=sys.stderr)


setup(cmdclass={"build_py": BuildWithLibrary})
