"""Regenerate the committed synthetic fixtures under fixtures/images/ deterministically.

For each of the three clearly different art styles (classic, line, bold): 8 teaching images
(each shows every color x symbol at least once) and 6 test images, mixing both camera frame sizes
and cycling through tables and lights. The stencil style (classic art cut by bridges) is left out
to keep fixtures/images/ under its 12 MB budget; `python -m vision render --style stencil` makes
such images on demand.
Run: `python benchmarks/make_fixtures.py [--out fixtures/images]`.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.render_cli import write_renders  # noqa: E402

TEACH_COUNT, TEST_COUNT = 8, 6
QUALITY = 80  # a little under the camera's usual 85, to keep the sets inside the 12 MB budget
FIXTURE_STYLES = ("classic", "line", "bold")


def make_fixtures(out: Path) -> None:
    for k, style in enumerate(FIXTURE_STYLES):
        # Seeds are offset per style so that each style cycles through different tables.
        for part, count, seed, all_faces in (("teach", TEACH_COUNT, 1000 + 101 * k, True),
                                             ("test", TEST_COUNT, 5005 + 103 * k, False)):
            folder = out / style / part
            if folder.exists():
                shutil.rmtree(folder)
            write_renders(folder, style, count, seed, None, all_faces=all_faces, quality=QUALITY,
                          prefix=f"{style}_{part}", cycle=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "fixtures" / "images"))
    make_fixtures(Path(parser.parse_args().out))


if __name__ == "__main__":
    main()
