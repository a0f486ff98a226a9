"""The reader keeps freed memory for the next frame (`vision.heap`): a warm reading no longer
has the kernel fault in and zero fresh pages for every frame-sized array it makes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FRAME = ROOT / "fixtures" / "images" / "classic" / "test" / "classic_test_0001.jpg"

# In a process of its own, so the count is the reader's alone: warm it up on the frame, then
# count the minor page faults of three more readings of it.
COUNT_FAULTS = f"""
import resource
from vision.labels import read_image
from vision.profile import default_profile
from vision.reader import read_frame
frame, profile = read_image({str(FRAME)!r}), default_profile()
for _ in range(2):
    read_frame(frame, profile)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(3):
    read_frame(frame, profile)
print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 3)
"""


def test_a_warm_reading_reuses_the_last_frame_s_pages() -> None:
    # Measured on the benchmark frame: 1,500 faults a reading when glibc hands freed blocks back
    # to the kernel, under 1 when it keeps them.
    done = subprocess.run([sys.executable, "-c", COUNT_FAULTS], cwd=ROOT, capture_output=True, text=True,
                          check=True, timeout=300)
    assert float(done.stdout.strip().splitlines()[-1]) < 100
