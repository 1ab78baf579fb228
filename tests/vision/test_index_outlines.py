"""The generator's index outlines (vision.synth.bank._index_hull): the labels every detector learns and is judged by."""
import numpy as np

from vision.synth.bank import _index_hull

BOX = (40, 60, 80, 140)  # x1, y1, x2, y2 of the finder's index box on a 200 x 300 face


def _face() -> np.ndarray:
    face = np.full((300, 200, 4), 255, np.uint8)
    face[70:100, 50:70, :3] = (20, 20, 160)  # a rank glyph (BGR red)
    face[110:130, 52:68, :3] = (20, 20, 160)  # its suit glyph
    return face


def _outline_box(face: np.ndarray) -> tuple[float, float, float, float]:
    hull = _index_hull(face, BOX)
    return hull[:, 0].min(), hull[:, 1].min(), hull[:, 0].max(), hull[:, 1].max()


def test_the_outline_wraps_every_glyph_of_the_index_and_nothing_else():
    assert _outline_box(_face()) == (49.5, 69.5, 69.5, 129.5)


def test_a_speck_of_shade_in_the_box_corner_is_left_out_of_the_outline():
    face = _face()
    face[135:138, 75:78, :3] = 90  # a cut-out photo's shade at the card's own corner (real_phone's 6H)
    assert _outline_box(face) == (49.5, 69.5, 69.5, 129.5)


def test_a_glyph_in_separate_parts_keeps_every_part():
    face = _face()
    face[70:100, 50:70, :3] = 255
    face[70:100, 50:54, :3] = (20, 20, 160)  # a 10's "1"
    face[70:100, 58:70, :3] = (20, 20, 160)  # and its "0"
    assert _outline_box(face) == (49.5, 69.5, 69.5, 129.5)


def test_a_big_pip_just_above_the_box_is_not_taken_for_the_paper():
    face = _face()
    face[30:64, 35:85, :3] = (20, 20, 160)  # a bottom-right index's big pip reaching into the box's top strip
    x1, y1, x2, y2 = _outline_box(face)
    assert (x1, x2, y2) == (39.5, 79.5, 129.5)  # the pip's part inside the box is ink; the paper around is not
    assert y1 == 59.5
