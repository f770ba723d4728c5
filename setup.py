"""Build the Cython extensions of tianti.

Every ``.pyx`` under the top-level packages becomes an extension named after its path
(``engine/dragon/rules.pyx`` -> ``engine.dragon.rules``). Set ``TIANTI_ANNOTATE=1`` to write
``cython -a`` HTML next to each source, and ``TIANTI_ONLY=engine/mount_tai,engine/core`` to build
only the extensions under those folders. ``TIANTI_SKIP_EXTENSIONS=1`` builds none: the Makefile
installs the project that way (editable) and then builds the extensions once, in place.
"""
from __future__ import annotations

import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

ROOT = Path(__file__).parent
PACKAGES = ("engine", "ai", "ladder")

DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
    "nonecheck": False,
    "embedsignature": True,
}


def extensions() -> list[Extension]:
    only = [p.strip().rstrip("/") for p in os.environ.get("TIANTI_ONLY", "").split(",") if p.strip()]
    exts = []
    for pkg in PACKAGES:
        for pyx in sorted((ROOT / pkg).rglob("*.pyx")):
            rel = pyx.relative_to(ROOT)
            if only and not any(str(rel).startswith(o + "/") for o in only):
                continue
            name = ".".join(rel.with_suffix("").parts)
            exts.append(
                Extension(
                    name,
                    [str(rel)],
                    extra_compile_args=["-O3", "-Wno-unused-function", "-Wno-unreachable-code"],
                )
            )
    return exts


if os.environ.get("TIANTI_SKIP_EXTENSIONS") == "1":
    setup(ext_modules=[])
else:
    setup(
        ext_modules=cythonize(
            extensions(),
            compiler_directives=DIRECTIVES,
            include_path=[str(ROOT)],
            annotate=os.environ.get("TIANTI_ANNOTATE") == "1",
            nthreads=int(os.environ.get("TIANTI_BUILD_JOBS", "2")),
        ),
    )
