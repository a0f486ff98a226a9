"""Keep numpy's BLAS to one thread while reading dice.

Reading makes dozens of tiny matrix products per frame (one per die face). A multi-threaded BLAS
spends far more on waking and spinning its threads than on the arithmetic (about 20 ms of CPU
instead of 0.2 ms per product here), steals the cores the camera and web threads need, and makes
results depend on the thread count. The variable OPENBLAS_NUM_THREADS only works before numpy
loads, so this finds the OpenBLAS library numpy loaded and asks it directly; when there is none
(another BLAS, or a platform without /proc), it does nothing.
"""

from __future__ import annotations

import ctypes
from functools import lru_cache
from pathlib import Path

_SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
            "openblas_set_num_threads64_", "openblas_set_num_threads")


@lru_cache(maxsize=1)
def use_one_blas_thread() -> bool:
    """Set every loaded OpenBLAS to one thread (once per process); True if one was found."""
    import numpy  # noqa: F401  (make sure numpy's BLAS is loaded before looking for it)

    maps = Path("/proc/self/maps")
    if not maps.exists():
        return False
    libraries = {line.split()[-1] for line in maps.read_text().splitlines()
                 if "openblas" in line.lower() and line.split()[-1].startswith("/")}
    done = False
    for path in sorted(libraries):
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        for name in _SETTERS:
            setter = getattr(library, name, None)
            if setter is not None:
                setter(ctypes.c_int(1))
                done = True
                break
    return done
