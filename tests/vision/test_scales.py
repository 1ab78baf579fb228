"""Fusing the indices found at several detector input sizes (vision.scales)."""
from __future__ import annotations

from vision.cards import IndexReading
from vision.scales import fuse_sizes


def reading(x: float, y: float, size: float, code: str, probability: float) -> IndexReading:
    return IndexReading((x, y, x + size * 0.7, y + size), code, probability, 0.8)


def test_the_same_index_found_at_two_sizes_is_kept_once_with_its_surer_name():
    at_640 = [reading(100, 100, 60, "KC", 0.55)]
    at_320 = [reading(98, 97, 64, "KH", 0.93)]
    assert fuse_sizes([at_640, at_320]) == at_320


def test_parts_of_a_big_card_are_dropped_but_other_cards_stay():
    big_index = reading(300, 300, 100, "KH", 0.92)
    art_on_its_face = reading(420, 520, 35, "8C", 0.83)   # ~2.4 index sizes away, a third of its size
    small_card_far_away = reading(1500, 300, 35, "2S", 0.9)  # ~12 index sizes away
    same_size_neighbour = reading(420, 300, 80, "QD", 0.7)   # a card beside it (not much smaller)
    fused = fuse_sizes([[art_on_its_face, small_card_far_away, same_size_neighbour], [big_index]])
    assert fused == [big_index, small_card_far_away, same_size_neighbour]


def test_nothing_found_gives_nothing():
    assert fuse_sizes([[], []]) == []
