"""Face windows: a big die's is cut from the frame halved, the reader's own half or not."""

from __future__ import annotations

import numpy as np

from vision.halving import halved, halves_known, known_half
from vision.render import random_scene, render
from vision.symbols import HALVE_FROM, face_window


def test_a_big_face_window_is_cut_from_the_frame_halved() -> None:
    # An 80 px face is sampled every 2.5 px: the halving's 2 x 2 means smooth it enough, so its
    # window is the window of the face at 40 px on the frame halved (a pixel of which is the
    # mean of pixels 2i and 2i + 1: its middle lies half a pixel down and right of 2i).
    image, _ = render(random_scene(3, style="line"))
    assert 80 >= HALVE_FROM
    for (x, y), angle in (((800.0, 600.0), 0.0), ((411.3, 905.8), 23.0), ((30.0, 1200.0), -41.0)):
        own = face_window(image, (x, y), 80.0, angle)
        on_half = face_window(halved(image), ((x - 0.5) / 2.0, (y - 0.5) / 2.0), 40.0, angle)
        assert np.array_equal(own, on_half)


def test_the_readers_half_gives_a_face_window_its_own_halving_would() -> None:
    # While the reader reads a frame, big faces' windows are cut from the half it made once: the
    # same pixels to the bit, at the frame's edges too, and an odd-sized frame (whose half is no
    # 2 x 2 means) never takes it.
    image, _ = render(random_scene(3, style="line"))
    height, width = image.shape[:2]
    places = [(800.0, 600.0), (3.0, 4.0), (width - 2.0, height - 30.0), (-20.0, 500.0), (700.0, height + 15.0)]
    for frame in (image, image[:-1, :-1]):
        half = halved(frame)
        for center in places:
            for size, angle, across in ((70.0, 0.0, 1.0), (101.0, 33.0, 1.0), (130.0, -12.0, 0.6)):
                alone = face_window(frame, center, size, angle, across)
                with halves_known(frame, half):
                    assert np.array_equal(face_window(frame, center, size, angle, across), alone)
    with halves_known(image, halved(image)):
        assert known_half(image) is not None and known_half(image.copy()) is None
    odd = image[:-1]
    with halves_known(odd, halved(odd)):
        assert known_half(odd) is None
    assert known_half(image) is None  # and only while within
