"""Keep the C heap's freed memory for the next frame instead of handing it back to the kernel.

Reading a frame makes and frees many frame-sized arrays (the detector's 557x418 float planes are
close to 1 MB each). glibc serves blocks that big with their own mappings and unmaps them when
freed, or trims the heap's top, so every frame's arrays come back as fresh pages the kernel
must fault in and zero again: some 4,000 faults a frame, a few milliseconds of the reading. Told
to keep such blocks in the heap and not to trim it, glibc reuses the same pages frame after
frame; a reader's heap then stays at its busiest frame's size, which is a few tens of MB.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import lru_cache

# mallopt's parameters (glibc's malloc.h) and the values set: blocks up to 32 MB (glibc's
# largest mmap threshold on 64 bits; a 1640x1232 float BGR frame is 24 MB) come from the heap,
# and up to 64 MB of freed heap top stays with the process.
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
MMAP_THRESHOLD, TRIM_THRESHOLD = 32 * 1024 * 1024, 64 * 1024 * 1024


@lru_cache(maxsize=1)
def keep_freed_memory() -> bool:
    """Ask glibc's allocator (once per process) to keep freed blocks for reuse; True when it
    agreed, False on a C library without mallopt (macOS, musl), where nothing changes."""
    name = ctypes.util.find_library("c")
    if name is None:
        return False
    try:
        mallopt = ctypes.CDLL(name).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
