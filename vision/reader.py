"""Reading a frame: every die's color, top symbol, center, size and a calibrated confidence."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from .blas import use_one_blas_thread
from .detect import Candidate, find_all_candidates
from .die_finder import DIE_LOGIT, find_dice, sides_near
from .exposure import exposure_gain
from .face_colors import body_chroma, paint_chroma
from .glare import glare_mask, without_glare
from .halving import halved, halves_known
from .heap import keep_freed_memory
from .lamp import lamp_doubted, lamp_gains
from .medians import column_medians
from .outline import PAST_DIE, PAST_FACE, edges_past_face, face_ways, side_steps
from .plausibility import MAX_STEP, features, size_misfit
from .profile import Calibration, Profile
from .rim import edge_ring_chromas, rim_chroma, surround_chromas
from .roundness import is_disc
from .symbols import (FACE_PX, TILTED, Match, face_angle, face_window, ink_key, ink_map, ink_share, inner, match,
                      matched_part, strong_face_ink_share, strong_ink_share)

LAMP_ROUNDS = 2  # a lamp's correction, estimated again on the corrected frame (its first is rough)
NULL_SYMBOL_CONFIDENCE = 0.3  # a die we see but cannot read: always asked of the player
SIZE_SLACK = (0.6, 1.5)  # face sizes read, relative to the smallest and largest taught
SAME_PLACE = 0.6  # readings closer than this many die sides are one die
# An unread face closer than this to another reading of its color is a second face of that die:
# a cocked die's two faces lie 0.6-0.95 sides apart, touching dice's about 1. So is a face read
# with a symbol but hardly at all (confidence under NULL_SYMBOL_CONFIDENCE): a cocked die's
# nearer face read surely and its second face read so were two dice, one of them a phantom
# (renderer, 300 scenes per style: 493 -> 471 errors, phantoms 175 -> 159, wrong 100 -> 91,
# missed 218 -> 221, flagged 2168 -> 2186; box C's 70 four-image teachings unchanged). Any
# doubtful face (under 0.5) took 3 errors more off the renderer but merged touching flat dice
# of blue felt, whose second one read at 0.47: the cocked dice's second faces read at 0.07-0.22.
TWO_FACES = 0.95
# ... and, in a frame with sure dice enough to tell its die size (SIZE_WITNESSES), no farther
# apart than this many of their sides: a face read on a blob of two touching dice is read too
# big, and two dice's faces then lie under TWO_FACES of its side apart. Renderer, 300 scenes per
# style: errors 467 -> 460 (missed 219 -> 209, wrong 90 -> 93), flagged 2022 -> 2013, cocked
# dice null or flagged 821 -> 824; box C unchanged. A cocked die's two faces lay at most 0.87 of
# the frame's side apart (classic, 200 scenes), two dice's 0.68-0.97; at 0.88: 458 errors, but
# wrong 94, and box C under a warmer lamp a die's second face more read as a die.
TWO_FACES_USUAL = 0.92
# Two faces of one die are reported midway between them (`_one_per_place`), unless the die was
# reported off the face that matched better already (where its blob's middle says it lies,
# `_unread_middle`). A report within this many sides of that face took nothing from the blob
# (its blob held mostly that face), and is moved midway too: a cube leaning near 45 degrees
# whose face read was its second one lay 0.7 sides from its label. Cubes (`--cocked-3d`), 300
# scenes per style: errors 414 -> 407 (4 dice found and asked, 3 phantoms fewer).
ON_ITS_FACE = 0.15
# A reading this near (in die sides) two readings that matched better lies where two touching
# dice meet (a blob of both split in three): its window holds half of each face. A die's
# middle lies a side or more from every flat die's; a leaning die's, 0.6-0.95 from one.
BETWEEN = 0.8
MAX_ATTEMPTS = 3  # face windows tried per die, each recentred on the best match of the last
# A cocked die: its blob is oblong and a face squashed as on a 45-degree slope fits nearly as
# well as an upright one (upright faces fit squashed templates far worse, about -0.2).
COCKED_TILT_GAIN, COCKED_ASPECT = -0.08, 1.08
# Such a die whose squashed face fits this much better than an upright one is surely cocked: its
# null symbol is reported with confidence 0.5 there, rising to 0.95 at 0.1 more (renderer, 400
# scenes: of the dice the cocked rule reports unread, 37 cocked ones and 1 upright one fit 0.15
# better; 0.05 better, 78 and 16).
SURELY_COCKED = 0.15
# The rule spares a face that is clearly upright: it reads clearly (symbol confidence this high)
# and an upright template fits it better than a squashed one by this much. A flat die beside a
# neighbour or its shadow makes an oblong blob too (renderer, 300 scenes per style: errors 533 ->
# 527, flagged 2574 -> 2480, cocked dice null or flagged 792 both. Measured beside an older rule
# for dice no blob holds, against 531 errors and 2506 flagged without it: a bar of -0.02, 533
# errors, 2367 flagged and 8 cocked dice more read; -0.04: 528, 2386, 4 more; -0.07: 527, 2459;
# a confidence of 0.9: 525, 2446; 0.7: 528, 2397).
CLEARLY_UPRIGHT_TILT, CLEARLY_UPRIGHT_CONFIDENCE = -0.05, 0.8
# A face on a blob this square at most (a cocked die's is oblong) whose best symbol clears the
# margin's bar is read surely at a score this much under the score's bar: the score's bar is
# there for cocked dice and things that are no dice, and of the right readings the score alone
# doubted (dim lamps, slants) few were on oblong blobs, of cocked dice few on square ones, and
# no wrong reading had a clear margin (renderer, 300 scenes per style: flagged 2483 -> 2209,
# one cocked die more read as a symbol; a slack of 0.1: 2229; any score above the calibration's
# least: 2207; blobs up to 1.2: 2192, 3 cocked dice more; box C's 70 four-image teachings:
# flagged 846 -> 844, one cocked die more read). The frame's own inferences (its dice' size,
# its lamp) still go by the calibration's bars.
SQUARE_BLOB, SQUARE_SCORE_SLACK = 1.1, 0.2
# A face read surely on an oblong blob may yet be a cocked die's nearer face: leaning 35-55
# degrees, it is foreshortened across to 0.6-0.8 of a side, which an upright template fits
# nearly as well. It is a cocked die's when it matches better read as foreshortened
# (FORESHORTENED of a side across) than upright, by STRETCH_GAIN, and the die's outline runs on
# past it over its second face (see `vision.outline.edges_past_face`) more than CONTINUED_EDGES
# as strongly as along it, on a side where no other die lies (NEIGHBOUR_ALONG, NEIGHBOUR_ASIDE,
# in sides). Renderer, 300 scenes per style: errors 512 -> 492, 20 fewer read wrong, flagged
# 2204 -> 2226; box C's 70 four-image teachings: 461 -> 424, 37 fewer wrong, flagged 842 -> 929.
# Read at 0.8 across, a gain of 0.02: 471 and 406 errors, but 2272 and 1124 flagged; each cue
# alone asks of the player several flat dice for every cocked one it finds.
FORESHORTENED, STRETCH_GAIN, CONTINUED_EDGES = 0.75, 0.04, 0.3
NEIGHBOUR_ALONG, NEIGHBOUR_ASIDE = (0.3, 1.6), 0.8
# A cocked die read surely at one of its faces shows its second face beside it: the outline runs
# on past the face (PAST_FACE) at least SECOND_FACE[0] as strongly as along it, and on the side
# where it runs on most, among those where no other die lies, a template foreshortened down the
# way out (FORESHORTENED across) matches at least SECOND_FACE[1], SECOND_FACE[2] sides out. A
# flat die's neighbour lies a side or more from its face, where no foreshortened face fits. 100
# renderer scenes per style, on the dice read surely: of 23 cocked, 13 found; of 1074 flat (every
# 4th scene) none (at 0.6, 14 and 5: flat dice touching a die the reader missed). 300 scenes
# per style: errors 326 -> 285, cocked dice read surely 75 -> 34, 2 flat dice made unread. Box C's
# cocked dice lean 29-39 degrees and show their second face dark and narrow: none is found (its
# 70 four-image teachings: errors 392, as before; 3 flat dice more asked). Counting a die more
# than 1.1-1.4 sides out as no neighbour of a second face: 2 cocked dice more for 4-8 flat ones.
SECOND_FACE = (0.2, 0.7, 0.7)
# A die leaning 20-35 degrees shows its second face foreshortened to 0.34-0.57 of a side (sin
# 20-35), narrower than FORESHORTENED takes in: the face beside is also looked at taking in
# SECOND_FACE_NARROW[0] of a side across, where it must match SECOND_FACE_NARROW[1] (at 0.7, as
# wide: renderer 206 errors, but box C's 70 four-image teachings asked 98 flat dice more, and no
# cocked one). A die of another color out along a side takes it only when the face beside is not
# of the face read's color: a side is free when their body colors' chromaticities (each
# channel's share, which a shade does not move) lie within SECOND_FACE_COLOR (summed over the
# channels). A cocked die's second face lay 0.006-0.15 from its face, a flat die's neighbour of
# another color 0.52-1.3 (Lab's a and b would not do: shaded red lay 25-40 from lit red, a flat
# die's neighbour 37 and more).
# Renderer, 300 scenes per style: errors 218 -> 209 (wrong 45 -> 36), flagged 1651 -> 1660;
# cocked dice drawn as cubes (`--cocked-3d`): 621 -> 537 (wrong 329 -> 245), flagged 1243 ->
# 1330 (497 and 1377 with the narrow look held to 0.7); box C's 70 four-image teachings: 315
# errors and 709 flagged, as before (708).
SECOND_FACE_NARROW = (0.5, 0.8)
SECOND_FACE_COLOR = 0.3
# A face beside of the face read's own body color (chromaticities within SECOND_FACE_ALIKE[1])
# and lit (its median at least SECOND_FACE_ALIKE[2] of the face's, where a shadow or a dark
# table is darker) is this die's second face when the narrow look matches SECOND_FACE_ALIKE[3]:
# looked for on every side no die of this color takes, wherever the outline runs on at least
# SECOND_FACE_ALIKE[0], not only where it runs on most. Cubes (`--cocked-3d`), 100 scenes per
# style, on the dice read surely: cocked dice asked 43 -> 69 of 119, flat ones 4 -> 6 of 7003. The
# cubes' second faces found so lay 0.41-1.9 as light as their faces (taken half a side across);
# box C's flat white die whose dark table beside matched 0.72-0.77 lay 0.18 (taken as here, three
# quarters of a side across, as the color step is). 300 scenes per style: cubes 537 -> 480 errors
# (wrong 245 -> 188), flagged 1330 -> 1390, cocked dice null or flagged 635 -> 692; renderer 209 ->
# 205 (wrong 36 -> 32), flagged 1660 -> 1671; box C taught on 8: as before, under every lamp and
# camera the benchmark tries; its 70 four-image teachings: 315 -> 314, flagged 709 -> 711.
SECOND_FACE_ALIKE = (0.1, 0.2, 0.3, 0.7)
# ... or where a cube leaning 20-30 degrees shows it: nearer, and narrower, than that look takes
# in (sin 20-30 of a side wide, its middle 0.6-0.7 sides out). The face beside of the die's own
# color and lit is its second face too when a template squashed to any of SECOND_FACE_SCAN's
# shares of a side across, any of its sides out, matches SECOND_FACE_SCAN_MATCH at least. Cubes
# (`--cocked-3d`), 300 scenes per style, on the dice read surely and left so: 41 of 171 cocked
# dice so found, none of 16425 flat ones (at 0.75: 44 and 1; at 0.7: 50 and 14); a die of this
# color nearer than SECOND_FACE_OWN_REACH still takes the side (at 1.3: 71 cocked and 16 flat
# dice, each the neighbour a cube leans on, which sees the same face between them). Not on a
# side that faces the frame's middle (the cosine between the way out and the way there at least
# SECOND_FACE_SCAN_INWARD): a real camera sees a flat die's sides that face the middle, the more
# the farther out it lies, and they carry symbols too. Box C's 70 four-image teachings: two flat
# white dice 9-12 sides from the middle so asked 198 times (cosines 0.5-1.0), and none after;
# cubes: 34 of 43 cocked dice still found at 0.45, 31 at 0.3 (those scenes paint no flat die's
# sides; `--walls` scenes do). Cubes, 300 scenes per style: errors 462 -> 430 (wrong 171 -> 139), flagged 1409 ->
# 1441, cocked dice null or flagged 709 -> 741, every flat die read as before; the renderer's
# 1200 scenes read exactly as before.
SECOND_FACE_SCAN = ((0.6, 0.65, 0.7), (0.35, 0.5))
SECOND_FACE_SCAN_MATCH, SECOND_FACE_SCAN_INWARD = 0.8, 0.3
# Where the die's outline runs on past the face at least SECOND_FACE_SCAN_RUNS_ON[0] as strongly
# as along it, a squashed template matching SECOND_FACE_SCAN_RUNS_ON[1] there is enough: a
# leaning die's outline runs on over its second face, a flat die's mostly stops at its face.
# Of the dice read surely and left so, offline, on every set: 17 cocked dice' second
# faces matched 0.7-0.8 where the outline ran on 0.45-1.3, against 7 flat dice; where it ran on
# less (0.1-0.4), 8 cocked and 55 flat dice. 300 scenes per style: renderer errors 197 -> 195
# (flagged 1170 -> 1174), cubes 320 -> 315 (1056 -> 1062), walls 349 -> 343 (1081 -> 1090),
# each fewer read wrong, no die missed or added; box C's 70 four-image teachings 268 -> 264, two
# leaning dice asked in two teachings each (c_test_012's blue, c_test_002's), no flat die moved;
# taught on 8, as before.
SECOND_FACE_SCAN_RUNS_ON = (0.4, 0.7)
# A die of the face read's color takes a side from these looks only when its middle lies less
# than SECOND_FACE_OWN_REACH sides out along it (NEIGHBOUR_ALONG's 1.6 for other checks): a cube
# leaning on a neighbour of its color shows its second face between its top face and that
# neighbour, whose middle lay 1.5-1.6 sides from the top face's. Cubes, 300 scenes per style:
# errors 480 -> 463 (wrong 188 -> 171), flagged 1390 -> 1408, cocked dice null or flagged 692 ->
# 709; renderer 205 -> 202 (wrong 32 -> 29), flagged 1671 -> 1679. At 1.4, flat dice beside a
# die of their color 1.4-1.5 sides off were asked (3 in 100 cube scenes per style).
SECOND_FACE_OWN_REACH = 1.5
# A side so taken is yet a second face's when the outline runs on there at least
# SECOND_FACE_OWN_SIDE[0] as strongly as along the face, no die of another color lies there, and
# the face beside, of this face's color (SECOND_FACE_ALIKE's step and light), matches a squashed
# template SECOND_FACE_OWN_SIDE[1] well. The die is asked of the player, not made surely cocked:
# a few flat dice pass these bars too. Offline, on the dice read surely and left so that had
# such a side: cubes, 17 cocked dice for 3 flat ones; the renderer, 1 and none (at a match of
# 0.8 and a run-on of 0.2, cubes: 29 for 20; at 0.9 and 0.8: 10 for none). Measured, 300 scenes
# per style: cubes errors 315 -> 300 (wrong 138 -> 123), flagged 1062 -> 1080 (15 cocked dice
# and 3 flat ones asked); walls 343 -> 327 (16 and 3); renderer 195 -> 194 (one cocked die
# asked); box C, taught on its 8 and on each 4 of them: every reading as before.
SECOND_FACE_OWN_SIDE = (0.8, 0.85)
# A second face found beside the face read (`_second_face_beside`) that matches a template
# foreshortened FORESHORTENED across this well is nearly as wide as that face: the die leans near
# 45 degrees and its two faces look alike, so the face read is as often the one leaning away as
# its top face, where the label lies, 0.65-0.75 sides off. Such a die is reported midway between
# the two, within half a side of either face's middle; one whose second face is narrower leans
# less and was read on its top face, where it stays (moved too, a cube leaning 24 degrees was
# reported 0.55 sides from its label). Cubes (`--cocked-3d`), 300 scenes per style: errors
# 430 -> 414 (8 cocked dice found and asked, 8 phantoms fewer; 416 with every such die moved);
# the renderer's 198 and box C's (taught on 8, and its 70 four-image teachings: 314) as before.
WIDE_SECOND_FACE = 0.7
# A second face of the face read's own body color and lit (SECOND_FACE_ALIKE) that matches the
# narrow look (SECOND_FACE_NARROW[0] of a side across) this well makes its die surely cocked:
# reported null with TWO_FACES_SEEN, asked all the same, as one to roll again. Of the dice so
# found, 300 scenes per style: renderer 22 cocked, no flat one; cubes 148 and none; walls 140 and
# none; box C's 70 four-image teachings, none (at 0.75: 29, 179 and 175 cocked, and 0, 1 and 3
# flat). A face of another color beside (a neighbour's, SECOND_FACE_COLOR) makes no die sure: of
# those matching as well, 2 cocked and 4 flat. Renderer: flagged 1317 -> 1295, errors 202; cubes
# 1308 -> 1160, errors 340 -> 342, and walls 1329 -> 1189, 378 -> 380 (a white cube leaning
# under a warm lamp, read red at both faces, now surely: classic and stencil scene 54); box C
# as before.
SECOND_FACE_SURE = 0.8
# The turn a face's window takes, beyond each of `vision.outline.face_ways`'s ways, to look at a
# second face there: the first two run down and up the face's columns, and a face beyond them is
# foreshortened down its columns, which the window takes in when turned.
FACE_WAY_TURNS = (90.0, 90.0, 0.0, 0.0)
# A die seen but not read where one face was matched is reported midway between that face and
# its second face, when a face SECOND_FACE's sides beside it matches a symbol foreshortened this
# well at least (`_between_faces`). With cocked dice drawn as cubes (`--cocked-3d`), 300 scenes
# per style: errors 660 -> 630 (15 cocked dice found and asked, 15 phantoms fewer), no die read
# worse; the renderer's and box C's 70 four-image teachings' dice all read as before. At 0.7
# (SECOND_FACE's bar): 626, but the renderer 237 -> 239, a die moved onto the table's print.
BETWEEN_FACES_MATCH = 0.8
# A cube leaning near 45 degrees shows two faces alike, each foreshortened to about 0.7 of a
# side, and its second face matches a foreshortened template less well than BETWEEN_FACES_MATCH
# (0.59-0.78 where it lay on the way to the label). Such a die is still reported midway when its
# second face matches BETWEEN_FACES_MOVE: it stays asked of the player, as it was, and is made
# surely cocked only at BETWEEN_FACES_MATCH. And a die out along a way takes it only within
# BETWEEN_FACES_NEIGHBOUR sides: a cocked die leans against its neighbour with its top face
# toward it, so read on the face leaning away, the neighbour lies beyond both faces (classic
# scene 65's blue cube: 1.58 sides), where a flat die's touching neighbour lies about a side
# out. Cubes (`--cocked-3d`), 300 scenes per style: errors 362 -> 339 (16 cocked dice found, 4
# lost), flagged 1392 -> 1387 (11 cocked dice surely null); walls (`--walls`): 397 -> 375;
# renderer: 196 -> 198 (a cocked die moved off its label), flagged 1535 -> 1500 (34 cocked dice
# surely null); box C's 70 four-image teachings: every die as before. Moved from 0.6: cubes and
# walls as well, renderer 205 errors.
BETWEEN_FACES_MOVE = 0.7
BETWEEN_FACES_NEIGHBOUR = 1.35
# ... and such a die, unread, is surely a cocked one: the confidence it is reported with (the
# player is asked all the same, as of every die left unread, `vision.seats.is_flagged`, but as
# of one to roll again, not one misread). Of the dice so reported, renderer, 300 scenes per style:
# 96 lay on a cocked die's label, one on a flat white gavel's that touched a white die (bold scene
# 258); with cocked dice drawn as cubes, 59 of 59; box C's 70 four-image teachings, 73 of 73.
# (Dice whose symbol was read doubtfully, moved so, made null too: 15 leaning dice more on the
# renderer and cubes, 100 scenes per style, but classic scene 93's lamp correction chosen
# otherwise, which counts dice left unread: 3 errors more; none more on box C.)
TWO_FACES_SEEN = 0.8
# A die left unread (null) whose two faces both show along one of its axes through where it is
# reported (a cocked die: its top face and the one leaning away) is reported midway between
# them (`_midway_between_faces`), unless its two faces were found already (`_found_leaning`,
# `_between_faces`). Its label lies on its top face, and where else it was reported (its blob's
# centroid, where the learnt finder found it, a face matched) may lie more than half a side from
# there; midway lay 0.3-0.5 sides from it. Each axis is scanned at TWO_FACES_SCAN sides from
# where the die is reported, with windows foreshortened across it to TWO_FACES_ACROSS of a side;
# a face lies where the best match of any symbol peaks at TWO_FACES_MATCH at least, and two faces
# of one die lie TWO_FACES_APART sides apart. 300 scenes per style: cubes (`--cocked-3d`) errors
# 334 -> 320 (7 leaning dice found: 5 asked, 2 surely null; flagged 1090 -> 1095), walls 368 ->
# 350 (9 found; flagged 1114 -> 1117); renderer, every die scored as before; box C's 70
# four-image teachings 295 -> 267 (14 found, all c_test_007's red die, and its 14 phantoms gone;
# flagged 419 -> 432): of its 27 dice moved, 14 onto their labels, none off them. Scanned finer
# (every 0.15 sides, at 0.6 and 0.8 of a side across; 150 scenes per style and every other
# teaching, measured apart from the reader): more found (cubes 7 against 4, walls 9 against 5,
# box C 12 against 10), but a flat die moved off its label in the walls and one in the renderer.
TWO_FACES_SCAN = (-0.6, -0.4, -0.2, 0.0, 0.2, 0.4, 0.6)
TWO_FACES_ACROSS = 0.7
TWO_FACES_MATCH = 0.7
TWO_FACES_APART = (0.5, 0.95)
TWO_FACES_OTHER_DIE = 0.5  # a face this many sides or nearer another die's reading is that die's
# Two faces of one color that `_one_per_place` takes for one die (TWO_FACES), the one that matched
# better read as no symbol, are a cocked die's: it is reported null with this confidence (asked
# all the same, as one to roll again). Such dice, renderer, 300 scenes per style: 79 lay on a
# cocked die's label, 3 on a flat one's; cubes 11 and none; walls 14 and 2; box C's 70 four-image
# teachings, none. Renderer: flagged 1398 -> 1317, errors 199 -> 202 (three flat red and blue
# dice now read null surely); cubes 1318 -> 1308, 340 errors; walls 1344 -> 1329, 376 -> 378;
# box C as before.
TWO_FACES_UNREAD = 0.8
# A flat die beside a neighbour or its shade makes an oblong blob too, and a squashed template
# may fit its face nearly as well as an upright one: the cocked rule's face that fits a squashed
# template no better than an upright one (UPRIGHT_AFTER_ALL_TILT) is read as a flat die's
# after all when the die's outline stops at the face (runs on past it no more than STOPPED_EDGES
# as strongly as along it, on every side where no other die lies). Renderer, 300 scenes per
# style: flagged 2226 -> 2168, errors 492 -> 493 (one cocked die more read as a symbol); box C's
# 70 four-image teachings: flagged 929 -> 867, errors 424 -> 423.
UPRIGHT_AFTER_ALL_TILT, STOPPED_EDGES = 0.0, 0.1
# A face read doubtfully whose symbol the profile's discriminant (`vision.symbol_discriminant`)
# reads too, by this gap (in its taught faces' median gaps), is read at confidence 0.5; by the
# second figure, at 0.95 ...
SECOND_OPINION = (0.5, 0.8)
# ... but not a cocked die's nearer face, which the discriminant reads as surely as a flat one:
# only a face that fits upright at least as well as foreshortened (`_foreshortened_gain`), on a
# blob this square at most. Renderer, 300 scenes per style: flagged 1720 -> 1597, errors 276 ->
# 271; box C's 70 four-image teachings: flagged 705 -> 702, errors 390 both. Without these two
# bars: flagged 1489, errors 299 (17 cocked dice read surely); with them and a gap of 0.4, which
# also let a face the cocked-shape rule left unread be read: flagged 1513, errors 285.
SECOND_OPINION_GAIN, SECOND_OPINION_ASPECT = 0.0, 1.2
# ... or one that fits foreshortened better by no more than SECOND_OPINION_STOPPED[0] (the bar
# by which `_cocked_after_all` calls a sure face a cocked die's) when its outline stops at the
# face, as a cocked die's does not (runs on no more than SECOND_OPINION_STOPPED[1], the bar by
# which it does there). A flat die's face read a little off its middle or turn fits a narrower
# window a little better too: 0-0.04 better, 22 flat dice read right and 1 read wrong that the
# discriminant read alike (150 scenes per style; with cocked dice drawn as cubes, 26 and 1).
# Renderer, 300 scenes per style: flagged 1210 -> 1178, errors 199 -> 198; cubes (`--cocked-3d`)
# 1095 -> 1061, walls (`--walls`) 1117 -> 1087, errors as many (320, 350); box C's 70 four-image
# teachings as before. Without the outline's bar, cubes 320 -> 323 errors (a cocked cube read
# surely in two styles).
SECOND_OPINION_STOPPED = (STRETCH_GAIN, CONTINUED_EDGES)
# A die seen but not read whose outline runs on PAST_DIE sides from its middle (past where any
# die's, a cocked one's second face included, ends) at least RUNS_PAST_DIE times as strongly as
# along it, on a side where no other die lies (NEIGHBOUR_PAST_DIE: along and aside, in sides),
# is no die: a card's lines of text, a fingertip, a mat's print. Offline, 150 scenes per style,
# the dice reported unread: 12 of 54 phantoms ran on so, and 4 of 490 dice (flat or cocked, whose
# neighbours no die was found for); box C's every 5th four-image teaching: none of its 131 unread
# dice nor of its 6 such phantoms. At 1.5: 18 phantoms, but 10 dice, and 5 of box C's dice.
# Renderer, 300 scenes per style: errors 460 -> 447 (phantoms 158 -> 140, missed 209 -> 214).
RUNS_PAST_DIE = 2.0
# ... or at least FACELESS_PAST_DIE times as strongly when more than FACELESS_AMID of the ring
# around it is of its color too (within UNREAD_NEAR, see `vision.rim.surround_chromas`), its face
# matches no symbol (best score under FACELESS_MATCH, read where it was reported) and the outline
# runs on past that face too (more than FACELESS_RUNS_ON, see `_outline_runs_on`): the lines of
# text on a white card's corner, a cloth's checks, a mat's letters, whose edges go on about as
# strongly past a die's end as along it (0.9-1.1). A die on a printed card has edges running
# past it as well and its face can match poorly, but the card around it is not of its color
# (box C: 0.00-0.02 of the ring; the renderer's such phantoms 0.1-1.0). Renderer, 150 scenes
# per style, the dice reported unread: 24 of 44 phantoms and none of 452 dice fell so. Over 300
# scenes per style: errors 433 -> 366 (phantoms 146 -> 78, missed 190 -> 191); box C's 70
# four-image teachings unchanged (394), where without the ring 49 dice on cards were lost (433).
# Only dice read with a symbol count as neighbours here: a card's lines can make two unread
# dice, each lying where the other's outline runs on (336 -> 326 errors, phantoms 81 -> 70,
# missed 158 -> 159; box C unchanged).
FACELESS_PAST_DIE, FACELESS_AMID, FACELESS_MATCH, FACELESS_RUNS_ON = 0.7, 0.15, 0.5, 0.5
NEIGHBOUR_PAST_DIE = (0.5, 1.8), 0.9
RECOLOR_PROBABILITY = 0.9  # how sure the rim must be to overrule the blob's color
# A red or blue die whose top a hard lamp washes out can make a blob of its pale face alone, read
# smaller than the die and of the palest color, rim and all: the band read as its rim lies on
# the face. Its own color then rings the face just past the edge read (`edge_ring_chromas`) and
# stops there, where the die does. At least WASHED[0] of that ring near another color's rims
# (within WASHED_NEAR), and at most WASHED[1] of the surround beyond the die, make it a die of
# that color, read again at WASHED_SIZES times the face's side (such faces are read at 0.72-0.76
# of it). Box C under a lamp 30% brighter: rings of 0.40-0.47 red round its washed red dice read
# white, surrounds of 0.01 or less; 2570 looks at white dice (60 renderer scenes per style, box
# C under five lamps): none with a surround of 0.05 or less had a ring over 0.27, and the 165
# rings over 0.38 all had the color around them too (a white die on blue cloth). Box C 30%
# brighter: 7 -> 3 errors; its 70 four-image teachings 324 -> 313, missed 53 -> 45; renderer
# 245 -> 244; about 1 ms a frame.
WASHED = (0.38, 0.05)
WASHED_NEAR = 3.0
WASHED_SIZES = (1.2, 1.35)
RETRY_BELOW = 0.5  # a best match this poor is read again from starts around the blob's center
RETRY_OFFSETS = ((0.2, 0.2), (-0.2, 0.2), (0.2, -0.2), (-0.2, -0.2))  # in face sides
# A doubtful face is read again from around its blob only when its match is at least this good
# and the die-or-not model gives its blob this much: poorer ones are hardly ever dice, and many.
RETRY_FROM, RETRY_PLAUSIBLE = 0.25, 0.15
# ... and when it matched worse than this: a white die on a light laminate under a hard lamp
# makes a blob of its lit half, whose face reads at 0.5-0.7 and stays doubtful (box C's 70
# four-image teachings: 873 -> 855 errors; renderer, 400 scenes: 339 -> 331; +2.3 ms a frame).
AROUND_BELOW = 0.7
# A doubtful blob whose side is at least this many of the frame's usual face sides holds more than
# one die's worth (a white die joined to a cream card beside it) and is read again at the usual
# size from a 3 x 3 grid of starts over it, WITHIN_STEPS of the way from its middle to where a die
# of that size fits in its corners (see `_read_within`). Renderer, 300 scenes per style: errors
# 233 -> 230 (missed 104 -> 101), flagged 1626 either way; with cocked dice drawn as cubes: 630
# either way, flagged 1217 -> 1215; box C: every die read as before.
BIG_BLOB = 1.3
WITHIN_STEPS = (-1.0, 0.0, 1.0)
DIE_SHAPED = (0.55, 1.5, 0.65, 1.35)  # fill at least, aspect at most, size range over the usual
SIZE_DOUBT = 0.15  # a blob's face size this much under the frame's usual one is read at both
SMALL_FACE = 0.85  # a face read this much smaller than the frame's sure dice' is doubted
SIZE_WITNESSES = 3  # sure dice a frame needs before their size says a face is small
# A lamp's correction that reads no more dice surely is not kept, but a die it reads surely
# cocked (null at 0.5 or more) where the frame as it is has none is kept, as its sure dice are,
# when its face is of this range of the frame's sure dice' median size (SIZE_WITNESSES of them):
# the correction splits or colors a leaning die's blob as a die's (line scene 2: the frame as
# it is read the blob of a red die leaning beside another red die as print, its outline running
# on past any die's; through the correction its two faces were read apart). Renderer, 300
# scenes per style: errors 203 -> 199 (5 cocked dice found, surely null; a white striped card
# taken for a cocked die, bold scene 222); cocked dice drawn as cubes 338 -> 334; every die a
# cube 374 -> 368; flagged as before; box C read as before, taught on 8 and in its 70
# four-image teachings. Any size: a blue card back twice a die's side taken too (bold 264).
COCKED_ELSEWHERE_SIZES = (0.65, 1.35)
CLEAR_FACE = 0.8  # symbol confidence that makes a blob a die whatever its shape,
# if the die-or-not model gives it at least this: a long streak of red table read as a gun
# (taught on four images, one box's symbol bars can be low) is no die, however well it reads.
CLEAR_FACE_AT_LEAST = 0.2
WHOLE_DIE = (0.75, 1.25)  # fill at least and aspect at most of a blob that holds one whole die
# A doubtful face this much bigger than the sure ones is read again (at their size: it is kept
# only when it fits better and the blob's extra lies toward the frame's middle). From 1.01, not
# 1.05: dice on a frame's edge read surely at their blobs' size lift the frame's usual size a
# little (box C's every 5th four-image teaching: 159 -> 142 flagged, errors unchanged; 1.03: 148;
# renderer, 400 scenes: 822 -> 819 flagged, errors unchanged).
REREAD_RANGE = (1.01, 1.25)
SMALLER_RANGE = (0.5, 0.9)  # or this much smaller (a blob of part of a die)
# A doubtful face is read again at these shares of its size, and the better fit counts (see
# `_read_at_best_scale`). Of the faces read surely, the blob made a face 0.87-1.05 of its
# labelled size (5th to 95th percentile, renderer); of those doubtful only by the bars, read at
# their labelled size 183 of 280 would have been sure, at their blob's size 77 (100 scenes per
# style). Of the faces so made sure (1200 scenes), 2 in 3 fitted best a tenth bigger, 1 in 3 a
# tenth smaller, few a twentieth either way: 0.95 and 1.05 first, then a tenth on the better
# side: as good (renderer, 300 scenes per style, measured side by side: 429 errors and 1698
# flagged, against 431 and 1700), 1 ms slower on the 24-dice frame (3 fits a face against 2).
SCALE_STEPS = (0.9, 1.1)
# ... counted only at this share of the frame's usual face size at least (a cocked die's nearer
# face fits best at 0.78-0.93 of it, flat dice's at 0.9-1.18), with an upright face fitting
# better than a squashed one by this much at least and on a blob this long at most. Of the
# faces that became sure, 630 flat dice's, 3 cocked dice's (1200 scenes). The cocked dice's
# nearer faces fitted upright 0.104-0.147 better (a bar of 0.1: 4 errors more, 300 scenes per
# style), flat dice's 0.19 better in the median, 96% of them better than 0.11.
SCALED_AT_LEAST, SCALED_TILT, SCALED_ASPECT = 0.92, -0.12, 1.5
# ... and at the turn, of these others from the one its edges gave, whose window its templates
# fit best (one match each), at its size and at SCALE_STEPS of it. A face's turn is measured on a
# ring around it (`vision.symbols.face_angle`), where a card's edge, a neighbour or the walls a
# camera sees aslant can outweigh its own edges: box C's c_test_010, a blue gavel on a black
# card, measured at 36-43 degrees, fits 0.39-0.56 there and 0.93 at -30. Renderer, 300 scenes
# per style: flagged 1569 -> 1535 (35 flat dice read surely and right, 2 read surely now asked,
# a cocked die asked now missed), errors 195 -> 196; box C's 70 four-image teachings: flagged
# 645 -> 567, errors 290 -> 293; taught on 8: flagged 8 -> 6, errors 2.
SWEEP_TURNS = (15.0, 30.0, 45.0, 60.0, 75.0)
# A face that fits no symbol at all (under the calibration's `min_score`) is read again too when
# its blob is this square at most and its size this much over the frame's usual one at most:
# read at a wrong turn, or on a blob that takes in a wall, a flat die's face fits none (box C's
# c_test_005: a red gun read at 1.09 times the usual size fits 0.45 there, 0.92 read again). A
# leaning die's blob is bigger still (box C: 1.15-1.2 times), and its nearer face fits a tenth
# smaller: read again, box C's 70 teachings read 39 leaning dice more surely as a symbol.
SWEPT_ASPECT, SWEPT_SIZE = 1.15, 1.1
# A face the cocked-shape rule called cocked at its blob's size counts at its new size only when
# its outline steps at least this much on its weakest side (see `vision.outline`): a cocked die's
# nearer face runs on into its second face, of its color (2 of those 3 cocked dice stepped 62-66;
# 2 of 155 flat dice so made sure stepped under 80, the median 167).
SCALED_OUTLINE = 80.0
FOREIGN_RIM = 8.0  # a rim this far (Mahalanobis) from its color's is no die (dice: under 6.6, taught on 4)
FRAME_RIM = 3.0  # a doubtful rim this far (Mahalanobis) from its color's sure dice in the frame is no die's
RIM_WITNESSES = 2  # sure dice of a color the frame needs before its rim is compared with theirs
SIDE_TOWARD_MIDDLE = 0.85  # cosine between a blob's extra and the way to the frame's middle
# A doubtful face on a long blob (aspect over WHOLE_DIE's) that the blob makes up to this much
# bigger than the frame's usual face is read again at the usual size where it was found: two
# touching dice of one color make one blob, counted one die when its area allows, and its side
# (the square root of its area) then comes out about sqrt 2 of a die's. Read at that size, a
# flat die's face fits a squashed template about as well as an upright one, and the blob's long
# shape makes it a cocked die (bold scene 120: a blue gun beside a blue finger, unread and then
# taken for that die's second face: missed). At the usual size it is kept when it fits better,
# clearly upright (SCALED_TILT) and sure: a cocked die's nearer face does not. Renderer, 300
# scenes per style: errors 197 -> 196 (missed 89 -> 86; one cocked die read wrong, a lamp's
# correction chosen otherwise), flagged 1684 -> 1653, every die that became sure read right; with
# cocked dice drawn as cubes: 392 -> 389 (missed 137 -> 134), flagged 1460 -> 1441; box C's 70
# four-image teachings: 296 -> 293 (wrong 181 -> 180, missed 46 -> 44), flagged 718 -> 716; taught
# on its 8, every bench line as before but the warmer lamp carried: 6 -> 5 errors. Up to
# REREAD_RANGE's 1.25 only: renderer 198 errors, flagged 1659; up to 1.8 (three dice): every
# die as at 1.5. Blobs from an aspect of 1.5 on only: renderer 196 and 1665, cubes 389 and 1450.
# Kept when it fits upright better by COCKED_TILT_GAIN's 0.08 only: 197 errors (2 flat dice read
# wrong), 1641 flagged.
TWO_DICE_BLOB = 1.5
SMALL_BLOB = 0.85  # a blob this much smaller than the frame's usual die may be a face alone
# A die no face reading redeems (cocked, or its face hidden) is still reported, unread, when its
# blob has one die's shape and size, its outline steps on every side (see UNREAD_OUTLINE), its
# rim is the die color and little around it is (a piece of a card of a die's color is
# surrounded by more card), and it carries paint (a card's back or a token is plain).
# fill at least, aspect at most (a cocked die shows the camera a side too), size range over the usual
UNREAD_SHAPE = (0.78, 1.45, 0.85, 1.3)
# Mahalanobis distance of the rim from its color's, at most: a leaning die's rim takes in some
# of its side's shade, and taught on four images a color's spread is narrow (box C's 70
# four-image teachings: 1.5 -> 2.5 took 46 dice missed, 39 of them cocked, to unread, no more phantoms;
# renderer, 400 scenes: 12 missed fewer, 8 phantoms more).
UNREAD_RIM = 2.5
UNREAD_NEAR, UNREAD_SURROUND = 2.5, 0.25  # at most this share of the surround this near the color
# A blob a little less filled than a whole die's (its shade or a neighbour cuts into its
# outline) is still a die seen but not read when its face favours one symbol over the rest:
# at least this score and margin, and this fill (box C's four-image teachings: dice of fill
# 0.70-0.78 missed, read at 0.35-0.55 with margins of 0.07-0.21; what else got past the other
# unread bars matched one symbol no better than the rest, 0.00-0.05).
UNREAD_FACE, UNREAD_FACE_FILL = (0.35, 0.07), 0.70
# A die the learnt finder found but whose face is not read is reported, unread, when its rim is
# its color's (within LEARNT_UNREAD_RIM: the finder vouches for it, so a little farther than a
# blob's UNREAD_RIM), its outline steps at least UNREAD_OUTLINE on every side (color step
# on its weakest side, see `vision.outline`) and the face matched lies within LEARNT_UNREAD_SHIFT
# sides of where the finder found it. Renderer, 200 scenes: the 49 such dice stepped 35 or more
# and 90% of them shifted 0.29 or less; of 95 such windows on no die (a palm, a chip, cloth
# checks, a die's second face) 60 stepped less, and the template wandered farther on most of the
# rest, over a palm's fingers to 0.43. Rim within 3 against 2.5, renderer 400 scenes: 135 -> 122
# errors (3.5: 123, 4.5: 130, phantoms growing). A blob's unread die needs the same outline: a
# fingertip's blob is die-sized and its nail is paint, but the finger runs on past one side
# (renderer, 400 scenes: 122 -> 117 errors, phantoms 39 -> 34, no die more missed; 15: 118, 45:
# 118; box C's every 5th four-image teaching: unchanged).
UNREAD_OUTLINE = 30.0
LEARNT_UNREAD_RIM = 3.0
LEARNT_UNREAD_SHIFT = 0.3
# ... and so is one the die-or-not model rejects (a cocked die's nearer face matches poorly and
# its window has no blob to vouch for its shape), when its face matches some symbol at least a
# little (REJECTED_FIND_MATCH: a palm, a chip, a patch of cloth match none), another die's face
# lies LEANS_ON sides from it (a cocked die leans on another die), its outline steps at least
# REJECTED_FIND_OUTLINE on its weakest side and its rim passes a blob's bar (UNREAD_RIM, not
# LEARNT_UNREAD_RIM: the finder's verdict was overruled). Renderer, 300 scenes per style: errors
# 366 -> 336 (missed 191 -> 158, phantoms 78 -> 81), cocked dice null or flagged 822 -> 847;
# box C's 70 four-image teachings: 394 -> 392 (missed 105 -> 96, phantoms 93 -> 100). Any such
# find: 415 and 403 (phantoms 172 and 112); of the finds it added on the renderer, offline, 47
# dice and 9 phantoms had a die so near, 49 and 22 with no neighbour needed; with
# LEARNT_UNREAD_RIM, 327 and 397 (box C: a dark red card with cream letters beside a white die
# taken for a red die); with UNREAD_OUTLINE (30), 335 and 392, but box C taught on 8 took the
# cream star of that card for a white die (its outline stepped 37 on two sides, 270 on two).
REJECTED_FIND_MATCH, LEANS_ON, REJECTED_FIND_OUTLINE = 0.2, (0.5, 2.0), 45.0
# A die the finder found and no face read (by the two rules above or DOUBTFUL_UNREAD_*) is reported
# where the finder found it, unless it lies on an oblong blob of its color that could be all of it,
# cocked (ON_COCKED_BLOB: the blob's long side over its short one above COCKED_ASPECT and at most
# the first, its face side at least the second share of the die's, its middle at most the third in
# the die's sides from the find): then at that blob's middle. The finder finds either face of a
# cocked die, and one leaning 40-45 degrees shows two alike: the label names the one more nearly
# level, whose middle may lie 0.7 sides from the other's. The blob's middle lies between, under
# half a side from either (the lean's sine or cosine, halved). With cocked dice drawn as cubes
# (`--cocked-3d`), 300 scenes per style: errors 717 -> 685 (missed 194 -> 178, phantoms 177 ->
# 161), cocked dice null or flagged 514 -> 530; box C's 70 four-image teachings: 332 -> 324 (missed
# 57 -> 53, phantoms 90 -> 86); the renderer's flat-drawn cocked dice: 244 -> 245. Blobs up to 0.75
# sides away: 687, 324 and 251 (a neighbour's blob, 0.57-0.72 sides off, took 4 dice off their
# labels); any blob: 697 with cocked cubes, where a blob of two white dice touching (aspect 2) or
# of a cocked die's second face alone moved dice.
ON_COCKED_BLOB = (1.55, 1.0, 0.5)
UNREAD_INK = 0.1  # share of paint in the window (a cocked die shows part of a face, 0.1-0.2)
# A die seen but not read (`unread_die`) on a blob this oblong at least is surely a cocked one,
# reported null with UNREAD_COCKED_SURE (asked of the player all the same, as one to roll again,
# not as a misread): its blob takes in the side it shows beside its top face (a cube leaning
# 20-45 degrees covers 1.28-1.41 times as long as wide). Such dice, offline: renderer, 100 scenes
# per style, 35 cocked on blobs of 1.16-1.41 and no flat one; cubes, 25 cocked at 1.18-1.44; box
# C's 70 four-image teachings, 137 cocked at 1.0-1.44 (97 at 1.2 or more) and 14 flat at 1.0-1.37
# (2). 300 scenes per style: flagged 1500 -> 1398 (101 cocked dice surely null), errors 198 -> 199
# (a flat red die touching a red die, bold scene 258); cubes 1387 -> 1318, errors 339 -> 340;
# walls 1406 -> 1344, errors 375 -> 376; box C taught on its 8: flagged 6 -> 3 (1.2%), errors 2;
# its 70 four-image teachings: flagged 567 -> 471, errors 293 -> 295.
UNREAD_COCKED_ASPECT, UNREAD_COCKED_SURE = 1.2, 0.8
# A face matched but not read on such a blob is a cocked die's too when the blob fills this
# much of its box at least: a cocked die's two faces make a full rectangle, a flat die's blob
# long with its shade or a neighbour's edge does not. Such faces, offline, 300 scenes per
# style: renderer 88 cocked, no flat one; cubes 53 and 2; box C's 70 four-image teachings 52
# and none (at 0.85: 109 and 5, 66 and 2, 57 and none). Measured: renderer flagged 1295 ->
# 1227, errors 202 -> 203 (a white die read red, line scene 256); cubes 1160 -> 1106, errors
# 342 -> 338 (3 cocked dice found, reported where the blob's shape says); walls 1189 -> 1126,
# 380 -> 374; box C taught on its 8: flagged 3 -> 2, its 70 teachings 471 -> 419, errors as
# before (2 and 295). A die the learnt finder found and no face read, reported on such a blob
# (`_cocked_blob`), is surely cocked too: renderer 17 cocked and cubes 16, no flat die, box C
# none; flagged 1227 -> 1210, 1106 -> 1090, walls 1126 -> 1114, errors as before.
UNREAD_COCKED_FILL = 0.87
# A face read surely with more than this many times the most paint its symbol showed in
# teaching (on its die color) is print on the table, not a die (see `carries_too_much_ink`; 1.8
# measured the same).
INK_OVER = 2.0
# A face read surely whose paint lies farther than this (Lab units) from every taught face's
# paint of its die color is print on the table (see `_foreign_colors`, `vision.face_colors`). Box C's
# 70 four-image teachings: phantoms 88 -> 75 (its mats' cream numerals read as white dice lay
# 35-41 from white dice's paint); at 25, 74, but the renderer lost two real dice at 27.2-27.3 (a
# red die's yellow paint brighter than any taught, a blue die's white paint tinted blue).
FOREIGN_PAINT = 30.0
# So is a face the rim recolored to the palest die color (white) whose body lies farther than
# this from every taught face's body of that color (see `_foreign_colors`): box C's gold
# numerals on maroon cloth, whose blob is red and whose rim says white, lay 27.3-32.7 from white
# dice's taught bodies, its real white dice at most 11.5-16.5 (taught on four of its images).
# Under a lamp warmer than teaching's (blue -20%, red +15%) its white dice lay up to 27 away
# (asked of every white face at 22, three were lost), those the rim recolored at most 23. Box
# C's 70 four-image teachings: phantoms 75 -> 69, nothing else moved; box C taught on its eight,
# under every lamp and camera change, and the renderer: as before.
FOREIGN_BODY = 25.0
# A candidate with no blob of its own (standing out faintly, see `vision.detect.find_faint`, or
# found by the learnt die finder) is read where no die was within this many face sides, and is
# a die only when its face matches a symbol this well at least (template correlation): the lines
# of a printed mat read as a gun at 0.6-0.75 (box C, 70 teachings: 14 such phantoms more at
# 0.75, 199 with no bar), dice that stand out only faintly at 0.8-0.98.
FAINT_AWAY, FAINT_MATCH = 0.8, 0.75
# The learnt finder's dice are looked for down to this stage-2 logit, under its bar (DIE_LOGIT,
# 1.0): one short of the bar is a die only when its face reads surely, as a blob found against
# the color model is, or as one seen but not read by stricter bars (DOUBTFUL_UNREAD_*). Most dice
# the finder scores so are white ones on pale tables, touching others, which no blob found
# (renderer, 300 scenes per style: errors 300 -> 271, missed 163 -> 135, no phantom more; box
# C's 70 four-image teachings: 351 -> 332, missed 79 -> 58; two teachings read a leaning die
# surely that they had asked about). Down to 0.0: 275 and 339; to -2.0: 267 and 331. Without
# the bar on the confidence it ends with (the bars on the face's match alone), down to -1.0: 10
# phantoms more, all flagged. (Those figures are from before such finds could be dice seen but
# not read.) The 24-dice frame reads 3 such finds: 57.2-57.5 -> 61.1-62.0 ms.
DOUBTFUL_LOGIT = -1.0
# The bar itself, as the finder sets it: named here, beside its floor, so that what the reader does
# with a find under the bar can be asked of a die whose score a machine's arithmetic moves.
FINDER_BAR = DIE_LOGIT
# A find short of the bar whose face is not read is a die seen but not read (`_learnt_unread`)
# only when moreover the face matched lies within this many sides of where it was found, and its
# outline steps at most this much on its weakest side: a cocked die's top face meets its slanted
# one softly (such finds on cocked dice stepped 33-156), while a mat's letters and numerals and
# a card's print are outlined hard all round (15 of the 22 so kept stepped 185-418; coins, chips
# and a cloth's checks step as softly as dice and stay phantoms). Renderer, 300 scenes per style:
# errors 271 -> 246 (missed 135 -> 106, phantoms 76 -> 80), cocked dice null or flagged 872 ->
# 894; with cocked dice drawn as cubes (`--cocked-3d`): 710 -> 717 (missed 205 -> 194, phantoms
# 159 -> 177), cocked 508 -> 514; box C's 70 four-image teachings: 332 either way (missed 58 ->
# 57, phantoms 89 -> 90). With neither bar: 265 and 347 (phantoms 104 and 107); the shift's
# alone: 256 and 333 (box C's mat letters shifted 0.16-0.26, its cocked die 0.04-0.07).
DOUBTFUL_UNREAD_SHIFT, DOUBTFUL_UNREAD_OUTLINE = 0.15, 160.0
# Those bars also hold for a find short of the bar whose face read surely at first but ended
# doubtful: no blob vouches for its shape, and its face is not a flat die's (FAINT_SURE), or is
# small. Such a find was dropped; most are dice leaning on a neighbour, showing the face
# nearer the camera. Renderer, 300 scenes per style: errors 202 -> 198 (missed 95 -> 90, 3 of
# them cocked; a phantom more: a cocked die's second face, its first asked already), cocked
# dice null or flagged 915 -> 918; with cocked dice drawn as cubes, 463 -> 462.
# What the learnt die finder found was judged die-like already: its face may match a little less
# (renderer, 400 scenes: 179 -> 176 errors; box C's 70 four-image teachings: 495 -> 484, missed
# 169 -> 156, phantoms 94 -> 96; 0.65, every 5th teaching: 2 fewer errors, 2 more phantoms).
LEARNT_MATCH = 0.7
# ... and a face that fits an upright window at least as well as a foreshortened one (by
# LEARNT_FLAT_GAIN, as `_second_opinion` asks) and reads surely is a flat die's, however closely
# it matches: a die the finder found where no blob was is mostly one of nearly the table's
# color, or in a shade or under glare, whose face matches less closely than most (0.55-0.7),
# and the calibration's bars on its reading hold as for any die. A cocked die's nearer face
# fits foreshortened better: of 11 finds read surely but reported unread (150 scenes per style),
# the one cocked die's face by 0.28, the 10 flat dice' by 0.001 at most. Renderer, 300 scenes
# per style: flagged 1178 -> 1170, errors 198 -> 197; cubes flagged 1061 -> 1056; walls 1087 ->
# 1081, errors 350 -> 349; box C's 70 four-image teachings: flagged 432 -> 428, errors 267 ->
# 268 (a phantom, flagged).
LEARNT_FLAT_GAIN = SECOND_OPINION_GAIN
# A die the learnt finder found whose face matched under FAINT_SURE is read again where it was
# found at these face sides (times the frame's) and around it at the frame's, and the new reading
# counts when it matches at LEARNT_MATCH at least (see `_read_learnt_again`). Renderer, 300
# scenes per style: 471 -> 469 errors (wrong 91 either way), flagged 2186 -> 2134; box C's 70
# four-image teachings: 423 -> 421, flagged 867 -> 854; 2 ms on the 24-dice frame. Every start
# recentred, and around it at all three sides: 468 errors, 2112 flagged, but 7.5 ms. Without the
# outline's check: 475 errors, 21 more read wrong (cocked dice the finder found), 2056 flagged.
RELEARN_SIZES = (0.9, 1.1)
# ... but not when the die-or-not model gives the find less than this: mat print, a chip or a
# shadow, whose reading no start around it changes. Over 600 renderer scenes and every fifth of
# box C's four-image teachings, 383 finds scored under 0.3: read again, one moved, onto nothing
# the model took for a die, and no die was found or lost; of 179 at 0.3-0.5 one became a die
# (0.34: bold scene 16's blue die on a card). 2 ms on the 24-dice frame, whose gold star on a
# dark mat (0.23) was read from seven starts for nothing.
RELEARN_PLAUSIBLE = 0.3
# Such a die is read surely only when its face matches this well: a cocked die, whose
# foreshortened face no blob's shape betrays here, matched at 0.84-0.92 (renderer, 400 scenes:
# 6 of the 7 cocked dice so found are asked of the player, and so are 42 of the 71 flat ones
# read right there and on box C). Not even when its face reads clearly upright (see
# `clearly_upright`), as a blob's may: with no blob's shape to go by, a leaning die's face reads
# so too (box C's 70 four-image teachings, at a symbol confidence of 0.9: 68 fewer flagged, but
# a cocked blue die read as a gun in 6 more; at 0.8, two cocked dice of the bold fixtures).
FAINT_SURE = 0.9
# ... unless the die's outline stops at its face (runs on past it no more than FAINT_STOPPED as
# strongly as along it, on every side where no other die lies) and the face fits a template
# foreshortened across no better than an upright one (by STRETCH_GAIN, see FORESHORTENED): a
# cocked die's outline runs on over its second face, or its face is foreshortened. Renderer, 100
# scenes of two styles: the 6 cocked dice so found ran on 0.24-1.1, and 19 of the 40 flat dice
# read right but asked ran on less than 0.2. Over 300 scenes per style, 146 dice ran on less, 3
# of them cocked: those 3 fit a foreshortened template 0.08-0.13 better, the flat ones at most
# 0.014. Later, over 300 scenes per style and every other box C four-image teaching: 17 flat
# dice read right (11 renderer, 6 box C), no cocked die and no phantom ran on 0.2-0.23; two
# cocked dice that fit no better foreshortened ran on 0.23-0.24. From 0.2 to 0.23: renderer
# errors 285 either way, flagged 1788 -> 1783; box C's 70 teachings 392 either way, 789 -> 783.
FAINT_STOPPED = 0.23
# ... or, whatever its outline does, when an upright template fits its face better than one
# foreshortened across by this much at least (the gain is this negative): a neighbour's shade
# or the side a camera sees makes a flat die's outline run on too, but only a cocked die's face
# is foreshortened. Over 300 renderer scenes per style and every other box C four-image
# teaching, of the dice so found and asked: 50 flat dice (renderer) and 94 (box C) read right,
# 21 cocked ones. Of the flat ones 35 and 78 fit upright 0.07-0.31 better; of the cocked ones
# one (0.16 better, a red die leaning a little), the others -0.06 or worse. Renderer errors 280
# -> 281, flagged 1774 -> 1718; box C's 70 teachings errors 391 either way, flagged 788 -> 706.
SQUARE_FACE = -0.07
LONG_BLOB = 2.0  # a blob longer than this over its width is a die only if its face reads very clearly:
LONG_CLEAR_FACE = 0.9  # at this symbol confidence at least (see `too_long_for_its_face`)
# ... or when it reads surely and the die's outline stops at its face, as a flat die's does, and
# the face is not foreshortened (`_flat_after_all`, the finder's dice' rule): the blob is a die joined to its
# neighbour or its shade, not a finger, a card's edge or a letter, whose outlines run on. Renderer,
# 300 scenes per style: errors 469 -> 467 (a white die touching a blue one, read at 0.896, was
# missed), flagged 2024 -> 2022, cocked dice unchanged; box C's 70 four-image teachings
# unchanged (the long blobs it dropped were print and table, outlines running on 0.9-6), and under
# a cooler lamp a die more found (2.9% -> 2.45% errors).
# ... or, whatever its outline does, when it reads surely, fits an upright template far better than
# a foreshortened one (SQUARE_FACE) and matches a symbol FAINT_MATCH at least: a die's blob joined
# to its neighbour's or its shade's runs on past its face too. Renderer, 300 scenes per style:
# errors 281 -> 277 (4 blue dice found on long blobs, one of them read doubtfully as another
# symbol), flagged 1718 -> 1719; box C's 70 four-image teachings unchanged. With no bar on the
# match, one of them took a dark red mat's gold lettering for a red die (matching at 0.6, square
# by 0.44): a phantom more.

# A die read surely with a lamp's glare on its face is asked of the player too when its face, read
# without the glare, matches its symbol under this share of the calibration's least readable
# score: the glare blob itself was what matched (over line art's thin strokes, a finger). Renderer,
# 300 scenes per style: errors 225 -> 218 (wrong 52 -> 45, glare's 10 -> 4), flagged 1626 -> 1651
# (7 dice read wrong and 18 read right now asked: their faces without the glare matched 0.59-0.89
# and 0.43-0.99 of that score, no bar between); with cocked dice drawn as cubes: 626 -> 621 (wrong
# 334 -> 329), flagged 1215 -> 1243; box C taught on its 8, under other lamps and cameras, and on
# its 70 four-image teachings, unchanged.
GLARE_MADE = 1.0


@dataclass(frozen=True)
class Die:
    """One die as read: `symbol` is None when the top face cannot be read (cocked, covered)."""

    color: str
    symbol: str | None
    center: tuple[float, float]
    size: float
    confidence: float

    def to_json(self) -> dict:
        return {"color": self.color, "symbol": self.symbol,
                "center": [round(float(self.center[0]), 1), round(float(self.center[1]), 1)],
                "size": round(float(self.size), 1), "confidence": round(float(self.confidence), 3)}


@dataclass(frozen=True)
class FaceReading:
    """Raw symbol evidence for one candidate, before calibration."""

    center: tuple[float, float]
    size: float
    best_symbol: str
    best_score: float
    margin: float  # best score minus the best score of any other symbol
    tilt_gain: float  # how much better a cocked die's squashed face fits than an upright one
    angle: float  # the turn of the face's edges, degrees
    # The face's pixels (BGR, TEMPLATE_PX square) where its symbol matched best, which say how
    # much paint it carries without cutting its window again.
    face: np.ndarray | None = dataclasses.field(default=None, compare=False, repr=False)


def read_face(frame_bgr: np.ndarray, candidate: Candidate, profile: Profile, retry: bool = False,
              typical_size: float | None = None) -> FaceReading:
    """Match the candidate's top face against the profile's templates, refining its center;
    with `retry`, a poor match is tried again from around the blob's center. `typical_size`
    is the frame's usual face side, also tried for a blob that is smaller than a die."""
    size = candidate.side / profile.blob_side_ratio
    templates = profile.templates_for(candidate.color)
    sizes = [size]
    if typical_size and size < (1.0 - SIZE_DOUBT) * typical_size:
        # A blob can hold only part of a die (paint or glare split it): try the usual size too.
        # Not for a blob bigger than usual: a cocked die's is, and one face of it fits then.
        sizes.append(typical_size)
    best = _best_refined(frame_bgr, [(candidate.center, side) for side in sizes], templates)
    if retry and best[0][1] < RETRY_BELOW:
        # A blob's centroid can sit a fifth of a side off the face (a side of the die, its
        # shadow or half of its face in the blob), too far for recentring to find the face:
        # start again from around it and keep the best.
        around = _best_refined(frame_bgr, _starts_around(candidate.center, sizes), templates)
        if around[0][1] > best[0][1]:
            best = around
    return _face_reading(*best)


def _read_face_around(frame_bgr: np.ndarray, candidate: Candidate, profile: Profile) -> FaceReading:
    """The candidate's face read from the starts around its blob's center alone (what
    `read_face` tries with `retry`), at the blob's own face size."""
    side = candidate.side / profile.blob_side_ratio
    return _face_reading(*_best_refined(frame_bgr, _starts_around(candidate.center, [side]),
                                        profile.templates_for(candidate.color)))


def _face_reading(refined: tuple[tuple[float, float], float, Match, float, np.ndarray], size: float) -> FaceReading:
    """A `FaceReading` from a `_refine` result and the face side it was read at."""
    center, _, found, angle, face = refined
    upright = {s: v for s, v in found.scores.items() if not s.endswith(TILTED)}
    tilted = max((v for s, v in found.scores.items() if s.endswith(TILTED)), default=-1.0)
    scores = sorted(upright.values(), reverse=True)
    second = scores[1] if len(scores) > 1 else -1.0
    best_symbol = max(upright, key=upright.get)
    return FaceReading(center, size, best_symbol, scores[0], scores[0] - second, tilted - scores[0], angle, face)


@dataclass(frozen=True)
class Look:
    """One blob as the reader saw it: its color as detected, the candidate as read (perhaps
    recolored by its rim), the face reading, and what the rim said of the candidate's color:
    its probability among the taught colors and its distance (Mahalanobis) from that color's
    taught rim chroma, and the rim's chroma itself (all None when the profile has no rim colors
    or the rim is out of the frame)."""

    blob_color: str
    candidate: Candidate
    reading: FaceReading
    rim: float | None
    rim_distance: float | None
    outline: tuple[float, float]  # the color step across the outline on the face's two weakest sides
    chroma: np.ndarray | None  # the rim's (a, b)
    usual_size: float | None = None  # the frame's usual face side when it was read (None: unknown)
    # Whether `chroma` was measured on the face read (its center and side), as `_rims_agree`
    # measures it; not when it was measured wider, or on a face read before.
    rim_on_face: bool = False


def read_candidate(frame_bgr: np.ndarray, candidate: Candidate, profile: Profile, gain: float,
                   typical_size: float | None = None) -> Look:
    """Read a candidate's face, then check its color on the rim of the face found (see
    `vision.rim`): a blob colored by a washed-out face is recolored and read again with its
    own color's templates. `gain` is the frame's exposure gain; `typical_size` the frame's
    usual face side, for a blob that holds only a die's washed-out face and so looks small.
    """
    reading = read_face(frame_bgr, candidate, profile, typical_size=typical_size)
    return _rim_checked(frame_bgr, candidate.color, candidate, reading, profile, gain, typical_size)


def _rim_checked(frame_bgr: np.ndarray, blob_color: str, candidate: Candidate, reading: FaceReading,
                 profile: Profile, gain: float, typical_size: float | None,
                 outline: tuple[float, float] | None = None) -> Look:
    """The look at a face read (`reading`, on `candidate`, whose blob was `blob_color`) with its
    color checked on the rim of that face: when the rim says another color surely, the candidate
    is recolored and its face read again with that color's templates (see `read_candidate`).
    `outline`: the face's outline (`_outline`), when the caller measured it already."""
    chroma = _rim(frame_bgr, reading.center, reading.size, profile, gain)
    if chroma is None:
        return Look(blob_color, candidate, reading, None, None,
                    outline if outline is not None else _outline(frame_bgr, reading), None, typical_size,
                    rim_on_face=True)
    rim_on_face = True
    rim = profile.rim_colors.probabilities(chroma)
    small = bool(typical_size) and reading.size < SMALL_BLOB * typical_size
    if small and max(rim, key=rim.get) == candidate.color:
        wider = _rim(frame_bgr, reading.center, typical_size, profile, gain)
        if wider is not None:
            chroma, rim, rim_on_face = wider, profile.rim_colors.probabilities(wider), False
    best = max(rim, key=rim.get)
    washed = _washed_color(frame_bgr, reading, candidate.color, profile, gain) if best == candidate.color else None
    recolored = washed is not None or (best != candidate.color and rim[best] >= RECOLOR_PROBABILITY)
    if washed is not None:
        templates = profile.templates_for(washed)
        reading = _face_reading(*_best_refined(frame_bgr, [(reading.center, reading.size * grow) for grow in WASHED_SIZES],
                                               templates))
        candidate = dataclasses.replace(candidate, color=washed, side=reading.size * profile.blob_side_ratio)
    elif recolored:
        # A washed-out face alone makes a small blob: read it at the frame's usual die size (the
        # first reading may have been made at that size already: the blob is what says small).
        blob_small = bool(typical_size) and candidate.side / profile.blob_side_ratio < SMALL_BLOB * typical_size
        side = typical_size * profile.blob_side_ratio if blob_small else candidate.side
        candidate = dataclasses.replace(candidate, color=best, side=side)
        # The blob's centroid was placed by the wrong color's pixels: start again around it too.
        reading = read_face(frame_bgr, candidate, profile, retry=_die_shaped(candidate, profile, typical_size),
                            typical_size=typical_size)
    if recolored:
        outline = None  # a face read anew has its own outline
        again = _rim(frame_bgr, reading.center, reading.size, profile, gain)
        rim_on_face = again is not None
        if again is not None:
            chroma, rim = again, profile.rim_colors.probabilities(again)
    return Look(blob_color, candidate, reading, rim.get(candidate.color, 0.0),
                float(profile.rim_colors.distances(chroma, candidate.color)),
                outline if outline is not None else _outline(frame_bgr, reading), chroma, typical_size, rim_on_face)


def _washed_color(frame_bgr: np.ndarray, reading: FaceReading, color: str, profile: Profile, gain: float
                  ) -> str | None:
    """The color of the die whose washed-out face `reading` read as `color` (see WASHED), or
    None. Only a face of the profile's palest color can be such a face."""
    colors = profile.rim_colors
    if color != colors.palest:
        return None
    ring = edge_ring_chromas(frame_bgr, reading.center, reading.size, gain)
    if ring is None:
        return None
    shares = {other: colors.near_share(ring, other, WASHED_NEAR) for other in colors.colors if other != color}
    ringed = max(shares, key=shares.get, default=None)
    if ringed is None or shares[ringed] < WASHED[0]:
        return None  # (most faces: the surround is not measured)
    around = _own_color_around(frame_bgr, reading.center, reading.size, ringed, profile, gain, WASHED_NEAR)
    if around is None or around > WASHED[1]:
        return None
    return ringed


def _outline(frame_bgr: np.ndarray, reading: FaceReading) -> tuple[float, float]:
    """The color steps on the two weakest sides of the face read (see `vision.outline`)."""
    steps = side_steps(frame_bgr, reading.center, reading.size, reading.angle)
    return float(steps[0]), float(steps[1])


def _die_shaped(candidate: Candidate, profile: Profile, typical_size: float | None) -> bool:
    """Whether a blob looks enough like one die to be worth a second look when its face
    matched poorly (most blobs that are not dice fail this, which keeps reading fast)."""
    size = candidate.side / profile.blob_side_ratio
    usual = typical_size or profile.die_sizes[1]
    return candidate.fill >= DIE_SHAPED[0] and candidate.aspect <= DIE_SHAPED[1] and \
        DIE_SHAPED[2] <= size / usual <= DIE_SHAPED[3]


def typical_face_size(candidates: list[Candidate], profile: Profile) -> float | None:
    """The frame's usual face side: the median of a plausible die size over the candidates
    shaped like one whole die (square, well filled), else over all of them; blobs of part of a
    die (a face split by its paint, a side in shade) are many on a busy table and too small."""
    low, high = SIZE_SLACK[0] * profile.die_sizes[0], SIZE_SLACK[1] * profile.die_sizes[2]
    sized = [(c, c.side / profile.blob_side_ratio) for c in candidates]
    sized = [(c, s) for c, s in sized if low <= s <= high]
    whole = [s for c, s in sized if c.fill >= WHOLE_DIE[0] and c.aspect <= WHOLE_DIE[1]]
    if len(whole) >= 2:
        return float(np.median(whole))
    return float(np.median([s for _, s in sized])) if len(sized) >= 3 else None


def _rim(frame_bgr: np.ndarray, center: tuple[float, float], size: float, profile: Profile,
         gain: float) -> np.ndarray | None:
    """The rim chroma of the face at `center`, or None (no rim colors taught, out of frame)."""
    return None if profile.rim_colors is None else rim_chroma(frame_bgr, center, size, gain)


def _starts_around(center: tuple[float, float], sizes: list[float]) -> list[tuple[tuple[float, float], float]]:
    """(start center, face side) pairs at RETRY_OFFSETS around `center`, for each face side."""
    return [((center[0] + dx * side, center[1] + dy * side), side) for side in sizes for dx, dy in RETRY_OFFSETS]


def _best_refined(frame_bgr: np.ndarray, starts: list[tuple[tuple[float, float], float]],
                  templates: list[tuple[str, np.ndarray]]
                  ) -> tuple[tuple[tuple[float, float], float, Match, float, np.ndarray], float]:
    """The best `_refine` over (start center, face side) pairs, with the side it was read at
    (the first of equally good ones)."""
    return max(((_refine(frame_bgr, start, side, templates), side) for start, side in starts),
               key=lambda refined: refined[0][1])


def _refine(frame_bgr: np.ndarray, center: tuple[float, float], size: float,
            templates: list[tuple[str, np.ndarray]], angle: float | None = None,
            first: tuple[np.ndarray, Match] | None = None
            ) -> tuple[tuple[float, float], float, Match, float, np.ndarray]:
    """Match the face window at `center`, recentring on the best match up to MAX_ATTEMPTS
    times; returns the face center, its best score, the match, the edges' angle and the face's
    pixels where it matched (see `FaceReading.face`). The angle is measured once: recentring
    moves the window a few pixels, which hardly changes it (and not at all when `angle` is
    handed in, measured already). `first`: the window at `center` and its match
    (`_matched_window`), when the caller has them already."""
    best_score, best_found, reading_center, face = -2.0, None, center, None
    if angle is None:
        angle = face_angle(frame_bgr, center, size)
    for attempt in range(MAX_ATTEMPTS):
        if attempt == 0 and first is not None:
            window, found = first
        else:
            window, found = _matched_window(frame_bgr, center, size, templates, angle)
        if attempt > 0 and max(found.scores.values()) <= best_score:
            break  # moving made it worse: keep the previous reading
        reading_center, best_score, best_found = center, max(found.scores.values()), found
        face = matched_part(window, found)
        # The best shift, from face pixels back to image pixels: the window is the image turned
        # by `angle` and scaled by FACE_PX / size, so undo both.
        turn = math.radians(angle)
        dx, dy = found.shift
        back = size / FACE_PX
        offset = (back * (math.cos(turn) * dx - math.sin(turn) * dy), back * (math.sin(turn) * dx + math.cos(turn) * dy))
        center = (center[0] + offset[0], center[1] + offset[1])
        reading_center = center
        if math.hypot(*found.shift) < 2.5:
            break  # the window was centered on the face already
    return reading_center, best_score, best_found, angle, face


def _matched_window(frame_bgr: np.ndarray, center: tuple[float, float], size: float,
                    templates: list[tuple[str, np.ndarray]], angle: float) -> tuple[np.ndarray, Match]:
    """The face window at `center`, `size` wide and turned by `angle`, and its match."""
    window = face_window(frame_bgr, center, size, angle)
    return window, match(ink_map(window), templates)


def symbol_confidence(reading: FaceReading, calibration: Calibration, eased: bool = False) -> float | None:
    """Confidence that the best symbol is right, or None when the face is not readable.
    `eased`: the face lies on a square blob, and a margin that clears its bar lets the score's
    bar down by SQUARE_SCORE_SLACK."""
    if reading.best_score < calibration.min_score:
        return None  # no face to read
    by_margin = _ramp(reading.margin, calibration.margin_low, calibration.margin_high)
    score_low = calibration.score_low - (SQUARE_SCORE_SLACK if eased and by_margin >= 0.5 else 0.0)
    return min(by_margin, _ramp(reading.best_score, score_low, calibration.score_high))


def symbol_reading(reading: FaceReading, calibration: Calibration, aspect: float) -> tuple[str | None, float]:
    """The symbol to report (None: not readable, e.g. a cocked die) and its confidence."""
    confidence = symbol_confidence(reading, calibration)
    if cocked_shape(reading, confidence, aspect):
        # Sure that the die cannot be read is a sure reading too: it is asked of the player
        # all the same (`vision.seats.is_flagged`), as cocked, not as doubtful.
        return None, max(NULL_SYMBOL_CONFIDENCE, _ramp(reading.tilt_gain, SURELY_COCKED, SURELY_COCKED + 0.1))
    if confidence is None:
        return None, NULL_SYMBOL_CONFIDENCE
    return reading.best_symbol, confidence


def cocked_shape(reading: FaceReading, confidence: float | None, aspect: float) -> bool:
    """Whether a face read with `confidence` on a blob of `aspect` looks like a cocked die's: the
    blob is oblong and a squashed face fits nearly as well as an upright one (COCKED_TILT_GAIN)."""
    return reading.tilt_gain > COCKED_TILT_GAIN and aspect > COCKED_ASPECT and not clearly_upright(reading, confidence)


def clearly_upright(reading: FaceReading, confidence: float | None) -> bool:
    """Whether a face read with `confidence` on an oblong blob is a flat die's all the same: it
    reads clearly and fits an upright template better than a squashed one (see
    CLEARLY_UPRIGHT_TILT)."""
    return confidence is not None and confidence >= CLEARLY_UPRIGHT_CONFIDENCE and \
        reading.tilt_gain < CLEARLY_UPRIGHT_TILT


def _ramp(value: float, low: float, high: float) -> float:
    """Logistic step: 0.5 at `low`, 0.95 at `high`."""
    steepness = math.log(19.0) / max(high - low, 1e-3)
    # Plain floats: numpy's clip on a scalar took 2.1 of its 2.5 us, some 130 times a frame.
    return 1.0 / (1.0 + math.exp(-min(max(float(steepness * (value - low)), -30.0), 30.0)))


def candidate_features(look: Look, profile: Profile) -> np.ndarray:
    """What the die-or-not model looks at (see `vision.plausibility`)."""
    candidate, reading = look.candidate, look.reading
    return features(reading.best_score, reading.margin, candidate.fill, candidate.aspect,
                    candidate.color_confidence, size_ratio(reading.size, profile, look.usual_size), look.outline)


def size_ratio(face_size: float, profile: Profile, usual_size: float | None) -> float:
    """A face's size over what a die's should be: the taught median's, or the frame's usual
    size when that is nearer (a camera higher or lower than at teaching makes every die of the
    frame smaller or bigger, which is no reason to doubt them)."""
    ratio = face_size / profile.die_sizes[1]
    if usual_size:
        in_frame = face_size / usual_size
        if size_misfit(in_frame) < size_misfit(ratio):
            return in_frame
    return ratio


def could_be_die(candidate: Candidate, profile: Profile, usual_size: float | None = None) -> bool:
    """Whether some reading could make the die-or-not model accept this blob: any match score
    and margin, any outline (the model is monotone in each, so their ends are enough).
    `usual_size` is the frame's usual face side (see `size_ratio`)."""
    face = candidate.side / profile.blob_side_ratio
    if not SIZE_SLACK[0] * profile.die_sizes[0] <= face <= SIZE_SLACK[1] * profile.die_sizes[2]:
        return False
    ratio = size_ratio(face, profile, usual_size)
    if usual_size and face < (1.0 - SIZE_DOUBT) * usual_size:
        # A blob smaller than the frame's dice is read at their size too (see `read_face`).
        ratio = min(ratio, size_ratio(usual_size, profile, usual_size), key=size_misfit)
    shape = (candidate.fill, candidate.aspect, candidate.color_confidence, ratio)
    low = features(0.0, 0.0, *shape, (0.0, 0.0))
    high = features(1.0, 1.0, *shape, (MAX_STEP, MAX_STEP))
    return profile.calibration.plausibility.highest_probability(low, high) >= 0.5


def color_confidence(candidate: Candidate, calibration: Calibration) -> float:
    """0.5 at the taught doubt level, rising to about 0.95 halfway to a blob all of one color."""
    floor = min(calibration.min_color_confidence, 0.98)
    return _ramp(candidate.color_confidence, floor, (floor + 1.0) / 2.0)


def read_frame(frame_bgr: np.ndarray, profile: Profile) -> list[Die]:
    """All dice in a BGR frame, as the profile's teaching lets us read them.

    Finds die-colored blobs, reads each one's face (its color checked on the face's rim),
    reads the doubtful faces again at the size of the sure ones, then keeps what is a die: read,
    or seen but unread (symbol None), one reading per place. When the dice read surely say the
    lamp is of another color than teaching saw (`vision.lamp`), the frame is read again through
    the lamp's correction, kept if it reads more dice surely; a die that only the frame as it is
    reads surely is kept too. A disc read unsure (a chip, a coin) is not a die.
    """
    return read_under_lamp(frame_bgr, profile)[0]


def prepare() -> None:
    """Do once what a process's first reading would: set BLAS to one thread, keep freed memory
    for reuse (`vision.heap`) and have OpenCV build its Lab tables (on its first conversion to
    Lab: 95 ms on the 2026-11-27 machine, more than a whole frame's reading). A one-shot reader
    (`python -m vision read`) calls it before its clock starts, so the time it reports is the
    frame's reading, as at the table."""
    use_one_blas_thread()
    keep_freed_memory()
    cv2.cvtColor(np.zeros((1, 1, 3), np.uint8), cv2.COLOR_BGR2LAB)


Lamp = tuple[float, float, float]  # per-channel (B, G, R) gains that undo a lamp's color


def read_under_lamp(frame_bgr: np.ndarray, profile: Profile, lamp: Lamp | None = None
                    ) -> tuple[list[Die], Lamp | None]:
    """`read_frame` for a camera that reads frame after frame of one table: it starts from
    `lamp`, the correction an earlier frame needed (a room's lamp does not change between
    rolls), so a frame under that lamp is read once, not twice. Returns the dice and the
    correction to start the next frame from (None: the frame looked as taught). A correction
    that no longer fits (the light changed again) is not used: the frame is read afresh."""
    dice, lamp = _read_under_lamp(frame_bgr, profile, lamp)
    # Last, on the frame as it came: a die-colored disc (a chip, a coin, a mat's round letter) is
    # no die, and one read surely has a die's face (`vision.roundness`; renderer, 300 scenes per
    # style: errors 196 -> 179, 17 phantoms fewer, every die read as before; with cocked dice
    # drawn as cubes 389 -> 377; box C's 70 four-image teachings 293 -> 292; taught on its 8,
    # every bench line as before). Not before the lamp's correction is chosen: a correction that
    # makes print look like dice is told by how many more it leaves unread, and with the discs
    # dropped first classic scene 93's mat letters became dice again (2 phantoms, a die wrong).
    return [die for die in dice if die.confidence >= 0.5 or not is_disc(frame_bgr, die.center, die.size)], lamp


def _read_under_lamp(frame_bgr: np.ndarray, profile: Profile, lamp: Lamp | None
                     ) -> tuple[list[Die], Lamp | None]:
    """`read_under_lamp` before the discs are dropped."""
    use_one_blas_thread()
    keep_freed_memory()  # a frame's arrays reuse the last frame's pages (see vision.heap)
    rim_colors = profile.rim_colors
    if rim_colors is None:  # a profile without rim colors cannot tell a lamp
        return _read(frame_bgr, profile)[0], None
    earlier = lamp
    if earlier is not None:
        dice, rims, _ = _read(_lit(frame_bgr, earlier), profile)
        if not lamp_doubted(rims, rim_colors):
            return dice, earlier
    dice, rims, sure = _read(frame_bgr, profile)
    if not lamp_doubted(rims, rim_colors):
        return dice, None  # the frame looks as taught: so is the lamp
    # Off as it is (and through the earlier correction): a correction of its own, or failing
    # that, the earlier one is still the best guess for the next frame.
    lamp = None
    plain = sure  # read surely in the frame as it is
    for _ in range(LAMP_ROUNDS):
        if lamp is not None and not lamp_doubted(rims, rim_colors):
            break
        gains = lamp_gains(frame_bgr, [(d.color, d.center, d.size) for d in sure], rim_colors,
                           exposure_gain(frame_bgr))
        if gains is None:
            break
        corrected = _lit(frame_bgr, gains)
        # Blobless dice too: a leaning die that only the learnt finder finds is lost otherwise
        # (renderer, 300 scenes per style: 527 -> 515 errors, 20 fewer dice missed; box C's every
        # 5th four-image teaching: one phantom more; box C taught on 8 under other lamps: as many
        # errors, 20). A die the correction washes out (red to white under a warm lamp) and that
        # the frame as it is read surely is kept below.
        again, again_rims, again_sure = _read(corrected, profile)
        # A correction that reads more dice surely but takes more things still for dice it cannot
        # read has made print look like dice: under a mixed lamp a printed mat's yellow letters
        # turn white through it (classic scene 93, when teaching kept one learnt finder: one die
        # more read surely, two letters more taken for unread dice). Renderer, 300 scenes per
        # style, with `_read_at_best_scale` (which makes the corrected frame's sure dice more):
        # barred by any new unread die, errors 443 -> 437, the letters' phantoms gone; as here,
        # allowed one per new sure die, 433 -> 432 (two dice only the correction finds, found
        # again). Without it: unchanged.
        if len(again_sure) <= len(sure) or len(again_sure) - len(sure) < _unread(again) - _unread(dice):
            # The correction reads no more dice surely: the lamp was not the trouble. A die it
            # reads surely where the frame as it is has none is a die all the same: one in a
            # light of its own, whose blob the frame's colors lose (renderer, 300 scenes per
            # style: 2 dice fewer missed; box C's 70 four-image teachings: 8 fewer). So is a die
            # it reads surely cocked (see COCKED_ELSEWHERE_SIZES).
            dice = dice + _elsewhere(again_sure + _surely_cocked(again, sure), dice)
            break
        frame_bgr, dice, rims, sure = corrected, again, again_rims, again_sure
        lamp = gains if lamp is None else (lamp[0] * gains[0], lamp[1] * gains[1], lamp[2] * gains[2])
    if lamp is not None:
        # One correction suits most dice of the frame, not every one (a die in a light or a
        # shade of its own, a color the teach images showed under one lamp only): a die read
        # surely in the frame as it is, where the corrected reading has none, is still a die;
        # and one the corrected reading doubts, read alike, is as sure as the frame as it is
        # read it (see `_surer_as_it_is`).
        dice = [_surer_as_it_is(die, plain) for die in dice] + _elsewhere(plain, dice)
    return dice, lamp if lamp is not None else earlier


def _surer_as_it_is(die: Die, plain: list[Die]) -> Die:
    """A die the corrected frame reads doubtfully, as the frame as it is read it surely when
    both readings agree (`plain`: the dice the frame as it is read surely), else `die`.

    The correction is kept when it reads more dice surely; the dice it reads less surely are
    no worse read as they were. The learnt finder's white die on gingham (classic scene 50)
    is read surely as it is, but at 0.3 through a correction that the faces read again at
    their best size (`_read_at_best_scale`) won: read there at the corrected frame's face
    size, its outline was not seen to stop at the face (`_flat_after_all`). Renderer, 300
    scenes per style: flagged 2017 -> 2012, errors unchanged; box C's 70 four-image
    teachings unchanged.
    """
    if die.confidence >= 0.5 or die.symbol is None:
        return die
    for other in plain:
        if (other.color, other.symbol) == (die.color, die.symbol) and _sides_apart(die, other) <= SAME_PLACE:
            return other
    return die


def _surely_cocked(dice: list[Die], sure: list[Die]) -> list[Die]:
    """The dice of `dice` seen surely but not read (cocked ones) whose size is a die's of the
    frame: within COCKED_ELSEWHERE_SIZES of the median of the dice read surely (`sure`); none
    when fewer than SIZE_WITNESSES of those tell it."""
    if len(sure) < SIZE_WITNESSES:
        return []
    usual = float(np.median([die.size for die in sure]))
    low, high = COCKED_ELSEWHERE_SIZES
    return [die for die in dice if die.symbol is None and die.confidence >= 0.5 and low <= die.size / usual <= high]


def _unread(dice: list[Die]) -> int:
    """How many of `dice` were seen but not read."""
    return sum(die.symbol is None for die in dice)


def _elsewhere(extra: list[Die], dice: list[Die]) -> list[Die]:
    """The dice of `extra` that lie apart from every die of `dice` (see SAME_PLACE)."""
    return [die for die in extra if all(_sides_apart(die, other) > SAME_PLACE for other in dice)]


def _lit(frame_bgr: np.ndarray, lamp: Lamp) -> np.ndarray:
    return cv2.multiply(frame_bgr, (*lamp, 0.0), dtype=cv2.CV_8U)


def _read(frame_bgr: np.ndarray, profile: Profile
          ) -> tuple[list[Die], list[tuple[str, np.ndarray]], list[Die]]:
    """`read_frame`'s one reading of the frame as it is: the dice, the (color, rim chroma)
    of the blobs read surely (what `vision.lamp` asks first), and the dice read surely by the
    calibration's own bars, which say how well a lamp's correction reads the frame (the bars
    eased for square blobs would let a poor correction win on dice it reads worse)."""
    # Where the detector and the die finder both start, and big dice' face windows are cut.
    half_frame = halved(frame_bgr)
    with halves_known(frame_bgr, half_frame):
        return _read_halved(frame_bgr, profile, half_frame)


def _read_halved(frame_bgr: np.ndarray, profile: Profile, half_frame: np.ndarray
                 ) -> tuple[list[Die], list[tuple[str, np.ndarray]], list[Die]]:
    """`_read`, the frame halved already (`half_frame`)."""
    gain = exposure_gain(frame_bgr)
    # A profile's learnt die finder finds what faint patches hold, and more (renderer, 400
    # scenes: 179 errors with it alone, 192 with both, 281 with faint patches alone; box C, every
    # 5th four-image teaching: 91, 93, 111): faint patches only for an older profile.
    candidates, faint_ones = find_all_candidates(frame_bgr, profile.color_model, profile.die_sizes,
                                                 profile.blob_side_ratio, profile.contrast_range,
                                                 faint=profile.finder is None, half_frame=half_frame)
    # A frame with too few dice to tell its own die size (a player's lone die, a zone cut out of
    # the frame) is read at the taught one: without it a blob of part of the die is read at that
    # part's size, and a die seen but not read cannot be told (box C's 70 four-image teachings:
    # 3 dice of its one-die frames found; one-die crops of its fixtures: 3 dice found, 2 sure).
    typical = typical_face_size(candidates, profile) or profile.die_sizes[1]
    looked = [read_candidate(frame_bgr, candidate, profile, gain, typical) for candidate in candidates
              if could_be_die(candidate, profile, typical)]  # reading faces is costly: skip blobs none could redeem
    sure = [_sure(look, profile) for look in looked]
    reread = _reread_doubtful(frame_bgr, looked, sure, profile, gain)
    # Only a look read again can have changed its sureness.
    sure = [is_sure if again is look else _sure(again, profile) for look, again, is_sure in zip(looked, reread, sure)]
    rims = [(look.candidate.color, look.chroma) for look, is_sure in zip(reread, sure)
            if is_sure and look.chroma is not None]
    looked = _rims_agree(frame_bgr, reread, sure, profile, gain)
    usual = _usual_size(reread, sure, SIZE_WITNESSES)
    if usual is not None:
        looked = [_read_at_best_scale(frame_bgr, look, profile, usual, gain) for look in looked]
    # Dice where no blob was taken for one. Fewer than SIZE_WITNESSES sure dice leave the frame's
    # die size to its blobs', which in a frame of one or two dice are mostly shadows, grain or part
    # of a die: the taught size says more (box C's 70 four-image teachings: 509 -> 495 errors).
    looked = looked + _blobless_looks(frame_bgr, faint_ones, looked, profile, gain, usual or profile.die_sizes[1], half_frame)
    found = []  # (best symbol score, die as read, where to report it)
    strict = []  # dice read surely without SQUARE_SCORE_SLACK's easing
    long_unclear = []  # long blobs dropped below, as unread dice where their faces were read
    leaning = {}  # id of a die read surely on an oblong blob: (its reading, its candidate)
    faces = {}  # id of a die read surely: its reading
    report_at = {}  # id of a die the learnt finder found and no face read: where to report it
    unread_faces = {}  # where a die whose face was matched but not read is reported so far: that face
    doubted = {}  # id of a die read doubtfully: its reading (see `_between_faces`)

    def ask_unread(unread: Die | None, candidate: Candidate) -> None:
        # A die seen but not read, if any, is asked of the player; one the learnt finder found
        # is reported where the finder found it, or on its cocked blob (`_cocked_blob`), surely
        # cocked when that blob is as long and full as a cocked die's (UNREAD_COCKED_FILL).
        if unread is None:
            return
        blob = _cocked_blob(candidate, candidates, unread.size, profile) if candidate.learnt else None
        if blob is not None and _cocked_die_blob(blob):
            unread = dataclasses.replace(unread, confidence=max(unread.confidence, UNREAD_COCKED_SURE))
        found.append((0.0, unread, unread.center))
        if candidate.learnt:
            report_at[id(unread)] = candidate.center if blob is None else blob.center

    plausible = [_plausible(look, profile) for look in looked]
    placed = [look.reading.center for look, is_die in zip(looked, plausible) if is_die]  # faces of dice, as far as known
    for look, is_die in zip(looked, plausible):
        candidate, reading, rim = look.candidate, look.reading, look.rim
        if look.rim_distance is not None and look.rim_distance > FOREIGN_RIM:
            continue  # no die of this box has a rim of that color: table art, a token
        if not is_die:
            # A die-colored, painted, one-die blob is a die we cannot read.
            if candidate.doubtful:
                unread = None  # (see DOUBTFUL_LOGIT)
            elif candidate.learnt:
                unread = _rejected_find_unread(look, placed)
            else:
                unread = None if candidate.standing_out or look.outline[0] < UNREAD_OUTLINE else \
                    unread_die(frame_bgr, candidate, profile, gain, typical, reading)
            ask_unread(unread, candidate)
            continue
        symbol, confidence = symbol_reading(reading, profile.calibration, candidate.aspect)
        if symbol is None and reading.tilt_gain <= UPRIGHT_AFTER_ALL_TILT:
            upright = symbol_confidence(reading, profile.calibration)
            # Dice known so far are faces read plausibly (`placed`).
            if upright is not None and cocked_shape(reading, upright, candidate.aspect) and \
                    _outline_runs_on(frame_bgr, reading, _other_faces(placed, reading)) <= STOPPED_EDGES:
                symbol, confidence = reading.best_symbol, upright  # (see STOPPED_EDGES)
        if symbol is not None and confidence < 0.5:
            confidence = _second_opinion(frame_bgr, reading, candidate, symbol, confidence, profile, placed)
        center = (float(reading.center[0]), float(reading.center[1]))
        if candidate.learnt and (symbol is None or confidence < 0.5 or
                                 (reading.best_score < LEARNT_MATCH and
                                  _foreshortened_gain(frame_bgr, reading, candidate.color, profile) > LEARNT_FLAT_GAIN)):
            # The learnt finder judged it a die: one seen but not read (cocked, or a white one on
            # a light table) is asked of the player (renderer, 400 scenes: 176 -> 134 errors,
            # missed 111 -> 63; box C's 70 four-image teachings: 484 -> 473, missed 156 -> 133).
            ask_unread(_doubtful_unread(look) if candidate.doubtful else _learnt_unread(look), candidate)
            continue
        if candidate.standing_out and (symbol is None or confidence < 0.5):
            continue  # found against the color model: only a face read surely makes it a die
        if candidate.no_blob and not candidate.learnt and reading.best_score < FAINT_MATCH:
            continue  # and standing out only faintly, only a face that matches closely
        if too_long_for_its_face(candidate, symbol, confidence) and \
                (symbol is None or confidence < 0.5 or
                 not _flat_after_all(frame_bgr, reading, candidate.color, placed, profile,
                                     square_match=FAINT_MATCH)):
            # (see LONG_CLEAR_FACE)
            long_unclear.append(Die(candidate.color, None, center, float(reading.size), NULL_SYMBOL_CONFIDENCE))
            continue
        # The blob's color and the rim's are two witnesses: when they agree the surer one
        # speaks; when the rim overruled the blob, only the rim does.
        colored = color_confidence(candidate, profile.calibration) if candidate.color == look.blob_color else 0.0
        cap = colored if rim is None else max(colored, rim)
        if symbol is not None and usual and reading.size < SMALL_FACE * usual:
            # Dice are all one size: a face read much smaller than the frame's sure ones is a
            # cocked die's foreshortened face or part of a die (renderer, 1400 dice read
            # confidently: 4 of 13 cocked dice, 1 flat one), so the player is asked.
            cap = min(cap, NULL_SYMBOL_CONFIDENCE)
        confidence = min(confidence, cap)
        if confidence >= 0.5 and _print_on_table(frame_bgr, look, reading, symbol, profile, gain):
            continue
        strictly = confidence
        if candidate.no_blob and reading.best_score < FAINT_SURE:
            # No blob's shape tells a cocked die here: the player is asked, unless the die's
            # outline or its face's squareness does (see FAINT_STOPPED, SQUARE_FACE). Its color
            # is only what the lamp made its middle look, so such a die does not vouch for the
            # lamp (`strict`).
            strictly = min(confidence, NULL_SYMBOL_CONFIDENCE)
            # Its face matched at FAINT_MATCH or LEARNT_MATCH already: no bar more on its match.
            if not _flat_after_all(frame_bgr, reading, candidate.color, placed, profile, square_match=0.0):
                cap = min(cap, NULL_SYMBOL_CONFIDENCE)
                confidence = min(confidence, cap)
        if symbol is not None and confidence < 0.5 and candidate.aspect <= SQUARE_BLOB:
            eased = min(symbol_confidence(reading, profile.calibration, eased=True), cap)
            if eased >= 0.5 and not _print_on_table(frame_bgr, look, reading, symbol, profile, gain):
                confidence = eased  # (see SQUARE_SCORE_SLACK)
        if candidate.doubtful and (symbol is None or confidence < 0.5):
            # A doubtful find read surely at first must end so (DOUBTFUL_LOGIT), or pass the
            # stricter bars of one seen but not read (DOUBTFUL_UNREAD_*).
            ask_unread(_doubtful_unread(look), candidate)
            continue
        if (symbol is None or confidence < 0.5) and not candidate.learnt and not candidate.no_blob and \
                _foreign_colors(frame_bgr, look, reading, profile, gain):
            # A face read doubtfully or as no symbol, in colors no taught face had, is print on
            # the table, not a die to ask about: a mat's cream letters, white-die colored and
            # die-sized, their "paint" the mat between them. Faces read surely are asked so
            # already (`_print_on_table`). Box C's 70 four-image teachings: phantoms 68 -> 48,
            # nothing else moved (68 -> 56 asked of unread faces alone). Renderer, 300 scenes per
            # style: errors 180 -> 181, a red die under glare lost (the glare counted as paint);
            # with cubes 377 -> 376, two phantoms fewer, a white die lost. The learnt finder's
            # finds and faint candidates have bars of their own.
            continue
        if symbol is None and _cocked_die_blob(candidate):
            confidence = max(confidence, min(UNREAD_COCKED_SURE, cap))
        die = Die(candidate.color, symbol, center, float(reading.size), float(confidence))
        if symbol is None:
            reported = _unread_middle(die, candidate)
            unread_faces[reported] = reading
        found.append((reading.best_score, die, center if symbol is not None else reported))
        if symbol is not None and confidence < 0.5:
            doubted[id(die)] = reading
        if symbol is not None and confidence >= 0.5:
            faces[id(die)] = reading
            if candidate.aspect > COCKED_ASPECT:
                leaning[id(die)] = (reading, candidate)
        if symbol is not None and strictly >= 0.5:
            strict.append(die)
    found.extend((0.0, die, die.center) for die in _read_twice(long_unclear))
    dice = _one_per_place(found, usual)
    # By identity: a die `_one_per_place` doubted as a second face comes back a new, unsure one.
    # A die found cocked after all still counts as read surely for the lamp: its color is sure.
    strictly_sure = [any(die is other for other in strict) for die in dice]
    # How a sure die's outline runs on past its face, measured once for the two checks that ask
    # (a leaning die's both ask it of one reading: 0.15 ms each).
    past_face = {id(die): edges_past_face(frame_bgr, faces[id(die)].center, faces[id(die)].size,
                                          faces[id(die)].angle, PAST_FACE) for die in dice if id(die) in faces}
    cocked = [_cocked_after_all(frame_bgr, die, leaning[id(die)], dice, profile, past_face[id(die)])
              if id(die) in leaning else die for die in dice]
    unread_faces.update((after.center, leaning[id(die)][0]) for die, after in zip(dice, cocked) if after is not die)
    dice = cocked
    kept = [die.symbol is not None or not _runs_past_die(frame_bgr, die, dice, profile, gain) for die in dice]  # (see RUNS_PAST_DIE)
    strictly_sure = [is_sure for is_sure, keep in zip(strictly_sure, kept) if keep]
    dice = [die for die, keep in zip(dice, kept) if keep]
    # Last: a die made unread here is not asked whether it is print (`_runs_past_die`), and
    # its color is still sure for the lamp.
    beside = [_second_face_beside(frame_bgr, die, faces[id(die)], dice, profile, past_face[id(die)])
              if id(die) in faces else die for die in dice]
    # Dice whose two faces were found already: found leaning here, or moved between their faces
    # below (`_midway_between_faces` looks for no more).
    two_faces = {id(after) for before, after in zip(dice, beside) if after is not before}
    dice = beside
    # A die the finder found and no face read is reported where the finder found it (or at the
    # middle of the cocked blob it lies on, ON_COCKED_BLOB): the finder is taught on the labels'
    # top faces' middles, and such a die is mostly a cocked one, whose face matched best may be its
    # second (reported at that face, one was missed and counted a phantom too). Only now: the
    # checks above ask about the die where its face was matched; moved before them, print and frame
    # edges the finder found stayed phantoms (renderer: 262 -> 273 errors). Renderer, 300 scenes
    # per style: every die scored as before (162 dice read unread reported elsewhere, 113 nearer
    # their labels); with cocked dice drawn as cubes (`--cocked-3d`): 736 -> 726 errors, cocked
    # dice null or flagged 505 -> 510; box C's 70 four-image teachings: 378 -> 370 (missed 92 ->
    # 88, phantoms 102 -> 98).
    dice = [dataclasses.replace(die, center=(float(report_at[id(die)][0]), float(report_at[id(die)][1])))
            if id(die) in report_at else die for die in dice]
    # By where it is reported: `_one_per_place` may have made a new die of it. A die read
    # doubtfully is looked at so too: a cube leaning 33-45 degrees whose face leaning away was
    # read doubtfully lay 0.6-0.75 sides from its label. Cubes (`--cocked-3d`), 300 scenes per
    # style: errors 407 -> 393 (7 such dice found, asked as before, 7 phantoms fewer); the
    # renderer's and box C's as before.
    between = [_between_faces(frame_bgr, die, unread_faces[die.center], dice, profile)
               if die.symbol is None and die.center in unread_faces else
               _between_faces(frame_bgr, die, doubted[id(die)], dice, profile) if id(die) in doubted else die
               for die in dice]
    two_faces.update(id(after) for before, after in zip(dice, between) if after is not before)
    dice = [_midway_between_faces(frame_bgr, die, between, profile)
            if die.symbol is None and id(die) not in two_faces else die for die in between]
    sure = [die for die, is_sure in zip(dice, strictly_sure) if is_sure]
    # Asked last: a die whose symbol glare may have made is still a die of its color.
    return [_glare_doubted(frame_bgr, die, faces.get(id(die)), profile) for die in dice], rims, sure


def _second_opinion(frame_bgr: np.ndarray, reading: FaceReading, candidate: Candidate, symbol: str,
                    confidence: float, profile: Profile, placed: list[tuple[float, float]]) -> float:
    """The confidence of a face (`reading`, on `candidate`'s blob) that the templates read as
    `symbol` doubtfully (`confidence`): higher when the profile's discriminant reads the same
    symbol by SECOND_OPINION's gap and the face cannot be a cocked die's (see
    SECOND_OPINION_GAIN), else as it was. `placed`: the faces of the frame's dice as far as
    known, whose outlines run on into this one's (`_other_faces` tells which are other dice')."""
    if profile.discriminant is None or candidate.aspect > SECOND_OPINION_ASPECT:
        return confidence
    said, gap = profile.discriminant.verdict(ink_map(face_window(frame_bgr, reading.center, reading.size, reading.angle)))
    if said != symbol or gap < SECOND_OPINION[0]:
        return confidence
    foreshortened = _foreshortened_gain(frame_bgr, reading, candidate.color, profile)
    stopped_gain, stopped_edges = SECOND_OPINION_STOPPED
    if foreshortened > stopped_gain or \
            (foreshortened > SECOND_OPINION_GAIN and
             _outline_runs_on(frame_bgr, reading, _other_faces(placed, reading)) > stopped_edges):
        return confidence
    return max(confidence, _ramp(gap, *SECOND_OPINION))


def _learnt_unread(look: Look, rim_limit: float = LEARNT_UNREAD_RIM, shift: float = LEARNT_UNREAD_SHIFT
                   ) -> Die | None:
    """What the learnt die finder found (`look`), as a die seen but not read, when its rim is
    its color's (within `rim_limit`), its outline steps on every side and the face matched lies
    within `shift` sides of where the finder found the die (see LEARNT_UNREAD_RIM); else None.
    The die lies at the face matched: `_read` checks it there, then reports it where the finder
    found it (or at its cocked blob's middle: `_cocked_blob`)."""
    reading, candidate = look.reading, look.candidate
    if look.rim_distance is not None and look.rim_distance <= rim_limit and \
            look.outline[0] >= UNREAD_OUTLINE and \
            math.dist(reading.center, candidate.center) <= shift * reading.size:
        center = (float(reading.center[0]), float(reading.center[1]))
        return Die(candidate.color, None, center, float(reading.size), NULL_SYMBOL_CONFIDENCE)
    return None


def _cocked_blob(found: Candidate, candidates: list[Candidate], size: float, profile: Profile) -> Candidate | None:
    """The blob a die the learnt finder found (`found`, `size` wide) and no face read lies on:
    the nearest among `candidates` that could be the whole of it cocked (see ON_COCKED_BLOB), or
    None. The die is reported at its middle, else where the finder found it."""
    longest, least, reach = ON_COCKED_BLOB
    blobs = [candidate for candidate in candidates
             if not candidate.no_blob and candidate.color == found.color and
             COCKED_ASPECT < candidate.aspect <= longest and
             candidate.side / profile.blob_side_ratio >= least * size and
             math.dist(candidate.center, found.center) <= reach * size]
    return min(blobs, key=lambda candidate: math.dist(candidate.center, found.center), default=None)


def _cocked_die_blob(blob: Candidate) -> bool:
    """Whether `blob` is as long and as full as a cocked die's two faces make it (see
    UNREAD_COCKED_FILL): a die unread on it is surely cocked."""
    return blob.aspect >= UNREAD_COCKED_ASPECT and blob.fill >= UNREAD_COCKED_FILL


def _doubtful_unread(look: Look) -> Die | None:
    """What the learnt die finder scored short of its bar (`look`), as a die seen but not read
    (`_learnt_unread`), when the face matched lies within DOUBTFUL_UNREAD_SHIFT sides of where
    it was found and its outline steps softly on its weakest side (DOUBTFUL_UNREAD_OUTLINE);
    else None."""
    if look.outline[0] > DOUBTFUL_UNREAD_OUTLINE:
        return None
    return _learnt_unread(look, shift=DOUBTFUL_UNREAD_SHIFT)


def _rejected_find_unread(look: Look, placed: list[tuple[float, float]]) -> Die | None:
    """What the learnt die finder found but the die-or-not model rejected (`look`), as a die
    seen but not read (see REJECTED_FIND_MATCH), or None. `placed`: the faces of the frame's
    dice as far as known."""
    reading = look.reading
    near, far = LEANS_ON
    if reading.best_score < REJECTED_FIND_MATCH or look.outline[0] < REJECTED_FIND_OUTLINE or \
            not any(near * reading.size < math.dist(at, reading.center) <= far * reading.size for at in placed):
        return None
    return _learnt_unread(look, UNREAD_RIM)


def _blobless_looks(frame_bgr: np.ndarray, faint: list[Candidate], looked: list[Look], profile: Profile,
                    gain: float, size: float, half_frame: np.ndarray | None = None) -> list[Look]:
    """Dice where no blob was taken for one: what the profile's learnt die finder finds
    (`vision.die_finder`, searched at the frame's face side `size` only, a die just short of its
    bar looked at again at another scale), or for a profile
    without one the `faint` candidates (`vision.detect.find_faint`), each read when it lies
    farther than FAINT_AWAY face sides from every face of a blob the die-or-not model accepts
    and from every one read before it. `half_frame`: the frame halved already (`vision.halving`)."""
    # A long blob whose face does not read very clearly (see LONG_BLOB) takes no place: it is
    # dropped unless its outline stops at the face, and the finder may find its die on its own.
    taken = [look.reading.center for look in looked
             if _plausible(look, profile) and not _long_and_unclear(look, profile)]
    if profile.finder is None:
        return _read_apart(frame_bgr, faint, taken, profile, gain, size)
    learnt = find_dice(frame_bgr, profile.finder, threshold=FINDER_BAR, sides=sides_near(profile.finder, size),
                       taken=np.array(taken, np.float64), apart=FAINT_AWAY * size, rescale=True, half_frame=half_frame,
                       floor=DOUBTFUL_LOGIT)
    candidates = [_learnt_candidate(frame_bgr, die.center, size, profile, doubtful=die.below_bar) for die in learnt]
    return _read_apart(frame_bgr, candidates, taken, profile, gain, size)


def _read_apart(frame_bgr: np.ndarray, candidates: list[Candidate], taken: list[tuple[float, float]],
                profile: Profile, gain: float, size: float) -> list[Look]:
    """The candidates read, each farther than FAINT_AWAY face sides (`size`) from every center
    of `taken` and from every face read before it that the die-or-not model accepts (whose
    centers join `taken`)."""
    found = []
    for candidate in candidates:
        if all(math.dist(candidate.center, center) > FAINT_AWAY * size for center in taken):
            look = read_candidate(frame_bgr, candidate, profile, gain, size)
            if candidate.learnt and look.reading.best_score < FAINT_SURE and \
                    _die_probability(look, profile) >= RELEARN_PLAUSIBLE:
                look = _read_learnt_again(frame_bgr, look, profile, gain, size, taken)
            found.append(look)
            if _plausible(look, profile):
                taken.append(look.reading.center)
    return found


def _read_learnt_again(frame_bgr: np.ndarray, look: Look, profile: Profile, gain: float, size: float,
                       taken: list[tuple[float, float]]) -> Look:
    """A die the learnt finder found whose face did not match closely (`look`), read again from
    starts around where it was found, at the frame's face side `size` and a tenth either way, or
    the look as it was. The finder places a die to within a fifth of a side, and a die nearer
    the camera or farther off than the frame's usual one is not of its size: a window off the
    face by that much matched a clean face at 0.6 (0.86 where it lay). The new reading counts
    only when it matches better and the die's outline stops at the face (a cocked die's runs on
    over its second face, and the finder's dice have no blob whose shape betrays them; `taken`:
    the centers of faces read so far, whose outlines run on into this one's)."""
    candidate = look.candidate
    templates = profile.templates_for(candidate.color)
    # Where it was found at a tenth bigger and smaller, and around it at the frame's size (where
    # it was found at that size is the first reading). Each start is matched once at the face's
    # angle as first read and the best one recentred: a match looks an eighth of a side each way.
    starts = [(candidate.center, size * k) for k in RELEARN_SIZES] + _starts_around(candidate.center, [size])
    angle = look.reading.angle
    start, side = max(starts, key=lambda at: _best_score(frame_bgr, at[0], at[1], templates, angle))
    center, score, *_ = _refine(frame_bgr, start, side, templates)
    if score < LEARNT_MATCH or score <= look.reading.best_score:
        return look
    moved = dataclasses.replace(candidate, center=center, side=side * profile.blob_side_ratio)
    again = read_candidate(frame_bgr, moved, profile, gain, size)
    if again.reading.best_score <= look.reading.best_score:
        return look
    stops = _outline_runs_on(frame_bgr, again.reading, _other_faces(taken, again.reading)) <= CONTINUED_EDGES
    return again if stops else look


def _learnt_candidate(frame_bgr: np.ndarray, center: tuple[float, float], size: float, profile: Profile,
                      doubtful: bool = False) -> Candidate:
    """A die the learnt finder found, as a blobless candidate of the frame's face side (`size`),
    colored by its face's middle (the rim may yet recolor it, see `read_candidate`); `doubtful`
    when the finder scored it under its bar (see DOUBTFUL_LOGIT)."""
    height, width = frame_bgr.shape[:2]
    x, y, half = int(round(center[0])), int(round(center[1])), max(2, int(0.25 * size))
    middle = frame_bgr[min(max(0, y - half), height - 1):min(height, y + half + 1),
                       min(max(0, x - half), width - 1):min(width, x + half + 1)]
    shares = profile.color_model.classify(middle)[1].reshape(len(profile.color_model.classes) - 1, -1).mean(axis=1)
    k = int(np.argmax(shares))
    return Candidate(profile.color_model.classes[k + 1], (float(center[0]), float(center[1])),
                     size * profile.blob_side_ratio, float(shares[k]), 0.9, 1.0, standing_out=True, no_blob=True,
                     learnt=True, doubtful=doubtful)


def _long_and_unclear(look: Look, profile: Profile) -> bool:
    """Whether `look`'s blob is too long for how clearly its face reads (`too_long_for_its_face`)."""
    return too_long_for_its_face(look.candidate, *symbol_reading(look.reading, profile.calibration,
                                                                 look.candidate.aspect))


def too_long_for_its_face(candidate: Candidate, symbol: str | None, confidence: float) -> bool:
    """Whether a blob is too long to be one die for how clearly its face reads (`confidence`,
    the symbol's).

    Twice as long as wide is hardly ever one die's outline (16 of 5700 dice on the renderer,
    most of them read surely all the same): a face read very clearly still makes it a die (a die
    and its shadow), but one read as nothing, barely or only fairly well is far more often a
    finger, a card's edge, a stripe of the mat or a letter of its print. Box C's 70 four-image
    teachings: 12 such phantoms gone when a clear face was asked for (0.8), 12 more (read at
    0.80-0.86) when a very clear one is (0.9); renderer, 400 scenes: 2 dice lost at 0.8, 1 more at 0.9.
    """
    return candidate.aspect > LONG_BLOB and (symbol is None or confidence < LONG_CLEAR_FACE)


def carries_too_much_ink(frame_bgr: np.ndarray, reading: FaceReading, symbol: str | None, color: str,
                         profile: Profile) -> bool:
    """Whether the face read as `symbol` on a `color` die holds far more paint than any taught
    face of that symbol (on that color, when teaching saw it there often enough) did: INK_OVER
    times the most. The window is then not a die's face but print on the table, a letter or a
    numeral of a mat, whose own color is taken for paint around it.

    Box C's 70 four-image teachings: 694 -> 636 errors (cream numerals of a teal mat read
    surely as white dice: 57 phantoms fewer; 677 with limits per symbol alone); renderer, 400
    scenes: 323 -> 322. Faces read with doubt are left alone: on the renderer most faces with
    that much paint are dice with a neighbour or a shadow in the window, asked of the player
    already, and dropping them lost them (renderer 334 at 2.2 times, 366 at 1.6).
    """
    if symbol is None:
        return False
    limit = profile.ink_limits.get(ink_key(symbol, color)) or profile.ink_limits.get(symbol)
    if not limit:
        return False
    if reading.face is not None:
        return strong_face_ink_share(reading.face) > INK_OVER * limit
    window = face_window(frame_bgr, reading.center, reading.size, reading.angle)
    return strong_ink_share(ink_map(window)) > INK_OVER * limit


def _reads_as_print(frame_bgr: np.ndarray, look: Look, reading: FaceReading, symbol: str | None,
                    profile: Profile) -> bool:
    """Whether `look`'s face, read as `symbol` (`reading`), is print on the table, a letter or
    a numeral (see `carries_too_much_ink`). Not for a blob the rim recolored: a washed-out face
    shades from white to its color, which the window counts as paint (a red die so read at a
    camera nearer than at teaching carried 2.5 times a finger's most)."""
    return look.candidate.color == look.blob_color and \
        carries_too_much_ink(frame_bgr, reading, symbol, look.candidate.color, profile)


def _print_on_table(frame_bgr: np.ndarray, look: Look, reading: FaceReading, symbol: str | None, profile: Profile,
                    gain: float) -> bool:
    """Whether `look`'s face, read as `symbol` (`reading`), is print on the table: too
    much paint for its symbol (`_reads_as_print`) or colors no taught face had (`_foreign_colors`).
    `gain`: the frame's exposure gain."""
    return _reads_as_print(frame_bgr, look, reading, symbol, profile) or \
        _foreign_colors(frame_bgr, look, reading, profile, gain)


def _foreign_colors(frame_bgr: np.ndarray, look: Look, reading: FaceReading, profile: Profile, gain: float) -> bool:
    """Whether `look`'s face (`reading`), read surely, doubtfully or as no symbol at all, has
    colors no taught face of its die color had (see `vision.face_colors`): print on the table.
    A face on a blob of its color carries paint farther than FOREIGN_PAINT from every taught
    paint of its color (the mat showing through print as paint). A face the rim recolored, whose
    paint is not measured (see `_reads_as_print`), is of the palest color and its body lies
    farther than FOREIGN_BODY from every taught body of that color. A profile taught before face
    colors were kept has none, and no face fails them. `gain`: the frame's exposure gain."""
    color = look.candidate.color
    recolored = color != look.blob_color
    colors = profile.body_colors if recolored else profile.paint_colors
    if colors is None or (recolored and (profile.rim_colors is None or color != profile.rim_colors.palest)):
        return False
    face = reading.face
    if face is None:
        face = inner(face_window(frame_bgr, reading.center, reading.size, reading.angle))
    if recolored:
        distance = colors.distance(color, body_chroma(face, gain))
        return distance is not None and distance > FOREIGN_BODY
    chroma = paint_chroma(face, gain)
    if chroma is None:
        return False
    distance = colors.distance(color, chroma)
    return distance is not None and distance > FOREIGN_PAINT


def _read_twice(dice: list[Die]) -> list[Die]:
    """The dice of `dice` that another of its dice, of their color, was read at (within
    SAME_PLACE sides): two long blobs of one die. A leaning die's blob, too big for one die, is
    split in two, each half long; both are read on the one face they share, and neither reads
    it clearly. A finger, a card's edge or a letter is hardly ever two blobs that find one face
    (renderer, 400 scenes: 2 leaning dice found, reported unread; no phantom; box C unchanged)."""
    return [die for i, die in enumerate(dice)
            if any(other.color == die.color and _sides_apart(die, other) <= SAME_PLACE for other in dice[i + 1:])]


def _die_probability(look: Look, profile: Profile) -> float:
    """How likely the die-or-not model finds it that `look` is a die."""
    return profile.calibration.plausibility.probability(candidate_features(look, profile))


def _plausible(look: Look, profile: Profile) -> bool:
    """Whether the die-or-not model takes the blob for a die; a face that reads clearly is a
    die, however its blob is shaped, unless the model finds the blob absurd for one."""
    probability = _die_probability(look, profile)
    if probability >= 0.5:
        return True
    return probability >= CLEAR_FACE_AT_LEAST and \
        (symbol_confidence(look.reading, profile.calibration) or 0.0) >= CLEAR_FACE


def _sure(look: Look, profile: Profile) -> bool:
    symbol, confidence = symbol_reading(look.reading, profile.calibration, look.candidate.aspect)
    return symbol is not None and confidence >= 0.5 and _plausible(look, profile)


def _reread_doubtful(frame_bgr: np.ndarray, looked: list[Look], sure: list[bool], profile: Profile,
                     gain: float) -> list[Look]:
    """Read doubtful faces again: at the face size of the dice read surely (`sure`, one per
    look), then, a face still matched poorly, from around its blob's center (see `_read_around`),
    then, a blob too big for one die, at that face size from starts over it (`_read_within`).
    (`_read` then reads them again at the size their templates fit best, `_read_at_best_scale`,
    once the frame's usual face size is told by its sure dice as read here.)

    A blob that holds only part of a die (paint or glare split it) makes a face window too
    small; seen from a slant (a wide lens, a die far from the middle of the frame), a die's
    blob takes in the side it shows the camera as well, and its window is too big. The dice
    read surely tell the frame's face size. For a bigger blob, the new reading counts only when
    the blob's extra lies toward the middle of the frame from the face, where perspective
    shows a die's side; a cocked die's second face lies any way it fell.
    """
    usual = _usual_size(looked, sure, 2)
    if usual is not None:
        middle = (np.array([frame_bgr.shape[1], frame_bgr.shape[0]], np.float64) - 1.0) / 2.0
        looked = [look if is_sure else _read_at_usual_size(frame_bgr, look, usual, middle, profile, gain)
                  for look, is_sure in zip(looked, sure)]
    looked = [look if is_sure else _read_around(frame_bgr, look, profile, gain) for look, is_sure in zip(looked, sure)]
    if usual is not None:
        looked = [look if is_sure else _read_within(frame_bgr, look, usual, profile, gain)
                  for look, is_sure in zip(looked, sure)]
    return looked


def _read_at_best_scale(frame_bgr: np.ndarray, look: Look, profile: Profile, usual: float, gain: float) -> Look:
    """A doubtful look read again at the face size and turn its templates fit best (SCALE_STEPS
    of its own size, and SWEEP_TURNS), or the look as it was.

    A face's size comes from its blob, which is a few percent off either way (a shadow, a
    neighbour, a rounded edge), and a template matched a tenth too big or too small fits the
    right symbol hardly better than the others; its turn comes from the edges around it. The
    new reading counts only for a die that could be lying flat: a blob not too long
    (SCALED_ASPECT), a face that reads at all (the calibration's `min_score`) unless its blob is
    square and not much bigger than the frame's `usual` face (SWEPT_ASPECT, SWEPT_SIZE), not much
    smaller than that (SCALED_AT_LEAST: a cocked die's nearer face, foreshortened, fits best
    smaller), then clearly upright (SCALED_TILT) and, where its blob's shape said cocked, with an
    outline that stops at the face (SCALED_OUTLINE).
    """
    reading = look.reading
    unmatched = reading.best_score < profile.calibration.min_score
    if look.candidate.aspect > SCALED_ASPECT or _sure(look, profile) or \
            (unmatched and (look.candidate.aspect > SWEPT_ASPECT or reading.size > SWEPT_SIZE * usual)):
        return look
    if _die_probability(look, profile) < 0.5:
        return look  # the die-or-not model doubts it: a better fit somewhere is no die's
    templates = profile.templates_for(look.candidate.color)
    fits = [(step, _refine(frame_bgr, reading.center, reading.size * step, templates, reading.angle))
            for step in SCALE_STEPS]
    if SWEEP_TURNS:
        # The best turn's window at the face's own size is where its refit starts: matched once.
        turns = [(angle, _matched_window(frame_bgr, reading.center, reading.size, templates, angle))
                 for angle in (reading.angle + turn for turn in SWEEP_TURNS)]
        turned, first = max(turns, key=lambda item: max(item[1][1].scores.values()))
        fits += [(step, _refine(frame_bgr, reading.center, reading.size * step, templates, turned,
                                first if step == 1.0 else None))
                 for step in (1.0, *SCALE_STEPS)]
    step, fit = max(fits, key=lambda item: item[1][1])  # fit: (center, score, match, angle, face)
    size = reading.size * step
    if fit[1] <= reading.best_score or size < SCALED_AT_LEAST * usual:
        return look
    again = _face_reading(fit, size)
    if again.tilt_gain > SCALED_TILT:
        return look
    outline = _outline(frame_bgr, again)
    if outline[0] < SCALED_OUTLINE and \
            cocked_shape(reading, symbol_confidence(reading, profile.calibration), look.candidate.aspect):
        return look
    if _reads_as_print(frame_bgr, look, again, again.best_symbol, profile):
        # Its window at the new size holds more paint than a die's face does: the reading
        # stays as doubtful as it was, not dropped as print.
        return look
    return _moved(frame_bgr, look, look.candidate, again, profile, gain, outline)


def _usual_size(looked: list[Look], sure: list[bool], witnesses: int) -> float | None:
    """The frame's face size: the median of the sure looks' (`sure`, one per look), or None
    with fewer than `witnesses` of them."""
    sizes = [look.reading.size for look, is_sure in zip(looked, sure) if is_sure]
    return float(np.median(sizes)) if len(sizes) >= witnesses else None


def _read_around(frame_bgr: np.ndarray, look: Look, profile: Profile, gain: float) -> Look:
    """A doubtful look whose face matched poorly, read again from starts around its blob's
    center, or the look as it was.

    A blob's centroid can sit far off the face (a die of nearly the table's color joined to its
    shadow, a side of the die in the blob), too far for recentring to find the face. The new
    reading counts only when it makes the die sure: read from many starts, something on a
    blob that is no die matches a little better too, and must not become a die by it.
    """
    candidate, reading = look.candidate, look.reading
    if not RETRY_FROM <= reading.best_score < AROUND_BELOW or _sure(look, profile) or \
            _die_probability(look, profile) < RETRY_PLAUSIBLE:
        return look
    templates = profile.templates_for(candidate.color)
    (center, score, *_), _ = _best_refined(frame_bgr, _starts_around(candidate.center, [reading.size]), templates)
    if score <= reading.best_score:
        return look
    again = _surer_at(frame_bgr, look, center, reading.size, profile, gain)
    if again is None:
        return look
    # The blob is what it was: only where its face was found has changed.
    return dataclasses.replace(again, candidate=dataclasses.replace(again.candidate, center=candidate.center,
                                                                    side=candidate.side))


def _read_within(frame_bgr: np.ndarray, look: Look, usual: float, profile: Profile, gain: float) -> Look:
    """A doubtful look whose blob is too big for one die (BIG_BLOB), read again at the frame's
    `usual` face size from starts spread over the blob (WITHIN_STEPS), or the look as it was.

    A white die touching a cream card makes one blob with it: its centroid lies off the die,
    and its face is read at the blob's size, far too big to match. The new reading counts only
    when it makes the die sure, as `_read_around`'s: from nine starts, what is no die matches a
    little better too. It is a die-sized candidate then, where the face was found."""
    candidate, reading = look.candidate, look.reading
    if candidate.no_blob or candidate.side / profile.blob_side_ratio < BIG_BLOB * usual or _sure(look, profile):
        return look
    reach = 0.5 * (candidate.side / profile.blob_side_ratio - usual)  # from the middle to where a corner die lies
    starts = [((candidate.center[0] + dx * reach, candidate.center[1] + dy * reach), usual)
              for dx in WITHIN_STEPS for dy in WITHIN_STEPS]
    (center, score, *_), _ = _best_refined(frame_bgr, starts, profile.templates_for(candidate.color))
    if score <= reading.best_score:
        return look
    return _surer_at(frame_bgr, look, center, usual, profile, gain) or look


def _surer_at(frame_bgr: np.ndarray, look: Look, center: tuple[float, float], size: float, profile: Profile,
              gain: float) -> Look | None:
    """`look`'s candidate read again with its face at `center`, `size` wide: the new look when
    its face matches better than `look`'s and it is sure, else None (`_read_around`,
    `_read_within`)."""
    moved = dataclasses.replace(look.candidate, center=center, side=size * profile.blob_side_ratio)
    again = read_candidate(frame_bgr, moved, profile, gain, look.usual_size)
    if again.reading.best_score <= look.reading.best_score or not _sure(again, profile):
        return None
    return again


def _read_at_usual_size(frame_bgr: np.ndarray, look: Look, usual: float, middle: np.ndarray,
                        profile: Profile, gain: float) -> Look:
    """A doubtful look read again at the frame's `usual` face size when its own is off by a
    plausible amount (see `_reread_doubtful`), or the look as it was."""
    candidate, reading = look.candidate, look.reading
    ratio = reading.size / usual
    smaller = SMALLER_RANGE[0] <= ratio <= SMALLER_RANGE[1]
    if not smaller and candidate.aspect > WHOLE_DIE[1]:
        # A long blob may be of two dice: its side tells no die's size (see TWO_DICE_BLOB).
        if REREAD_RANGE[0] <= ratio <= TWO_DICE_BLOB:
            return _read_on_long_blob(frame_bgr, look, usual, profile, gain)
        return look
    if not smaller and not REREAD_RANGE[0] <= ratio <= REREAD_RANGE[1]:
        return look
    scaled = dataclasses.replace(candidate, side=candidate.side / ratio)
    again = read_face(frame_bgr, scaled, profile)
    if smaller and again.best_score < RETRY_BELOW:
        # The centroid of a blob of part of a die lies off the die's center, too far for
        # recentring at the die's size: read from starts around it, and count that reading only
        # when it makes the die sure (from many starts, what is no die matches better too).
        around = _read_face_around(frame_bgr, scaled, profile)
        if around.best_score > max(again.best_score, reading.best_score):
            found = _moved(frame_bgr, look, scaled, around, profile, gain)
            if _sure(found, profile):
                return found
    if again.best_score <= reading.best_score:
        return look
    if not smaller:
        extra = np.subtract(candidate.center, again.center)
        inward = middle - np.array(again.center)
        toward = float(extra @ inward) / max(float(np.linalg.norm(extra) * np.linalg.norm(inward)), 1e-6)
        if toward < SIDE_TOWARD_MIDDLE:
            return look
    return _moved(frame_bgr, look, scaled, again, profile, gain)


def _read_on_long_blob(frame_bgr: np.ndarray, look: Look, usual: float, profile: Profile, gain: float) -> Look:
    """A doubtful look on a long blob read again where its face was found, at the frame's
    `usual` face size: kept when it fits better, clearly upright (SCALED_TILT) and sure, else the
    look as it was (see TWO_DICE_BLOB)."""
    candidate, reading = look.candidate, look.reading
    again = _face_reading(_refine(frame_bgr, reading.center, usual, profile.templates_for(candidate.color)), usual)
    if again.best_score <= reading.best_score or again.tilt_gain > SCALED_TILT:
        return look
    found = _moved(frame_bgr, look, dataclasses.replace(candidate, side=usual * profile.blob_side_ratio), again,
                   profile, gain)
    return found if _sure(found, profile) else look


def _moved(frame_bgr: np.ndarray, look: Look, candidate: Candidate, reading: FaceReading, profile: Profile,
           gain: float, outline: tuple[float, float] | None = None) -> Look:
    """`look` read again (`reading`, on `candidate`), its rim measured again where the face now
    lies: a reading that moved onto a neighbouring die's face is that die's, and keeping the rim
    it had where it was read first gave it the color of its own blob. (Box C: a blob of a white
    die's shade, read again at the frame's face size, settled on a washed-out red die beside it
    and was reported white, with the rim of the shade.) `outline`: the new face's, if measured."""
    return _rim_checked(frame_bgr, look.blob_color, candidate, reading, profile, gain, look.usual_size, outline)


def _rims_agree(frame_bgr: np.ndarray, looked: list[Look], sure: list[bool], profile: Profile,
                gain: float) -> list[Look]:
    """The looks whose rim agrees with the sure dice (`sure`, one per look) of their color in
    this frame.

    One lamp lights every die in a frame, so dice of one color have rims of nearly one chroma
    there, while the taught spread of a color spans every lamp of the teach images (a warm lamp
    yellows a white die). A doubtful blob far from its color's sure dice in this frame (yellow
    print taken for a white die, a card's edge) is no die of that color.
    """
    if profile.rim_colors is None:
        return looked
    witnesses: dict[str, list[np.ndarray]] = {}
    for look, is_sure in zip(looked, sure):
        if is_sure and look.chroma is not None:
            witnesses.setdefault(look.candidate.color, []).append(look.chroma)
    frame_rims = {color: column_medians(np.array(chromas)) for color, chromas in witnesses.items()
                  if len(chromas) >= RIM_WITNESSES}
    kept = []
    for look, is_sure in zip(looked, sure):
        frame_rim = frame_rims.get(look.candidate.color)
        if not is_sure and frame_rim is not None:
            # Measured again where the face now is: a doubtful face may have been read again
            # (not when the look's rim was measured there: 4 of 31 rims a frame, 0.06 ms each).
            chroma = look.chroma if look.rim_on_face else \
                rim_chroma(frame_bgr, look.reading.center, look.reading.size, gain)
            if chroma is not None and \
                    profile.rim_colors.distances_from(chroma, frame_rim, look.candidate.color) > FRAME_RIM:
                continue
        kept.append(look)
    return kept


def unread_die(frame_bgr: np.ndarray, candidate: Candidate, profile: Profile, gain: float,
               typical_size: float | None, reading: FaceReading | None = None) -> Die | None:
    """The candidate as a die whose symbol cannot be read (see UNREAD_*), or None; null surely
    on a blob as long as a cocked die's (UNREAD_COCKED_ASPECT). `reading` is its face as read, if
    it was: a face that favours one symbol may have a blob less filled."""
    if not typical_size or profile.rim_colors is None:
        return None
    fill, aspect, low, high = UNREAD_SHAPE
    if reading is not None and reading.best_score >= UNREAD_FACE[0] and reading.margin >= UNREAD_FACE[1]:
        fill = UNREAD_FACE_FILL
    if candidate.fill < fill or candidate.aspect > aspect or \
            not low <= candidate.side / profile.blob_side_ratio / typical_size <= high:
        return None
    rim = rim_chroma(frame_bgr, candidate.center, typical_size, gain)
    amid = _own_color_around(frame_bgr, candidate.center, typical_size, candidate.color, profile, gain)
    if rim is None or amid is None or profile.rim_colors.distances(rim, candidate.color) > UNREAD_RIM:
        return None
    if amid > UNREAD_SURROUND:
        return None
    angle = face_angle(frame_bgr, candidate.center, typical_size)
    window = face_window(frame_bgr, candidate.center, typical_size, angle)
    if ink_share(ink_map(window)) < UNREAD_INK:
        return None
    sure = UNREAD_COCKED_SURE if candidate.aspect >= UNREAD_COCKED_ASPECT else NULL_SYMBOL_CONFIDENCE
    return Die(candidate.color, None, (float(candidate.center[0]), float(candidate.center[1])), float(typical_size), sure)


def _own_color_around(frame_bgr: np.ndarray, center: tuple[float, float], size: float, color: str,
                      profile: Profile, gain: float, near: float = UNREAD_NEAR) -> float | None:
    """The share of the ring just outside a die of `color` (`size` wide at `center`) whose
    chroma lies within `near` of that color's rims, or None (no rim colors taught, too little
    of the ring in the frame): a piece of card or cloth of a die's color has more of it around
    it, a die little (and a washed-out face's die, `_washed_color`, none)."""
    if profile.rim_colors is None:
        return None
    surround = surround_chromas(frame_bgr, center, size, gain)
    if surround is None:
        return None
    return profile.rim_colors.near_share(surround, color, near)


def _unread_middle(die: Die, candidate: Candidate) -> tuple[float, float]:
    """Where a die whose face was matched but not read lies: halfway from that face to its
    blob's centroid. Such a die is mostly a cocked one, showing two faces or three; the face
    matched is one of them, the blob holds all of them, and the die's middle lies between. (Box
    C's cocked dice are labelled there; reported at its face, one of them missed its label by
    a few pixels and counted twice, missed and phantom: its 70 four-image teachings 955 -> 873
    errors, none worse. At the blob's centroid: 875, but the renderer's dice on an edge can
    make a blob per face, and 8 more errors in 400 scenes, against 2 halfway.)"""
    return (float(die.center[0] + candidate.center[0]) / 2.0, float(die.center[1] + candidate.center[1]) / 2.0)


def _between_faces(frame_bgr: np.ndarray, die: Die, reading: FaceReading, dice: list[Die], profile: Profile) -> Die:
    """`die`, seen but not read, or read doubtfully, where its face was matched (`reading`),
    reported midway between that face and its second face when one lies beside it (a
    foreshortened face matching a symbol at BETWEEN_FACES_MOVE, SECOND_FACE's sides out, on a
    side where no other die of `dice` lies within BETWEEN_FACES_NEIGHBOUR sides); else as it was,
    as is a die surely cocked (null at 0.5 or more), whose blob's shape showed the whole die. A
    die so moved that was seen but not read is then surely cocked too when its second face
    matched BETWEEN_FACES_MATCH: its two faces show it (TWO_FACES_SEEN).

    A cocked die's label lies on its top face, and the face matched is as often its other one,
    0.65-0.75 of a side off; nor does its blob say where the die's middle is, when it holds
    mostly that face. Midway between the two faces lies 0.25-0.36 sides from either face's
    middle for a die leaning 20-45 degrees. Only now, with every die known: the checks before
    ask about the die where it was reported so far (moved before them, a die reported on its
    ridge was taken for print whose outline runs on, `_runs_past_die`)."""
    if die.confidence >= 0.5:
        return die
    others = [other.center for other in dice if other is not die]
    _, score = _beside_looks(frame_bgr, reading, die.color, profile)
    beside = [(max(score(way, turn, FORESHORTENED), score(way, turn, SECOND_FACE_NARROW[0])), way)
              for way, turn in zip(face_ways(reading.center, reading.size, reading.angle), FACE_WAY_TURNS)
              if not _occupied(way, reading.center, reading.size, others,
                               ((NEIGHBOUR_ALONG[0], BETWEEN_FACES_NEIGHBOUR), NEIGHBOUR_ASIDE))]
    score, way = max(beside, key=lambda item: item[0], default=(0.0, (0.0, 0.0)))
    if score < BETWEEN_FACES_MOVE:
        return die
    confidence = TWO_FACES_SEEN if die.symbol is None and score >= BETWEEN_FACES_MATCH else die.confidence
    return dataclasses.replace(die, center=_midway(reading, way), confidence=confidence)


def _midway_between_faces(frame_bgr: np.ndarray, die: Die, dice: list[Die], profile: Profile) -> Die:
    """`die`, left unread, reported midway between two faces of its color's symbols that lie
    along one of its axes through where it is reported, TWO_FACES_APART sides apart (see
    TWO_FACES_SCAN); else as it was. Of two such pairs, the one whose weaker face matches
    better. `dice` are all the frame's: a face as near another die as TWO_FACES_OTHER_DIE is that
    die's."""
    size = die.size
    angle = face_angle(frame_bgr, die.center, size)
    templates = profile.templates_for(die.color, upright=True)
    others = [other.center for other in dice if other is not die]
    low, high = TWO_FACES_APART
    best: tuple[float, tuple[float, float]] | None = None
    ways = face_ways(die.center, size, angle)
    for way, turn in ((ways[0], FACE_WAY_TURNS[0]), (ways[2], FACE_WAY_TURNS[2])):
        along = [(die.center[0] + t * size * way[0], die.center[1] + t * size * way[1]) for t in TWO_FACES_SCAN]
        scores = [_best_score(frame_bgr, at, size, templates, angle + turn, TWO_FACES_ACROSS) for at in along]
        faces = [(scores[i], TWO_FACES_SCAN[i], along[i]) for i in range(len(along))
                 if scores[i] >= TWO_FACES_MATCH and (i == 0 or scores[i] >= scores[i - 1]) and
                 (i == len(along) - 1 or scores[i] >= scores[i + 1]) and
                 all(math.dist(along[i], other) > TWO_FACES_OTHER_DIE * size for other in others)]
        for (first, t_first, at_first), (second, t_second, at_second) in itertools.combinations(faces, 2):
            weaker = min(first, second)
            if low <= abs(t_second - t_first) <= high and (best is None or weaker > best[0]):
                best = (weaker, ((at_first[0] + at_second[0]) / 2.0, (at_first[1] + at_second[1]) / 2.0))
    if best is None:
        return die
    return dataclasses.replace(die, center=(float(best[1][0]), float(best[1][1])))


def _glare_doubted(frame_bgr: np.ndarray, die: Die, reading: FaceReading | None, profile: Profile) -> Die:
    """`die`, read surely at `reading`, or when a lamp's glare lies on its face and the face
    read without the glare matches another symbol best, or its symbol no longer well enough to
    be read at all (GLARE_MADE), the die asked of the player (see `vision.glare`). Glare is
    looked for on the face's pixels where its symbol matched."""
    if reading is None or reading.face is None or die.symbol is None or die.confidence < 0.5:
        return die
    if glare_mask(reading.face) is None:
        return die
    window = face_window(frame_bgr, reading.center, reading.size, reading.angle)
    ink = ink_map(window)
    cleaned = without_glare(window, ink)
    if cleaned is ink:
        return die
    scores = match(cleaned, profile.templates_for(die.color, upright=True)).scores
    if max(scores, key=scores.get) == die.symbol and scores[die.symbol] >= GLARE_MADE * profile.calibration.min_score:
        return die
    return dataclasses.replace(die, confidence=min(die.confidence, NULL_SYMBOL_CONFIDENCE))


def _cocked_after_all(frame_bgr: np.ndarray, die: Die, seen: tuple[FaceReading, Candidate], dice: list[Die],
                      profile: Profile, edges: list[tuple[tuple[float, float], float]]) -> Die:
    """`die`, read surely on an oblong blob (`seen`: its reading and candidate), or when its face
    was a cocked die's after all (see FORESHORTENED), that die unread, reported at its middle.
    `dice` are all the frame's: a side where one of them lies runs on into it, not a second face.
    `edges`: how the outline runs on past the face (`vision.outline.edges_past_face`, PAST_FACE)."""
    reading, candidate = seen
    if _outline_runs_on(frame_bgr, reading, [other.center for other in dice if other is not die], edges) <= \
            CONTINUED_EDGES:
        return die
    if _foreshortened_gain(frame_bgr, reading, die.color, profile) <= STRETCH_GAIN:
        return die
    return Die(die.color, None, _unread_middle(die, candidate), die.size, NULL_SYMBOL_CONFIDENCE)


def _second_face_beside(frame_bgr: np.ndarray, die: Die, reading: FaceReading, dice: list[Die],
                        profile: Profile, edges: list[tuple[tuple[float, float], float]]) -> Die:
    """`die`, read surely at `reading`, or when a cocked die's second face lies beside that face,
    the die unread (see SECOND_FACE), reported where `_found_leaning` says. `dice` are all the
    frame's: where one lies, the outline runs on into it and its face is no second face, unless
    it is of another color and the face beside of this face's (SECOND_FACE_COLOR,
    SECOND_FACE_ALIKE), or of its color but lying SECOND_FACE_OWN_REACH sides out or farther, or
    nearer where the outline runs on far over a face of this one's color that matches closely
    (SECOND_FACE_OWN_SIDE). `edges`: how the outline runs on past the face
    (`vision.outline.edges_past_face`, PAST_FACE)."""
    run_on, match_at_least, _ = SECOND_FACE
    alike_run_on, alike_step, alike_light, alike_match = SECOND_FACE_ALIKE
    others = [other for other in dice if other is not die]
    alike = [other.center for other in others if other.color == die.color]
    unlike = [other.center for other in others if other.color != die.color]
    neighbour = (NEIGHBOUR_ALONG, NEIGHBOUR_ASIDE)
    own_neighbour = ((NEIGHBOUR_ALONG[0], SECOND_FACE_OWN_REACH), NEIGHBOUR_ASIDE)
    # The color step and the wide look share a window, and the side picked last may have been
    # looked at already.
    window, score = _beside_looks(frame_bgr, reading, die.color, profile)

    @functools.cache
    def face_body() -> np.ndarray:  # the face's body color, taken once and only when a side asks it
        return _body_color(face_window(frame_bgr, reading.center, reading.size, reading.angle))

    def color_step(way: tuple[float, float], turn: float) -> tuple[float, float]:
        return _beside_color_step(window(way, turn, FORESHORTENED), face_body())

    free = []
    own_runs_on, own_match = SECOND_FACE_OWN_SIDE
    for (way, strength), turn in zip(edges, FACE_WAY_TURNS):
        if strength < min(run_on, alike_run_on):
            continue
        if _occupied(way, reading.center, reading.size, alike, own_neighbour):
            # Taken by a die of this color: a second face only by SECOND_FACE_OWN_SIDE's bars.
            if strength >= own_runs_on and score(way, turn, SECOND_FACE_NARROW[0]) >= own_match and \
                    not _occupied(way, reading.center, reading.size, unlike, neighbour):
                step, light = color_step(way, turn)
                if step <= alike_step and light >= alike_light:
                    return _found_leaning(die, reading, way, score(way, turn, FORESHORTENED))
            continue
        taken = _occupied(way, reading.center, reading.size, unlike, neighbour)
        step = light = None
        if taken or strength >= alike_run_on:
            step, light = color_step(way, turn)
        # A side where a die of another color lies is free only when the face beside is of this
        # face's color: then it is this die's second face, not that die's.
        if strength >= run_on and (not taken or step <= SECOND_FACE_COLOR):
            free.append((strength, way, turn))
        if step is not None and step <= alike_step and light >= alike_light and \
                (score(way, turn, SECOND_FACE_NARROW[0]) >= alike_match or
                 _scanned_beside(score, way, turn, reading.center, frame_bgr.shape, strength)):
            return _found_leaning(die, reading, way, score(way, turn, FORESHORTENED),
                                  score(way, turn, SECOND_FACE_NARROW[0]) >= SECOND_FACE_SURE)
    if not free:
        return die
    _, way, turn = max(free)
    if score(way, turn, FORESHORTENED) < match_at_least and score(way, turn, SECOND_FACE_NARROW[0]) < SECOND_FACE_NARROW[1]:
        return die
    return _found_leaning(die, reading, way, score(way, turn, FORESHORTENED))


def _found_leaning(die: Die, reading: FaceReading, way: tuple[float, float], wide_match: float,
                   surely: bool = False) -> Die:
    """`die`, read at `reading` and found cocked by its second face beside it along `way`, which
    matched a template foreshortened FORESHORTENED across `wide_match` well: unread, reported
    midway between the two faces when that is WIDE_SECOND_FACE at least, else at the face read
    (see WIDE_SECOND_FACE); `surely` cocked when its second face shows it (SECOND_FACE_SURE)."""
    center = _midway(reading, way) if wide_match >= WIDE_SECOND_FACE else die.center
    return Die(die.color, None, center, die.size, TWO_FACES_SEEN if surely else NULL_SYMBOL_CONFIDENCE)


def _midway(reading: FaceReading, way: tuple[float, float]) -> tuple[float, float]:
    """Midway between the face read (`reading`) and its second face, SECOND_FACE's sides out
    along `way`."""
    x, y = _beside(reading, way, 0.5 * SECOND_FACE[2])
    return float(x), float(y)


def _scanned_beside(score: Callable[..., float], way: tuple[float, float], turn: float,
                    center: tuple[float, float], frame_shape: tuple[int, ...], runs_on: float) -> bool:
    """Whether a narrow second face lies beside the face read at `center` along `way`, on a side
    that does not face the middle of a frame of `frame_shape` (see SECOND_FACE_SCAN): `score` is
    `_beside_looks`'s; `runs_on`, how strongly the die's outline runs on past the face there
    (see SECOND_FACE_SCAN_RUNS_ON)."""
    inward = (np.array([frame_shape[1], frame_shape[0]], np.float64) - 1.0) / 2.0 - np.array(center)
    if float(np.dot(way, inward)) >= SECOND_FACE_SCAN_INWARD * float(np.linalg.norm(inward)):
        return False
    aparts, acrosses = SECOND_FACE_SCAN
    runs_far, eased_match = SECOND_FACE_SCAN_RUNS_ON
    bar = eased_match if runs_on >= runs_far else SECOND_FACE_SCAN_MATCH
    return any(score(way, turn, across, apart) >= bar for apart in aparts for across in acrosses)


def _beside(reading: FaceReading, way: tuple[float, float], apart: float) -> tuple[float, float]:
    """Where a second face beside the face read (`reading`) lies: `apart` sides out along `way`."""
    return reading.center[0] + apart * reading.size * way[0], reading.center[1] + apart * reading.size * way[1]


def _beside_looks(frame_bgr: np.ndarray, reading: FaceReading, color: str, profile: Profile
                  ) -> tuple[Callable[..., np.ndarray], Callable[..., float]]:
    """Looks at the faces beside the face read (`reading`), as `window(way, turn, across,
    apart=None)` and `score(way, turn, across, apart=None)`: the window `apart` sides out along
    `way` (SECOND_FACE's when not given), turned `turn` more than the face's and taking in
    `across` of a side across (FORESHORTENED, or SECOND_FACE_NARROW's share: a cocked die's
    second face is foreshortened), and how well it matches any symbol of `color`'s dice. Each
    window is cut, and matched, once, however `apart` is given (SECOND_FACE_SCAN looks where
    SECOND_FACE does too)."""
    templates = profile.templates_for(color, upright=True)

    @functools.cache
    def cut(way: tuple[float, float], turn: float, across: float, apart: float) -> np.ndarray:
        return face_window(frame_bgr, _beside(reading, way, apart), reading.size, reading.angle + turn, across)

    @functools.cache
    def matched(way: tuple[float, float], turn: float, across: float, apart: float) -> float:
        return _window_score(cut(way, turn, across, apart), templates)

    def window(way: tuple[float, float], turn: float, across: float, apart: float | None = None) -> np.ndarray:
        return cut(way, turn, across, SECOND_FACE[2] if apart is None else apart)

    def score(way: tuple[float, float], turn: float, across: float, apart: float | None = None) -> float:
        return matched(way, turn, across, SECOND_FACE[2] if apart is None else apart)

    return window, score


def _beside_color_step(beside_window: np.ndarray, face_body: np.ndarray) -> tuple[float, float]:
    """How far the body color of a face beside the face read, seen in `beside_window` (where
    `_beside_looks` looks, FORESHORTENED across), lies from the face's own (`face_body`, its
    `_body_color`), as chromaticities (each channel's share) apart: the sum of the three shares'
    differences; and how light it is, as a share of the face's summed channels."""
    beside = _body_color(beside_window)
    step = np.abs(_chromaticity(face_body) - _chromaticity(beside)).sum()
    return float(step), float(beside.sum()) / max(float(face_body.sum()), 1.0)


def _body_color(window: np.ndarray) -> np.ndarray:
    """The median color (BGR) of a face window's inner part: its body's color, which the
    symbol's paint, a minority of it, does not move."""
    return column_medians(inner(window).reshape(-1, 3))


def _chromaticity(color: np.ndarray) -> np.ndarray:
    """Each channel's share of a color (BGR), which a shade does not move (it dims every channel
    alike), as a cocked die's second face lies in."""
    return color / max(float(color.sum()), 1.0)


def _flat_after_all(frame_bgr: np.ndarray, reading: FaceReading, color: str, placed: list[tuple[float, float]],
                    profile: Profile, square_match: float) -> bool:
    """Whether a face read where no blob's shape tells a cocked die (`reading`, on a die of
    `color`: found with no blob, or on a long blob of it and its neighbour) is a flat die's: its
    outline stops at it and it is not foreshortened (see FAINT_STOPPED, LONG_CLEAR_FACE), or,
    whatever its outline does, it fits an upright template far better than a foreshortened one
    (SQUARE_FACE) and matches a symbol `square_match` at least. `placed`: the centers of the
    faces read so far, this one's among them maybe."""
    gain = _foreshortened_gain(frame_bgr, reading, color, profile)
    if gain <= SQUARE_FACE and reading.best_score >= square_match:
        return True
    return gain <= STRETCH_GAIN and \
        _outline_runs_on(frame_bgr, reading, _other_faces(placed, reading)) <= FAINT_STOPPED


def _foreshortened_gain(frame_bgr: np.ndarray, reading: FaceReading, color: str, profile: Profile) -> float:
    """How much better the face read (`reading`, on a die of `color`) fits an upright template
    when read as foreshortened across (FORESHORTENED of a side, either way) than as upright."""
    upright = profile.templates_for(color, upright=True)
    plain = _best_score(frame_bgr, reading.center, reading.size, upright, reading.angle)
    stretched = max(_best_score(frame_bgr, reading.center, reading.size, upright, reading.angle + turn, FORESHORTENED)
                    for turn in (0.0, 90.0))
    return stretched - plain


def _other_faces(centers: list[tuple[float, float]], reading: FaceReading) -> list[tuple[float, float]]:
    """The face centers of `centers` that are other dice' to the face read: those farther than
    TWO_FACES sides from it. A nearer one may be this die's own second face, on the very side
    its outline runs on, or this face itself."""
    return [at for at in centers if math.dist(at, reading.center) > TWO_FACES * reading.size]


def _outline_runs_on(frame_bgr: np.ndarray, reading: FaceReading, others: list[tuple[float, float]],
                     edges: list[tuple[tuple[float, float], float]] | None = None) -> float:
    """How strongly the outline of the die whose face was read runs on past the face (see
    `vision.outline.edges_past_face`), on the side where it does most among those where no other
    die lies (`others`: the centers of the frame's other dice). `edges`: the face's
    `edges_past_face` at PAST_FACE, when the caller measured them already."""
    if edges is None:
        edges = edges_past_face(frame_bgr, reading.center, reading.size, reading.angle, PAST_FACE)
    return _strongest_free(edges, reading.center, reading.size, others, (NEIGHBOUR_ALONG, NEIGHBOUR_ASIDE))


def _runs_past_die(frame_bgr: np.ndarray, die: Die, dice: list[Die], profile: Profile, gain: float) -> bool:
    """Whether a die seen but not read (`die`, one of the frame's `dice`) has an outline that
    runs on past where any die's ends (see RUNS_PAST_DIE), or a little less strongly where
    its color runs on around it too and no die's face lies there (see FACELESS_PAST_DIE).
    `gain` is the frame's exposure gain."""
    edges = edges_past_face(frame_bgr, die.center, die.size, face_angle(frame_bgr, die.center, die.size), PAST_DIE)
    others = [other.center for other in dice if other is not die]
    if _strongest_free(edges, die.center, die.size, others, NEIGHBOUR_PAST_DIE) >= RUNS_PAST_DIE:
        return True
    # Other unread dice may be print themselves (a card's lines make several): only dice read
    # with a symbol say where a side's outline runs into another die.
    read = [other.center for other in dice if other is not die and other.symbol is not None]
    if _strongest_free(edges, die.center, die.size, read, NEIGHBOUR_PAST_DIE) < FACELESS_PAST_DIE:
        return False
    amid = _own_color_around(frame_bgr, die.center, die.size, die.color, profile, gain)
    if amid is None or amid <= FACELESS_AMID:
        return False
    reading = _face_reading(_refine(frame_bgr, die.center, die.size, profile.templates_for(die.color)), die.size)
    return reading.best_score < FACELESS_MATCH and \
        _outline_runs_on(frame_bgr, reading, _other_faces(read, reading)) > FACELESS_RUNS_ON


def _strongest_free(edges: list[tuple[tuple[float, float], float]], center: tuple[float, float], size: float,
                    others: list[tuple[float, float]], neighbour: tuple[tuple[float, float], float]) -> float:
    """The strongest of `edges` (`vision.outline.edges_past_face` of the face `size` wide at
    `center`) on a side where no center of `others` lies within `neighbour` (sides along the way
    out, and at most sides aside of it): how strongly the die's outline runs on, where no other
    die's lies."""
    return max([0.0] + [strength for way, strength in edges if not _occupied(way, center, size, others, neighbour)])


def _occupied(way: tuple[float, float], center: tuple[float, float], size: float, others: list[tuple[float, float]],
              neighbour: tuple[tuple[float, float], float]) -> bool:
    """Whether a center of `others` lies out of the face `size` wide at `center` along `way` (a
    unit vector), within `neighbour`: (nearest, farthest) sides along it and at most sides aside."""
    (near, far), beside = neighbour
    ux, uy = way
    for x, y in others:
        dx, dy = (x - center[0]) / size, (y - center[1]) / size
        if near < dx * ux + dy * uy < far and abs(dy * ux - dx * uy) < beside:
            return True
    return False


def _best_score(frame_bgr: np.ndarray, center: tuple[float, float], size: float,
                templates: list[tuple[str, np.ndarray]], angle: float, across: float = 1.0) -> float:
    """The best match of any template on the face window at `center`, `size` wide, turned by
    `angle` and taking in `across` of a side across (see `vision.symbols.face_window`), not
    recentred (see `_refine`)."""
    return _window_score(face_window(frame_bgr, center, size, angle, across), templates)


def _window_score(window: np.ndarray, templates: list[tuple[str, np.ndarray]]) -> float:
    """The best match of any template on a face window (see `_best_score`)."""
    return max(match(ink_map(window), templates).scores.values())


def _one_per_place(found: list[tuple[float, Die, tuple[float, float]]], usual: float | None = None) -> list[Die]:
    """Two blobs of one die (a die and its shadow, a die split in two) both recentre onto its
    face: keep the reading whose face matched best, drop the others that sit on it. An unread
    face of the same color a little farther off a die, or one read hardly at all, is a second
    face of it (a cocked die shows two, one of them aslant), and then neither reading can be
    trusted: the die is asked of the player, reported midway between the two (surely cocked when
    the face matched better is the unread one, TWO_FACES_UNREAD). Of another color
    it is another die, leaning against this one. A reading near two better ones is of where two
    dice meet, and is dropped too. `found` holds (face match score, die as read, where to report
    it): places are compared where the faces were read, but a die read surely cocked is a
    second face only where it is reported; `usual` is the frame's face size, when its sure dice
    tell it (see TWO_FACES_USUAL)."""
    kept: list[tuple[float, Die, tuple[float, float]]] = []
    for score, die, reported in sorted(found, key=lambda item: -item[0]):
        # A die its blob's shape shows surely cocked (null at 0.5 or more) is its own die unless
        # where it is reported (`_unread_middle`) lies within TWO_FACES of another: the face
        # matched on it may be the one leaning toward a neighbour of its color (stencil scene 252:
        # 0.89 sides from a red die's face, reported 1.09 away; the neighbour was doubted and the
        # cocked die missed). Renderer, 300 scenes per style: errors 246 -> 244 (2 cocked dice
        # found, null surely; 3 dice read surely that were asked, 2 asked that were read surely);
        # with cocked dice drawn as cubes and box C's 70 four-image teachings, unchanged.
        surely_cocked = die.symbol is None and die.confidence >= 0.5
        apart_from = dataclasses.replace(die, center=reported) if surely_cocked else die
        merged = False
        for i, (k_score, k, at) in enumerate(kept):
            distance = _sides_apart(die, k)
            if distance <= SAME_PLACE:
                merged = True
            elif _sides_apart(apart_from, k) <= TWO_FACES and die.color == k.color and \
                    (usual is None or math.dist(die.center, k.center) <= TWO_FACES_USUAL * usual) and \
                    (die.symbol is None or k.symbol is None or min(die.confidence, k.confidence) < NULL_SYMBOL_CONFIDENCE):
                merged = True
                if math.dist(at, k.center) <= ON_ITS_FACE * k.size:
                    # Reported midway between the two faces, not at the one that matched better:
                    # a cocked die's label lies on its top face, and the face matched better is
                    # as often its other one, 0.65-0.75 of a side off (counted missed, and a
                    # phantom). Midway lies 0.25-0.36 sides from either face's middle for a die
                    # leaning 20-45 degrees. With cocked dice drawn as cubes (`--cocked-3d`),
                    # 300 scenes per style: errors 676 -> 660 (8 cocked dice found and asked, 8
                    # phantoms fewer), no die read worse; renderer and box C's 70 four-image
                    # teachings: as many errors. (A die reported off its face stays there,
                    # ON_ITS_FACE.)
                    at = ((at[0] + die.center[0]) / 2.0, (at[1] + die.center[1]) / 2.0)
                # The one matched better unread, it is a cocked die (TWO_FACES_UNREAD); else
                # neither reading can be trusted.
                confidence = max(k.confidence, TWO_FACES_UNREAD) if k.symbol is None else \
                    min(k.confidence, NULL_SYMBOL_CONFIDENCE)
                kept[i] = (k_score, dataclasses.replace(k, confidence=confidence), at)
        if not merged:
            kept.append((score, die, reported))
    kept = [(score, die, at) for score, die, at in kept
            if sum(1 for other_score, other, _ in kept
                   if other_score > score and _sides_apart(die, other) <= BETWEEN) < 2]
    return [die if die.center == at else dataclasses.replace(die, center=at) for _, die, at in kept]


def _sides_apart(die: Die, other: Die) -> float:
    """How far apart two readings are, in the smaller one's sides."""
    return math.hypot(die.center[0] - other.center[0], die.center[1] - other.center[1]) / min(die.size, other.size)
