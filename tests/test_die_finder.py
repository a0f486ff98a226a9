"""The learnt die finder on committed fixtures: taught on teach/, it must find the dice of test/
(recall), invent few (precision), put centers well inside half a die side, survive a JSON round
trip, and measure a die's size when labels carry none."""

from __future__ import annotations

import glob
import math
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from vision.detect import downscaled
from vision.die_features import N_SHAPE, make_base
from vision.exposure import exposure_gain
from vision import die_finder
from vision import reader
from vision.die_finder import DIE_LOGIT, FinderModel, find_dice, label_sides, sides_near, train_finder
from vision.halving import halved
from vision.labels import load_labelled
from vision.reader import read_frame
from vision.render import random_scene, render

from vision_support import taught_on_renders

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "images"


def _images(folder: Path) -> list[tuple[np.ndarray, dict]]:
    paths = sorted(glob.glob(str(folder / "*.png")) + glob.glob(str(folder / "*.jpg")))
    return [load_labelled(p) for p in paths]


@lru_cache(maxsize=None)
def _model(name: str) -> FinderModel:
    return train_finder(_images(FIXTURES / name / "teach"))


def _match(found, labels: list[dict]) -> tuple[int, int, list[float]]:
    """Greedy one-to-one matching within half the labelled side: missed, phantoms, errors/side."""
    pairs = sorted((math.hypot(c.center[0] - t["center"][0], c.center[1] - t["center"][1]) / t["size"], i, j)
                   for i, t in enumerate(labels) for j, c in enumerate(found))
    used_i, used_j, errs = set(), set(), []
    for d, i, j in pairs:
        if d <= 0.5 and i not in used_i and j not in used_j:
            used_i.add(i)
            used_j.add(j)
            errs.append(d)
    return len(labels) - len(used_i), len(found) - len(used_j), errs


def _score(name: str) -> tuple[int, int, int, list[float]]:
    dice = missed = phantoms = 0
    errs: list[float] = []
    for frame, labels in _images(FIXTURES / name / "test"):
        m, p, e = _match(find_dice(frame, _model(name)), labels["dice"])
        dice, missed, phantoms, errs = dice + len(labels["dice"]), missed + m, phantoms + p, errs + e
    return dice, missed, phantoms, errs


# (max missed share, max phantom share) per set: today photoreal-c 2 missed + 1 phantom of 22,
# classic 4 + 8 of 110; the limits leave a little room;
# a regression (or a broken feature) fails these.
LIMITS = {"photoreal-c": (0.10, 0.10), "classic": (0.08, 0.12)}


@pytest.mark.parametrize("name", sorted(LIMITS))
def test_finds_the_dice(name: str) -> None:
    dice, missed, phantoms, errs = _score(name)
    max_missed, max_phantoms = LIMITS[name]
    assert missed <= max_missed * dice, f"{name}: missed {missed} of {dice}"
    assert phantoms <= max_phantoms * dice, f"{name}: {phantoms} phantoms for {dice} dice"
    assert np.median(errs) < 0.15, f"{name}: median center error {np.median(errs):.2f} die sides"


def test_json_round_trip_finds_the_same() -> None:
    model = _model("photoreal-c")
    again = FinderModel.from_json(model.to_json())
    frame, _ = _images(FIXTURES / "photoreal-c" / "test")[0]
    a, b = find_dice(frame, model), find_dice(frame, again)
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert math.hypot(x.center[0] - y.center[0], x.center[1] - y.center[1]) < 0.5
        assert abs(x.score - y.score) < 1e-3


def test_a_finder_taught_as_members_averages_them() -> None:
    # Members taught alone with seeds 0 and 1, then together: the pair's stage 1 is their mean
    # (linear scores: the mean score), and its stage-2 logit is the mean of theirs.
    labelled = _images(FIXTURES / "photoreal-c" / "teach")
    alone = [train_finder(labelled, seed=seed, members=1) for seed in (0, 1)]
    pair = train_finder(labelled, seed=0, members=2)
    assert not np.allclose(alone[0].weight_array, alone[1].weight_array)
    assert np.allclose(pair.weight_array, (alone[0].weight_array + alone[1].weight_array) / 2, atol=1e-6)
    assert pair.bias == pytest.approx((alone[0].bias + alone[1].bias) / 2)
    assert pair.threshold == pytest.approx((alone[0].threshold + alone[1].threshold) / 2)
    windows = np.random.default_rng(0).normal(size=(5, len(pair.weights))).astype(np.float32)
    shapes = np.random.default_rng(1).normal(size=(5, N_SHAPE)).astype(np.float32)
    for shape in (shapes, None):
        mean = (alone[0].stage2_logits(windows, shape) + alone[1].stage2_logits(windows, shape)) / 2
        assert np.allclose(pair.stage2_logits(windows, shape), mean, atol=1e-4)
    with pytest.raises(ValueError):
        train_finder(labelled, members=0)


def test_a_finder_kept_before_it_had_members_still_loads() -> None:
    # A profile written before the finder had members keeps one stage 2, not a list of them.
    model = train_finder(_images(FIXTURES / "photoreal-c" / "teach"), members=1)
    data = model.to_json()
    data["stage2"] = data["stage2"][0]
    frame, _ = _images(FIXTURES / "photoreal-c" / "test")[0]
    found = find_dice(frame, FinderModel.from_json(model.to_json()))
    assert found
    assert find_dice(frame, FinderModel.from_json(data)) == found


def test_rejects_a_model_made_for_other_features() -> None:
    data = _model("photoreal-c").to_json()
    data["window"] = data["window"] + 1
    with pytest.raises(ValueError):
        FinderModel.from_json(data)


@pytest.mark.parametrize("name", ["photoreal-c", "classic"])
def test_measures_die_size_without_size_labels(name: str) -> None:
    frame, labels = _images(FIXTURES / name / "teach")[0]
    bare = [{"color": d["color"], "symbol": d["symbol"], "center": d["center"]} for d in labels["dice"]]
    measured = float(np.median(label_sides(frame, bare)))
    truth = float(np.median([d["size"] for d in labels["dice"]]))
    assert 0.8 * truth < measured < 1.25 * truth, (measured, truth)


def test_nothing_on_an_empty_table() -> None:
    frame, _ = _images(FIXTURES / "photoreal-c" / "test")[0]
    blank = np.full_like(frame, np.median(frame.reshape(-1, 3), axis=0).astype(np.uint8))
    assert find_dice(blank, _model("photoreal-c")) == []


def _on(die: dict, things: list) -> list:
    """What of `things` (finds or dice read) lies on a labelled die: within half its side."""
    return [thing for thing in things if math.dist(thing.center, die["center"]) <= die["size"] / 2]


def test_a_die_just_short_of_the_bar_is_looked_at_again_at_another_scale(monkeypatch: pytest.MonkeyPatch) -> None:
    # A white die on blue and white gingham: at the scale the reader searches a frame of dice
    # this size, the finder scores it just under its bar, and at another scale over it. Looked
    # at again there, it is found, and the reader reads it, which it misses without that look
    # when it keeps no find under the bar (which would read it too: see DOUBTFUL_LOGIT).
    profile = taught_on_renders("classic")
    image, labels = render(random_scene(22, style="classic"))
    die = min(labels["dice"], key=lambda d: math.dist(d["center"], (1472.7, 718.3)))
    assert (die["color"], die["symbol"]) == ("white", "finger")
    sides = sides_near(profile.finder, die["size"])

    def found(rescale: bool) -> list:
        return _on(die, find_dice(image, profile.finder, sides=sides, rescale=rescale))

    def read() -> list:
        return [(d.color, d.symbol) for d in _on(die, read_frame(image, profile))]

    assert not found(False)
    assert found(True)
    assert read() == [("white", "finger")]
    monkeypatch.setattr(reader, "DOUBTFUL_LOGIT", math.inf)
    assert read() == [("white", "finger")]
    monkeypatch.setattr(die_finder, "RESCALE_LOOKS", 0)
    assert read() == []


def test_a_die_the_finder_scores_under_its_bar_is_a_die_when_its_face_reads_surely(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A white die touching a red one on a pale table (classic scene 175): no blob was taken for
    # it, and the finder scores it a little under or over its bar. How much is the machine's
    # arithmetic's: the finder is trained on float sums, and on one machine the same teaching
    # scored it 0.57 under OpenCV 4.14, 0.75 under 5.0. So the bar is set over its score, looked
    # at again at another scale or not: kept down to the reader's floor, marked as under the bar,
    # it is read surely; without the floor, missed.
    profile = taught_on_renders("classic")
    image, labels = render(random_scene(175, style="classic"))
    die = min(labels["dice"], key=lambda d: math.dist(d["center"], (940.0, 1170.7)))
    assert (die["color"], die["symbol"]) == ("white", "gavel")
    sides = sides_near(profile.finder, die["size"])
    [find] = _on(die, find_dice(image, profile.finder, sides=sides, rescale=True, floor=reader.DOUBTFUL_LOGIT))
    logit = max(math.log(find.score / (1.0 - find.score)),
                die_finder._rescaled_logit(image, profile.finder, *find.center, find.size))
    assert logit > reader.DOUBTFUL_LOGIT + 0.5  # over the floor, wherever it is read
    bar = max(DIE_LOGIT, logit + 0.5)
    over_bar = find_dice(image, profile.finder, threshold=bar, sides=sides, rescale=True)
    with_floor = find_dice(image, profile.finder, threshold=bar, sides=sides, rescale=True,
                           floor=reader.DOUBTFUL_LOGIT)
    assert not _on(die, over_bar)
    assert [c.below_bar for c in _on(die, with_floor)] == [True]
    # The floor only adds: the dice over the bar are found as before, and only they are not marked.
    assert [c for c in with_floor if not c.below_bar] == over_bar
    assert all(c.score < 1.0 / (1.0 + math.exp(-bar)) for c in with_floor if c.below_bar)
    monkeypatch.setattr(reader, "FINDER_BAR", bar)
    assert [(d.color, d.symbol, d.confidence >= 0.5) for d in _on(die, read_frame(image, profile))] == \
        [("white", "gavel", True)]
    monkeypatch.setattr(reader, "DOUBTFUL_LOGIT", math.inf)
    assert _on(die, read_frame(image, profile)) == []


def test_a_find_under_the_bar_that_does_not_read_surely_is_no_die(monkeypatch: pytest.MonkeyPatch) -> None:
    # Bold scene 65: near the top edge of the frame, where no die lies, the finder scores
    # something under its bar, and its face reads only doubtfully as a blue die's gun. As any
    # other find, it would be reported as a die to ask the player about: a phantom. (Under the
    # bar, only DOUBTFUL_UNREAD's stricter bars make a find not read surely a die.)
    profile = taught_on_renders("bold")
    image, labels = render(random_scene(65, style="bold"))
    spot = (1430.0, 93.0)
    assert all(math.dist(d["center"], spot) > d["size"] for d in labels["dice"])

    def near() -> list:
        return [d for d in read_frame(image, profile) if math.dist(d.center, spot) <= 40.0]

    assert near() == []
    learnt_candidate = reader._learnt_candidate
    monkeypatch.setattr(reader, "_learnt_candidate",
                        lambda *args, doubtful=False: learnt_candidate(*args, doubtful=False))
    assert [(d.color, d.confidence < 0.5) for d in near()] == [("blue", True)]


def test_a_cocked_die_the_finder_scores_under_its_bar_is_asked_of_the_player(monkeypatch: pytest.MonkeyPatch) -> None:
    # Classic scene 182: a white die cocked on a gingham cloth. No blob was taken for it and the
    # finder scores it under its bar (0.36, the floor 0.27); its face reads as no symbol, its
    # outline steps softly on its weakest side (76, the bar 160), and the face matched lies 0.06
    # sides from where it was found (the bar 0.15): a die seen but not read. (The test's first
    # die, scene 225's, had margins too thin to hold on every machine: on the machine of
    # 2026-11-30 its outline ran on past any die's at 2.28 toward a white neighbour, over
    # RUNS_PAST_DIE's 2.0, and it was dropped as print.)
    profile = taught_on_renders("classic")
    image, labels = render(random_scene(182, style="classic"))
    die = min(labels["dice"], key=lambda d: math.dist(d["center"], (1089.9, 661.0)))
    assert (die["color"], die["symbol"]) == ("white", None)
    assert [(d.color, d.symbol, d.confidence < 0.5) for d in _on(die, read_frame(image, profile))] == \
        [("white", None, True)]
    monkeypatch.setattr(reader, "_doubtful_unread", lambda look: None)
    assert _on(die, read_frame(image, profile)) == []


def test_a_cocked_die_the_finder_scores_under_its_bar_whose_face_ends_doubtful_is_asked_of_the_player(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Line scene 53: a white die cocked against a red one on a gingham cloth. No blob was taken
    # for it and the finder scores it under its bar. Its nearer face reads as a finger, surely
    # at first, but with no blob to vouch for its shape that face is not a flat die's (see
    # FAINT_SURE): it ends doubtful. Dropped as a find that read surely only at first, the die
    # was missed; it passes the bars of one seen but not read, and is asked of the player.
    profile = taught_on_renders("line")
    image, labels = render(random_scene(53, style="line"))
    die = min(labels["dice"], key=lambda d: math.dist(d["center"], (1470.3, 553.4)))
    assert (die["color"], die["symbol"]) == ("white", None)
    assert [(d.color, d.symbol, d.confidence < 0.5) for d in _on(die, read_frame(image, profile))] == \
        [("white", None, True)]
    monkeypatch.setattr(reader, "DOUBTFUL_UNREAD_OUTLINE", -math.inf)
    assert _on(die, read_frame(image, profile)) == []


def test_a_find_under_the_bar_outlined_hard_all_round_is_no_die_seen_but_not_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Line scene 93: the printed mat's yellow letters along the top of the frame. Where the
    # finder scores such a letter under its bar, its face reads as no symbol, and letters step
    # hard all round (see DOUBTFUL_UNREAD_OUTLINE): without that bar it would be asked about as a
    # white die. Whether the finder finds a letter at all, and how surely, is the machine's
    # arithmetic's (the finder is trained on float sums): the letter is looked at as the reader
    # looks at such a find, and the frame must read no die there either way.
    profile = taught_on_renders("line")
    image, labels = render(random_scene(93, style="line"))
    spot = (1035.0, 95.0)
    assert all(math.dist(d["center"], spot) > d["size"] for d in labels["dice"])
    assert [d for d in read_frame(image, profile) if math.dist(d.center, spot) <= 40.0] == []
    size = float(np.median([d["size"] for d in labels["dice"]]))
    find = reader._learnt_candidate(image, spot, size, profile, doubtful=True)
    look = reader.read_candidate(image, find, profile, exposure_gain(image), size)
    assert look.candidate.color == "white"
    assert reader.symbol_reading(look.reading, profile.calibration, find.aspect)[0] is None
    assert reader._doubtful_unread(look) is None
    monkeypatch.setattr(reader, "DOUBTFUL_UNREAD_OUTLINE", math.inf)
    assert reader._doubtful_unread(look) is not None


def test_a_frame_halved_once_serves_the_detector_and_the_finder_as_their_own_halving_would() -> None:
    # The reader halves a frame once and hands the half to the detector and the finder: each
    # must see exactly what it would have made itself, an odd-sized frame and a scale it does
    # not halve for included.
    image, _ = render(random_scene(3, style="line"))
    for frame in (image, image[:-1, :-1]):
        half = halved(frame)
        for scale in (0.2, 0.3, 0.7):
            assert np.array_equal(downscaled(frame, scale, half), downscaled(frame, scale))
            with_half, alone = make_base(frame, scale, half), make_base(frame, scale)
            assert np.array_equal(with_half.lab, alone.lab) and np.array_equal(with_half.grad, alone.grad)


def test_members_taught_in_worker_processes_are_the_ones_taught_here() -> None:
    # Each member draws from its own seed, wherever it is taught: the same model, to the bit.
    labelled = _images(FIXTURES / "photoreal-c" / "teach")[:1]
    here = train_finder(labelled, members=2, workers=1)
    apart = train_finder(labelled, members=2, workers=2)
    assert apart.to_json() == here.to_json()
