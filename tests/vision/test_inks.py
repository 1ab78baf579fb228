"""Four-colour decks at read time: telling blue and green inks from red and black ones, and turning them back."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.casts import balanced_to_paper, cast_hue, paper_colour, shows_cast
from vision.evaluation.views import COLOURED_LIGHTS
from vision.inks import (ink_name, inks_agree, inks_contradict, shows_four_colours, survey_inks,
                        two_colour_view)

PAPER = (235, 240, 245)  # BGR: a slightly warm white
INKS = {"black": (25, 25, 25), "red": (40, 30, 200), "blue": (190, 70, 20), "green": (40, 140, 20),
        "dull blue": (150, 95, 70)}  # a blue printed or photographed dull


def _page(inks: list[str], table=(40, 130, 40), cast=(1.0, 1.0, 1.0)) -> tuple[np.ndarray, list[tuple]]:
    """Cards of paper on a green table, each with one index box: a ring of the ink (a glyph) on paper; the whole
    picture under a colour `cast` (per-channel gains). Returns the picture and the index boxes."""
    image = np.full((300, 120 * len(inks) + 20, 3), table, np.uint8)
    boxes = []
    for i, name in enumerate(inks):
        x = 20 + 120 * i
        cv2.rectangle(image, (x, 40), (x + 100, 260), PAPER, -1)
        cv2.circle(image, (x + 30, 80), 14, INKS[name], 6)
        boxes.append((x + 8, 58, x + 52, 102))  # the index box reaches to the card's edge, as real ones nearly do
    image = np.clip(image * np.array(cast), 0, 255).astype(np.uint8)
    return cv2.GaussianBlur(image, (3, 3), 0), boxes


@pytest.mark.parametrize("cast", [(1.0, 1.0, 1.0), (1.15, 1.0, 0.85), (0.85, 1.0, 1.15)],
                         ids=["neutral", "cool light", "warm light"])
def test_each_ink_is_named_against_the_paper_whatever_the_light(cast):
    order = ["black", "red", "blue", "green", "black"]
    image, boxes = _page(order, cast=cast)
    names, paper = survey_inks(image, boxes)
    assert names == order
    # the paper as the light shows it (BGR), not the green table
    assert paper is not None and np.abs(paper - np.clip(np.array(PAPER) * cast, 0, 255)).max() < 12


@pytest.mark.parametrize("cast", [(0.4, 0.4, 0.4), (0.35, 0.4, 0.45)], ids=["dim", "dim and warm"])
def test_inks_of_a_dim_photo_are_named_as_in_a_bright_one(cast):
    # measured against the paper unbalanced, the dim photo's dull blue read black and its glyphs' contrast too low
    order = ["black", "red", "dull blue", "green", "black"]
    image, boxes = _page(order, cast=cast)
    assert survey_inks(image, boxes)[0] == ["black", "red", "blue", "green", "black"]


def test_a_box_without_a_glyph_or_off_the_picture_is_not_measured():
    image, boxes = _page(["black", "red"])
    names, _ = survey_inks(image, boxes + [(30, 150, 70, 200), (-50, -50, -10, -10)])
    assert names == ["black", "red", None, None]
    assert survey_inks(image, [(-50, -50, -10, -10)]) == ([None], None)


def test_ink_names_by_hue_angle_and_black_below_the_chroma_floor():
    assert ink_name(np.array([5.0, -12.0])) == "black"
    assert ink_name(np.array([40.0, 30.0])) == "red"
    assert ink_name(np.array([20.0, -60.0])) == "blue"
    assert ink_name(np.array([-40.0, 35.0])) == "green"
    assert ink_name(np.array([-20.0, -40.0])) == "other"


def test_under_a_lamp_an_ink_near_its_hue_must_be_more_coloured_to_count():
    purple = -47.0  # the purple lamp's hue on the paper (vision.casts.cast_hue)
    bled_black = np.array([26.0, -19.0])  # chroma 32 at -36 degrees: black ink the lamp's colour bled into
    assert ink_name(bled_black) == "blue"
    assert ink_name(bled_black, purple) == "black"
    assert ink_name(np.array([45.0, -60.0]), purple) == "blue"  # chroma 75: a blue diamond stays blue
    assert ink_name(bled_black, 140.0) == "blue"  # a green lamp bleeds green, not blue
    assert ink_name(np.array([-25.0, 20.0]), 140.0) == "black"  # chroma 32 at a green lamp's own hue: its bleed
    assert ink_name(np.array([40.0, 30.0]), purple) == "red"  # red lies far from the lamp's hue


def test_under_a_lamp_an_ink_of_the_opposite_hue_counts_from_less_chroma():
    amber = 80.0  # an amber lamp's hue; its bleed takes yellow's opposite, blue, out of a blue diamond
    dull_blue = np.array([10.0, -17.0])  # chroma 20 at -60 degrees
    assert ink_name(dull_blue) == "black"
    assert ink_name(dull_blue, amber) == "blue"
    assert ink_name(dull_blue * 0.6, amber) == "black"  # chroma 12: black ink's noise, not a dull blue
    assert ink_name(np.array([-15.0, 12.0]), amber) == "black"  # chroma 19 towards green: not opposite amber


def _small_glyphs(inks: list[str], cast: tuple[float, float, float]) -> tuple[np.ndarray, list[tuple]]:
    """Small index-sized eights (~20 px tall, 2 px strokes) on cards of paper under a lamp, saved as a phone saves a
    photo (JPEG quality 90, chroma at half resolution). Returns the decoded picture and the index boxes."""
    image = np.full((120, 40 * len(inks) + 20, 3), (40, 130, 40), np.uint8)
    boxes = []
    for i, name in enumerate(inks):
        x = 10 + 40 * i
        cv2.rectangle(image, (x, 10), (x + 34, 110), PAPER, -1)
        cv2.putText(image, "8", (x + 6, 40), cv2.FONT_HERSHEY_SIMPLEX, 0.8, INKS[name], 2, cv2.LINE_AA)
        boxes.append((x + 3, 15, x + 25, 45))
    image = np.clip(image * np.array(cast), 0, 255).astype(np.uint8)
    return cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1], cv2.IMREAD_COLOR), boxes


def test_a_purple_lamp_s_colour_bled_into_small_black_glyphs_is_not_taken_for_blue_ink():
    """Session 48: JPEG keeps colour at half resolution, so a thin black stroke takes some of the purple paper's
    colour; balanced to the paper it measured blue, and a four-colour deck's spades counted as blue diamonds."""
    image, boxes = _small_glyphs(["black", "blue", "black", "black"], dict(COLOURED_LIGHTS)["purple lamp"])
    paper = paper_colour(image, boxes)
    assert paper is not None and shows_cast(paper)
    balanced = balanced_to_paper(image, paper)
    assert survey_inks(balanced, boxes)[0].count("blue") == 4  # without the lamp's hue: every black eight is blue
    assert survey_inks(balanced, boxes, cast_hue(paper))[0] == ["black", "blue", "black", "black"]


def test_a_deck_is_four_colour_when_enough_of_its_indices_are_blue_or_green():
    assert not shows_four_colours(["black", "red", "red", None])
    assert shows_four_colours(["blue", None])
    assert shows_four_colours(["black", "red", "green", "black", "red"])
    assert not shows_four_colours(["blue"] + ["black"] * 10 + ["red"] * 5)  # one stray blue among 16
    # a blue index the first read could hardly name (a smear of red ink over the paper) is no evidence
    assert not shows_four_colours(["blue", "black", "red"], [0.2, 0.9, 0.95])
    assert shows_four_colours(["blue", "black", "red"], [0.9, 0.9, 0.95])


def test_the_two_colour_read_agrees_when_blue_indices_are_named_diamonds_and_green_ones_clubs():
    names = ["blue", "green", "black", "red"]
    assert inks_agree(names, ["9D", "4C", "KS", "2H"])
    assert not inks_agree(names, ["9H", "4S", "KS", "2H"])  # a two-colour deck seen bluish: its own suits
    assert not inks_agree(["black", "red"], ["KS", "2H"])  # no new ink at all


def test_a_read_contradicts_the_inks_when_its_blue_and_green_indices_are_mostly_named_other_suits():
    names = ["blue", "blue", "green", "black", "red"]
    assert inks_contradict(names, ["9S", "JS", "4C", "KS", "2H"])  # blue diamonds named spades: 1 of 3 agrees
    assert not inks_contradict(names, ["9D", "JD", "4S", "KS", "2H"])  # 2 of 3 agree
    assert not inks_contradict(["black", "red", None], ["KS", "2H", "3C"])  # no blue or green index
    assert inks_contradict(["blue"], ["9H"])  # one blue index, named a heart


def test_blue_turns_red_and_green_turns_dark_grey_while_red_black_and_the_paper_stay():
    image, boxes = _page(["black", "red", "blue", "green"], cast=(0.9, 1.0, 1.08))
    names, paper = survey_inks(image, boxes)
    view = two_colour_view(image, paper)
    after, _ = survey_inks(view, boxes)
    assert after == ["black", "red", "red", "black"]
    ring = [(50, 66), (170, 66), (290, 66), (410, 66)]  # a point on each ring
    b, g, r = (int(v) for v in view[ring[2][1], ring[2][0]])
    assert r > b + 60 and r > g + 60  # the blue ring is red now
    assert int(view[ring[3][1], ring[3][0]].max()) < 90  # the green ring about as dark as black ink
    for x, y in (ring[1], (60, 200)):  # red ink and the paper stay as they were; black ink nearly
        assert (view[y, x] == image[y, x]).all()
    assert np.abs(view[ring[0][1], ring[0][0]].astype(int) - image[ring[0][1], ring[0][0]]).max() <= 3
    assert int(view[5, 5].max()) - int(view[5, 5].min()) < 15  # a green table is green too: it turns grey


def test_faintly_bluish_black_ink_is_made_grey_not_red_nor_thickened():
    # black ink that measures faintly bluish balanced to the paper (chroma ~19: in the recolouring's partial range)
    image, boxes = _page(["black", "blue"])
    tinted = image.copy()
    x, y = 50, 66
    tinted[y - 2:y + 3, x - 2:x + 3] = (70, 45, 32)
    _, paper = survey_inks(tinted, boxes)
    view = two_colour_view(tinted, paper)
    b, g, r = (int(v) for v in view[y, x])
    assert b < int(tinted[y, x, 0]) - 10  # less blue than it was
    assert r - max(b, g) < 10 and abs(int(view[y, x].mean()) - int(tinted[y, x].mean())) < 10


def test_only_the_pixels_around_the_index_boxes_given_are_turned():
    image, boxes = _page(["blue", "blue"])
    _, paper = survey_inks(image, boxes)
    view = two_colour_view(image, paper, boxes[:1])
    first, second = (50, 66), (170, 66)
    assert int(view[first[1], first[0], 2]) > int(view[first[1], first[0], 0]) + 60  # turned red
    assert (view[second[1], second[0]] == image[second[1], second[0]]).all()  # outside every square: as it was
    assert (view[5, 5] == image[5, 5]).all()  # the green table far from the boxes stays green


def test_boxes_off_the_photo_turn_nothing_and_do_not_fail():
    image, boxes = _page(["blue"])
    _, paper = survey_inks(image, boxes)
    height, width = image.shape[:2]
    view = two_colour_view(image, paper, [(width + 50, height + 50, width + 70, height + 80)])
    assert view is not image and (view == image).all()


@pytest.mark.parametrize("seed", range(3))
def test_the_photos_pixels_are_balanced_exactly_as_the_inks_are(seed):
    """The two-colour view balances its pixels through a lookup table and the survey its inks by division: the same
    numbers, or a pixel and an ink of one colour could fall on two sides of the line between blue and black."""
    from vision.inks import _balanced_lab, _balanced_lab_of_bytes

    rng = np.random.default_rng(seed)
    pixels = rng.integers(0, 256, (20000, 3), dtype=np.uint8)
    paper = rng.uniform(0.5, 255.0, 3)
    assert np.array_equal(_balanced_lab_of_bytes(pixels, paper), _balanced_lab(pixels, paper))


def _blue_and_green_by_arctangent(a: np.ndarray, b: np.ndarray, min_chroma: tuple[float, float]):
    """Session 42's rule, the reference: the hue angle by the arctangent, chroma by hypot."""
    from vision.inks import BLUE_ANGLES, GREEN_ANGLES

    chroma, angle = np.hypot(a, b), np.degrees(np.arctan2(b, a))
    blue = (chroma >= min_chroma[0]) & (angle >= BLUE_ANGLES[0]) & (angle <= BLUE_ANGLES[1])
    green = (chroma >= min_chroma[1]) & (angle >= GREEN_ANGLES[0]) & (angle <= GREEN_ANGLES[1])
    return blue, green


@pytest.mark.parametrize("min_chroma", [(15.0, 15.0), (0.0, 0.0), (25.0, 10.0)])
def test_blue_and_green_by_the_sides_of_the_angles_lines_are_those_of_the_arctangent(min_chroma):
    """The view tells blue and green pixels by squared chroma and which side of each angle's line they lie on;
    the same pixels as by the arctangent, on the axes too (180 degrees is green's edge, included)."""
    from vision.inks import _blue_and_green

    rng = np.random.default_rng(43)
    a = rng.uniform(-90, 90, 200_000).astype(np.float32)
    b = rng.uniform(-90, 90, 200_000).astype(np.float32)
    grid_a, grid_b = np.meshgrid(*[np.linspace(-80, 80, 161, dtype=np.float32)] * 2)  # the axes and grey among them
    a, b = np.concatenate([a, grid_a.ravel()]), np.concatenate([b, grid_b.ravel()])
    found, expected = _blue_and_green(a, b, min_chroma), _blue_and_green_by_arctangent(a, b, min_chroma)
    assert np.array_equal(found[0], expected[0]) and np.array_equal(found[1], expected[1])
    assert found[0].any() and found[1].any() and not (found[0] & found[1]).any()


@pytest.mark.parametrize("seed", range(3))
def test_the_view_shared_among_worker_threads_is_one_pass_over_every_pixel(seed):
    """Each pixel is recoloured alone, so sharing the squares' pixels among threads changes no pixel."""
    from vision.inks import _around, _recolour

    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, (180, 260, 3), dtype=np.uint8)  # every colour, blue and green among them
    boxes = [(20, 30, 40, 55), (150, 90, 170, 120), (240, 160, 262, 190)]
    paper = rng.uniform(150, 255, 3)
    in_one_pass = image.copy()
    _recolour(in_one_pass, np.flatnonzero(_around(boxes, image.shape)), paper)
    view = two_colour_view(image, paper, boxes)
    assert (view != image).any() and np.array_equal(view, in_one_pass)


def _ink_and_paper_with_numpy(image, box):
    """Session 43's per-box measure: NumPy's percentile and median on each box's own Lab conversion."""
    from vision.inks import BOX_INSET, INK_SHARE, MIN_INK_CONTRAST, PAPER_MAX_CHROMA, _balanced, _lab

    x1, y1, x2, y2 = box
    dx, dy = BOX_INSET * (x2 - x1), BOX_INSET * (y2 - y1)
    x1, y1 = max(0, int(round(x1 + dx))), max(0, int(round(y1 + dy)))
    x2, y2 = min(image.shape[1], int(round(x2 - dx))), min(image.shape[0], int(round(y2 - dy)))
    if x2 - x1 < 3 or y2 - y1 < 3:
        return None
    pixels = image[y1:y2, x1:x2].reshape(-1, 3)
    lab = _lab(pixels.reshape(-1, 1, 3)).reshape(-1, 3)
    greyish = np.hypot(lab[:, 1], lab[:, 2]) < PAPER_MAX_CHROMA
    if greyish.sum() < 3:
        return None
    dark, light = np.percentile(lab[:, 0], INK_SHARE), np.percentile(lab[:, 0][greyish], 100 - INK_SHARE)
    ink = np.median(pixels[lab[:, 0] <= dark], axis=0)
    paper = np.median(pixels[greyish & (lab[:, 0] >= light)], axis=0)
    contrast = 100.0 - cv2.cvtColor(_balanced(ink, paper).reshape(1, 1, 3), cv2.COLOR_BGR2Lab)[0, 0, 0]
    return None if contrast < MIN_INK_CONTRAST else (ink, paper)


def test_all_boxes_measured_at_once_give_each_boxs_own_measure():
    from vision.inks import _inks_and_papers

    rng = np.random.default_rng(4)
    image, boxes = _page(["black", "red", "blue", "green", "dull blue"], cast=(0.9, 1.0, 1.1))
    image = np.clip(image + rng.normal(0, 6, image.shape), 0, 255).astype(np.uint8)
    boxes = boxes + [(30, 150, 70, 200), (-50, -50, -10, -10), (600, 250, 700, 330)]  # no glyph, off, partly off
    boxes += [tuple(v + rng.normal(0, 4) for v in box) for box in boxes[:5] for _ in range(4)]
    measured = _inks_and_papers(image, boxes)
    assert sum(m is not None for m in measured) >= 5
    for box, got in zip(boxes, measured):
        expected = _ink_and_paper_with_numpy(image, box)
        assert (got is None) == (expected is None)
        if got is not None:
            assert all(np.array_equal(g, e) for g, e in zip(got, expected))


def test_many_pixels_converted_in_wide_rows_give_the_colours_one_by_one():
    from vision.inks import _lab, _lab_of_many

    pixels = np.random.default_rng(5).integers(0, 256, (5000, 3), dtype=np.uint8)  # not a whole number of rows
    assert np.array_equal(_lab_of_many(pixels), _lab(pixels.reshape(-1, 1, 3)).reshape(-1, 3))
    assert np.array_equal(_lab_of_many(pixels[:1]), _lab(pixels[:1].reshape(1, 1, 3)).reshape(1, 3))
