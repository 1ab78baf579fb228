"""`python -m vision evaluate` building blocks on drawn photos with stand-in models (no trained models)."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from vision.crops import CARD_CODES, CLASS_NAMES
from vision.evaluation import datasets
from vision.evaluation.views import STEEP_VIEWS, steep_view, steep_view_homography, steep_view_with_boxes
from vision.evaluation import run as run_module
from vision.evaluation.evaluators import (NO_WARNING, SILENTLY_NAMED_WRONG, WARNED_RIGHT, evaluate_detector_tiles,
                                          evaluate_rank_boxes, evaluate_scenes, evaluate_singles, index_size_bin,
                                          warning_kind)
from vision.reader import CardReader

from conftest import REPO
from drawn_layouts import ColourClassifier, MarkerDetector, deal, jpeg, render


@pytest.fixture
def reader():
    return CardReader(detector=MarkerDetector(), classifier=ColourClassifier())


def write_scene(folder, name, rows, angle, truth_rows=None):
    image, where = render(rows, angle=angle)
    (folder / f"{name}.jpg").write_bytes(jpeg(image))
    truth = {"rows": dict(zip(("front", "middle", "back"), truth_rows or rows)),
             "cards": [{"code": code, "indices": [list(map(float, b)) for b in boxes]} for code, boxes in where.items()]}
    (folder / f"{name}.json").write_text(json.dumps(truth))


ABSENT = "AS"  # a card write_scattered_scene does not draw


def write_scattered_scene(folder, extra_cards=()):
    """One loose (scattered) photo of five drawn cards whose labels add `extra_cards` (label dicts) it does not show."""
    drawn = [str(code) for code in deal(3)[1]]
    assert not {card["code"] for card in extra_cards} & set(drawn)
    write_scene(folder, "0000", [drawn], 30)
    truth = json.loads((folder / "0000.json").read_text())
    truth.update(rows=None, kind="scattered")
    truth["cards"] += list(extra_cards)
    (folder / "0000.json").write_text(json.dumps(truth))
    return truth


def test_scenes_all_right(tmp_path, reader):
    for i, angle in enumerate((0, 100, 250)):
        write_scene(tmp_path, f"{i:04d}", [list(r) for r in deal(i)], angle)
    result = evaluate_scenes(reader, datasets.load_scenes(tmp_path), "drawn")
    assert result.photos == 3
    assert result.numbers["rows exactly right"] == 1.0
    assert result.numbers["rows from the true index boxes (row logic alone)"] == 1.0
    assert result.numbers["card precision"] == 1.0 and result.numbers["card recall"] == 1.0
    assert result.numbers["index mAP50 (full scenes)"] == pytest.approx(1.0)
    assert result.numbers["52-class index mAP50 (whole reader)"] == pytest.approx(1.0)


def test_scene_with_wrong_codes_lowers_the_52_class_map(tmp_path, reader):
    rows = [list(r) for r in deal(2)]
    write_scene(tmp_path, "0000", rows, 0)
    truth = json.loads((tmp_path / "0000.json").read_text())
    truth["cards"][0]["code"] = "XX"  # the reader names it right; the label says otherwise
    (tmp_path / "0000.json").write_text(json.dumps(truth))
    result = evaluate_scenes(reader, datasets.load_scenes(tmp_path), "drawn")
    assert result.numbers["index mAP50 (full scenes)"] == pytest.approx(1.0)  # class-blind
    assert result.numbers["52-class index mAP50 (whole reader)"] < 0.99


def test_scene_with_wrong_order_counts_as_not_exact(tmp_path, reader):
    rows = [list(r) for r in deal(4)]
    truth = [rows[0][::-1], rows[1], rows[2]]
    write_scene(tmp_path, "0000", rows, 0, truth_rows=truth)
    result = evaluate_scenes(reader, datasets.load_scenes(tmp_path), "drawn")
    assert result.numbers["rows exactly right"] == 0.0
    assert result.numbers["rows right ignoring order"] == 1.0
    assert len(result.failures) == 1
    assert result.numbers["layouts read wrong without any warning"] == 1.0  # 13 cards in 3/5/5: nothing to say


def test_a_wrong_layout_the_reader_warns_about_is_not_counted_as_silent(tmp_path, reader):
    rows = [list(r) for r in deal(6)]
    write_scene(tmp_path, "0000", [rows[0], rows[1], rows[2][:-1]], 0, truth_rows=rows)  # a back card not in the photo
    write_scene(tmp_path, "0001", [list(r) for r in deal(7)], 0)
    result = evaluate_scenes(reader, datasets.load_scenes(tmp_path), "drawn")
    assert result.numbers["rows exactly right"] == 0.5
    assert result.numbers["layouts read wrong without any warning"] == 0.0  # "expected 13 cards, found 12"


def test_photos_without_rows_are_read_loose_and_scored_by_their_visible_cards(tmp_path, reader):
    write_scattered_scene(tmp_path, [{"code": ABSENT, "indices": []}])  # hidden: not expected
    write_scene(tmp_path, "0001", [list(r) for r in deal(5)], 0)
    result = evaluate_scenes(reader, datasets.load_scenes(tmp_path), "drawn mixed")
    assert result.numbers["card recall"] == 1.0 and result.numbers["card precision"] == 1.0
    assert result.numbers["rows exactly right"] == 1.0  # over the one layout only
    assert result.numbers["card recall, scattered photos (5 cards)"] == 1.0
    assert result.numbers["card recall, rows photos (13 cards)"] == 1.0
    assert result.numbers["photos read wrong without any warning (loose cards)"] == 0.0


def test_a_loose_photo_read_wrong_silently_is_marked_and_listed_in_full(tmp_path, reader):
    write_scattered_scene(tmp_path, [{"code": ABSENT, "indices": [[2.0, 2.0, 12.0, 20.0]]}])  # "visible", not drawn
    result = evaluate_scenes(reader, datasets.load_scenes(tmp_path), "drawn loose")
    assert result.numbers["photos read wrong without any warning (loose cards)"] == 1.0
    assert result.silent_failures == result.failures and result.failures[0].endswith(NO_WARNING)
    result.failures = [f"{n:04d}.jpg: warned" for n in range(9)] + result.failures * 2  # past the first eight
    report = "\n".join(run_module._section(result, None))
    assert "Read wrong without any warning (2):" in report
    assert report.count(result.silent_failures[0]) == 2  # listed in full although not among the first eight
    assert "0008.jpg: warned" not in report


def test_illegible_indices_are_ignored_by_the_legible_figures_only(tmp_path, reader):
    # two labelled cards the photo does not show: one legible (a real miss), one with its suit covered (optional)
    truth = write_scattered_scene(tmp_path, [{"code": "ZZ", "indices": [[900.0, 900.0, 920.0, 940.0]]},
                                             {"code": "YY", "indices": [[950.0, 900.0, 970.0, 940.0]]}])
    for card in truth["cards"]:
        card["suit_visible"] = [0.1 if card["code"] == "YY" else 1.0] * len(card["indices"])
        card["contrast_kept"] = [0.9] * len(card["indices"])
    (tmp_path / "0000.json").write_text(json.dumps(truth))
    scene, = datasets.load_scenes(tmp_path)
    assert [flags for (code, _), flags in zip(scene.card_indices, scene.legible) if code == "YY"] == [[False]]
    result = evaluate_scenes(reader, [scene], "drawn")
    assert result.numbers["card recall"] == pytest.approx(5 / 7)
    assert result.numbers["card recall (legible indices)"] == pytest.approx(5 / 6)
    assert result.numbers["card precision (legible indices)"] == 1.0
    assert (result.numbers["52-class index mAP50 (whole reader, legible indices)"]
            > result.numbers["52-class index mAP50 (whole reader)"])


def test_index_legibility_needs_the_suit_uncovered_and_the_ink_not_washed_out():
    assert datasets.index_legible(1.0, 1.0)
    assert not datasets.index_legible(datasets.SUIT_HIDDEN_BELOW - 0.01, 1.0)
    assert not datasets.index_legible(1.0, datasets.CONTRAST_LOST_BELOW - 0.01)


def test_sets_without_legibility_labels_report_no_legible_figures(tmp_path, reader):
    write_scene(tmp_path, "0000", [list(r) for r in deal(2)], 0)
    scene, = datasets.load_scenes(tmp_path)
    assert scene.legible is None and scene.legible_indices() == scene.card_indices
    assert "card recall (legible indices)" not in evaluate_scenes(reader, [scene], "drawn").numbers


def test_singles_top1(tmp_path, reader):
    photos = []
    for code in ("AS", "7D", "TC"):
        image, _ = render([[code]], scale=1.5, size=(800, 600))
        path = tmp_path / f"{code}.jpg"
        path.write_bytes(jpeg(image))
        photos.append((path, code))
    photos.append((photos[0][0], "KS"))  # a wrong label: must count as a miss
    result = evaluate_singles(reader, photos, "drawn singles")
    assert result.numbers["top-1"] == pytest.approx(3 / 4)
    assert result.confusion[("KS", "AS")] == 1
    # a card named (another code) without any warning is what costs money: marked and counted
    assert result.failures == ["AS.jpg: KS read as AS (no warning)"]
    assert result.numbers[SILENTLY_NAMED_WRONG] == pytest.approx(1 / 4)


def test_singles_read_in_each_view(tmp_path, reader):
    image, _ = render([["9H"]], scale=1.5, size=(800, 600))
    path = tmp_path / "9H.jpg"
    path.write_bytes(jpeg(image))
    views = (("as it is", lambda p: p.read_bytes()), ("blank", lambda p: jpeg(np.full((600, 800, 3), 40, np.uint8))))
    result = evaluate_singles(reader, [(path, "9H")], "views", views=views)
    assert result.photos == 2 and result.numbers["top-1"] == pytest.approx(1 / 2)
    assert result.failures == ["9H.jpg (blank): 9H read as none"]


def test_steep_views_foreshorten_and_turn():
    image = np.zeros((600, 800, 3), np.uint8)
    image[:20, 590:610] = 255  # a white block on the far (top) edge
    view = steep_view(image, 30.0)
    assert view.shape == (300, 800, 3)  # height x sin(30°)
    # the far edge is narrowed to 0.75 of its width around the middle: x 600 -> 100 + 0.75 x 600 = 550
    assert view[3, 550].min() > 200 and view[3, 600].max() < 50
    turned = steep_view(image, 90.0, quarter_turns=1)  # counter-clockwise: the top-right block goes top-left
    assert turned.shape == (800, 600, 3) and turned[200, 5].min() > 200
    assert np.array_equal(steep_view(image, 90.0), image)
    def sharpest_step(picture):
        return np.abs(np.diff(picture.astype(int), axis=1)).max()
    assert sharpest_step(steep_view(image, 45.0, blur=2.0)) < 0.5 * sharpest_step(steep_view(image, 45.0))
    with pytest.raises(ValueError, match="elevation"):
        steep_view(image, 5.0)


def two_card_photo(tmp_path):
    """A drawn photo of QH and 9C, and a function giving each card's labelled whole-card box (its indices + 8 px)."""
    image, where = render([["QH", "9C"]], size=(960, 540), scale=1.2)
    path = tmp_path / "two.jpg"
    path.write_bytes(jpeg(image))

    def card_box(code):
        boxes = np.array(where[code])
        return [float(boxes[:, 0].min() - 8), float(boxes[:, 1].min() - 8), float(boxes[:, 2].max() + 8),
                float(boxes[:, 3].max() + 8)]

    return path, card_box


@pytest.mark.parametrize("elevation, turns", [(90.0, 0), (30.0, 0), (45.0, 1), (35.0, 2), (60.0, 3)])
def test_steep_view_homography_maps_a_point_to_where_the_view_shows_it(elevation, turns):
    image = np.zeros((600, 800, 3), np.uint8)
    image[395:405, 195:205] = 255  # a white dot centred at (200, 400)
    view = steep_view(image, elevation, quarter_turns=turns)
    x, y = cv2.perspectiveTransform(np.float32([[[200, 400]]]), steep_view_homography(800, 600, elevation, turns))[0, 0]
    ys, xs = np.nonzero(view[:, :, 0] > 100)
    assert abs(xs.mean() - x) < 2 and abs(ys.mean() - y) < 2


def test_rank_boxes_in_steep_views_move_their_labels_with_the_view(tmp_path, reader):
    path, card_box = two_card_photo(tmp_path)
    labels = [{"rank": "Q", "box": card_box("QH")}, {"rank": "9", "box": card_box("9C")}]
    _, moved = steep_view_with_boxes(path, labels, 45.0, 2)
    assert moved[0]["rank"] == "Q" and moved[0]["box"] != labels[0]["box"]
    views = tuple((name, lambda p, l, e=e, t=t: steep_view_with_boxes(p, l, e, t)) for name, e, t, _ in STEEP_VIEWS[:2])
    result = evaluate_rank_boxes(reader, [(path, labels)], "drawn multi, steep", views=views)
    assert result.photos == 2
    assert result.numbers["rank precision"] == 1.0 and result.numbers["rank recall"] == 1.0
    assert result.numbers[f"rank recall, {STEEP_VIEWS[1][0]}"] == 1.0
    # the labels left where they were in the photo taken top-down match nothing in an upside-down view
    unmoved = (("upside down", lambda p, l: (steep_view_with_boxes(p, l, 90.0, 2)[0], l)),)
    result = evaluate_rank_boxes(reader, [(path, labels)], "drawn multi, labels not moved", views=unmoved)
    assert result.numbers["rank recall"] < 1.0


def test_rank_boxes(tmp_path, reader):
    path, card_box = two_card_photo(tmp_path)
    labels = [{"rank": "Q", "box": card_box("QH")}, {"rank": "9", "box": card_box("9C")},
              {"rank": "A", "box": [0, 0, 60, 60]}]  # a labelled card the reader cannot see
    result = evaluate_rank_boxes(reader, [(path, labels)], "drawn multi")
    assert result.numbers["rank precision"] == 1.0
    assert result.numbers["rank recall"] == pytest.approx(2 / 3)
    assert result.numbers["photos all correct"] == 0.0
    assert result.confusion[("A", "missed")] == 1


def test_detector_tiles_map(tmp_path, reader):
    images, labels = tmp_path / "detect" / "images" / "val", tmp_path / "detect" / "labels" / "val"
    images.mkdir(parents=True)
    labels.mkdir(parents=True)
    for i in range(3):
        image, where = render([list(deal(i)[0])], size=(320, 320), scale=0.5)
        cv2.imwrite(str(images / f"{i:06d}.jpg"), image)
        lines = [f"0 {(b[0] + b[2]) / 640} {(b[1] + b[3]) / 640} {(b[2] - b[0]) / 320} {(b[3] - b[1]) / 320}"
                 for boxes in where.values() for b in boxes]
        (labels / f"{i:06d}.txt").write_text("\n".join(lines))
    (tmp_path / "detect" / "data.yaml").write_text(f"path: {tmp_path / 'detect'}\ntrain: images/train\n"
                                                   "val: images/val\nnames:\n  0: index\n")
    tiles = datasets.detector_val_tiles(tmp_path / "detect" / "data.yaml")
    assert len(tiles) == 3 and tiles[0][1] == labels / "000000.txt"
    result = evaluate_detector_tiles(reader, tiles)
    assert result.numbers["boxes"] == 18
    assert result.numbers["mAP50"] > 0.95
    assert result.numbers["recall at score 0.25, index box short side >= 10 px (18 boxes)"] == 1.0


def test_subsample_is_even_and_deterministic():
    assert datasets.subsample(list(range(10)), 3) == [0, 4, 9]  # linspace 0, 4.5, 9 → 0, 4 (banker's), 9
    assert datasets.subsample(list(range(3)), 10) == [0, 1, 2]


def test_evaluate_without_models_exits_3(tmp_path):
    result = subprocess.run([sys.executable, "-m", "vision", "evaluate", "--models", str(tmp_path),
                             "--out", str(tmp_path / "out")], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 3
    assert "model file not found" in result.stderr


def test_evaluate_refuses_an_unknown_set_name(tmp_path):
    result = subprocess.run([sys.executable, "-m", "vision", "evaluate", "--sets", "photos,scenes",
                             "--out", str(tmp_path / "out")], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "unknown set(s) scenes" in result.stderr and "synthetic" in result.stderr
    assert not (tmp_path / "out").exists()


def test_singles_report_corrected_and_original_labels(tmp_path, reader):
    image, _ = render([["AS"]], scale=1.5, size=(800, 600))
    path = tmp_path / "AS.jpg"
    path.write_bytes(jpeg(image))
    # the photo shows AS but was labelled KS; after the correction the read counts as right
    result = evaluate_singles(reader, [(path, "AS")], "corrected", labelled={path: "KS"})
    assert result.numbers["top-1"] == 1.0
    assert result.numbers["top-1 as labelled (1 label(s) corrected)"] == 0.0
    assert any("labelled KS" in failure for failure in result.failures)


def test_label_corrections_only_apply_to_the_named_label():
    from vision.evaluation.datasets import corrected_code
    assert corrected_code("phone-singles/JH.jpg", "JH") == "JS"
    assert corrected_code("phone-singles/JH.jpg", "QH") == "QH"  # a relabelled set is taken as it is
    assert corrected_code("phone-singles/JS.jpg", "JS") == "JS"


def test_edje_label_corrections_change_only_the_named_rank_of_the_named_photo(tmp_path):
    from vision.evaluation.datasets import edje_labels

    (tmp_path / "edje-multi").mkdir()
    boxes = {"edje-multi/IMG_2396.JPG": [{"rank": "9", "box": [1, 2, 3, 4]}, {"rank": "K", "box": [5, 6, 7, 8]}],
             "edje-multi/other.jpg": [{"rank": "9", "box": [1, 2, 3, 4]}]}
    (tmp_path / "edje-multi" / "labels.json").write_text(json.dumps(boxes))
    labels = edje_labels(tmp_path)
    assert labels["edje-multi/IMG_2396.JPG"] == [{"rank": "T", "box": [1, 2, 3, 4]}, {"rank": "K", "box": [5, 6, 7, 8]}]
    assert labels["edje-multi/other.jpg"] == boxes["edje-multi/other.jpg"]


def test_blurred_views_soften_edges_in_proportion_to_the_photo_and_keep_the_labels(tmp_path):
    from vision.evaluation.views import BLUR_VIEWS, blurred, blurred_view_with_boxes

    def sharpest_step(picture):
        return np.abs(np.diff(picture.astype(int), axis=1)).max()

    for size in ((600, 800), (1500, 2000)):
        image = np.zeros((*size, 3), np.uint8)
        image[:, size[1] // 2:] = 255
        for _, defocus, motion in BLUR_VIEWS:
            view = blurred(image, defocus, motion)
            assert view.shape == image.shape and sharpest_step(view) < 0.5 * sharpest_step(image)
        # the same share of the long side: the edge's ramp is about as wide, relative to the picture, at both sizes
        ramp = (blurred(image, 0.004, 0.0)[size[0] // 2, :, 0] % 255 != 0).sum() / size[1]
        assert 0.01 < ramp < 0.03
    path, card_box = two_card_photo(tmp_path)
    labels = [{"rank": "Q", "box": card_box("QH")}]
    data, same = blurred_view_with_boxes(path, labels, 0.004, 0.0)
    assert same == labels and cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR).shape == (540, 960, 3)


def test_motion_blur_smears_a_dot_along_its_angle():
    from vision.degrade import motion_blur

    image = np.zeros((61, 61), np.float32)
    image[30, 30] = 1.0
    for angle, (dx, dy) in ((0.0, (1, 0)), (90.0, (0, 1))):
        smear = motion_blur(image, 11.0, angle)
        ys, xs = np.nonzero(smear > 1e-4)
        along = (xs - 30) * dx + (ys - 30) * dy
        across = (xs - 30) * dy - (ys - 30) * dx
        assert along.max() - along.min() >= 9 and np.abs(across).max() <= 1
        assert smear.sum() == pytest.approx(1.0, rel=1e-3)
    assert motion_blur(image, 1.0, 0.0) is image


def test_unsteady_blur_is_out_of_focus_or_moved_within_its_ranges():
    from vision.degrade import unsteady_blur

    image = np.zeros((61, 61), np.float32)
    image[30, 30] = 1.0
    kinds = set()
    for seed in range(20):
        smear = unsteady_blur(image, np.random.default_rng(seed), (1.0, 2.0), (9.0, 12.0))
        assert smear.shape == image.shape and smear.sum() == pytest.approx(1.0, rel=1e-3)
        if np.allclose(smear, np.rot90(smear), atol=1e-6):  # a Gaussian spot looks the same turned a quarter
            kinds.add("out of focus")
            assert 1 / (2 * np.pi * 2.0**2) * 0.9 <= smear.max() <= 1 / (2 * np.pi * 1.0**2) * 1.1  # sigma 1-2
        else:
            kinds.add("moved")
            ys, xs = np.nonzero(smear > 1e-3)
            assert np.hypot(xs.max() - xs.min(), ys.max() - ys.min()) >= 8  # a line 9-12 px long
    assert kinds == {"out of focus", "moved"}


def test_rank_boxes_count_the_photos_warned_blurred(tmp_path, reader):
    path, card_box = two_card_photo(tmp_path)
    labels = [{"rank": "Q", "box": card_box("QH")}, {"rank": "9", "box": card_box("9C")},
              {"rank": "A", "box": [0, 0, 60, 60]}]  # missed, so the photo is read wrong

    class WarnsBlurred:
        def read(self, data, loose=False):
            read = reader.read(data, loose=loose)
            read.warnings.append("photo looks blurred (index sharpness 9.0, sharp photos 20 or more): retake")
            return read

    views = (("as taken", lambda p, l: (p.read_bytes(), l)),)
    quiet = evaluate_rank_boxes(reader, [(path, labels)], "drawn multi", views=views)
    warned = evaluate_rank_boxes(WarnsBlurred(), [(path, labels)], "drawn multi", views=views)
    assert quiet.numbers["photos warned blurred"] == 0.0
    assert quiet.numbers["photos read wrong without any warning"] == 1.0
    assert warned.numbers["photos read wrong without any warning, as taken"] == 0.0
    assert warned.numbers["photos warned blurred, as taken"] == 1.0
    assert warned.numbers["photos read wrong, share warned blurred"] == 1.0


class GivesSecondReads:
    """The drawn reader whose reads numbered in `tried` (from 0) say they were given a two-colour read, and those in
    `kept` that they kept it."""

    def __init__(self, reader, tried: set[int], kept: set[int]):
        self.reader, self.tried, self.kept, self.reads = reader, tried, kept, 0
        self.detector, self.detection_sizes = reader.detector, reader.detection_sizes
        self.min_card_confidence = reader.min_card_confidence

    def read(self, data, loose=False):
        read = self.reader.read(data, loose=loose)
        if self.reads in self.tried:
            read.timings_ms["two-colour read"] = 5.0
        if self.reads in self.kept:
            read.kept_reads.append("two-colour read")
        self.reads += 1
        return read


def test_each_set_counts_the_photos_given_a_second_read_and_those_that_kept_it(tmp_path, reader):
    for i in range(4):
        write_scene(tmp_path, f"{i:04d}", [list(r) for r in deal(i)], 0)
    scenes = evaluate_scenes(GivesSecondReads(reader, {0, 2}, {2}), datasets.load_scenes(tmp_path), "drawn")
    assert scenes.numbers["photos given a two-colour read"] == pytest.approx(2 / 4)
    assert scenes.numbers["photos whose two-colour read was kept"] == pytest.approx(1 / 4)
    assert not any("sharpened" in name or "stretched" in name for name in scenes.numbers)  # none was given one
    singles = evaluate_singles(GivesSecondReads(reader, {1}, set()), [(tmp_path / "0000.jpg", "AS")] * 2, "drawn")
    assert singles.numbers["photos given a two-colour read"] == pytest.approx(1 / 2)
    assert singles.numbers["photos whose two-colour read was kept"] == 0.0
    plain = evaluate_scenes(reader, datasets.load_scenes(tmp_path), "drawn")
    assert not any(name.startswith("photos given a") for name in plain.numbers)


def test_lit_views_change_the_light_as_named_and_keep_the_labels(tmp_path):
    from vision.evaluation.views import LIGHT_VIEWS, lit, lit_view_with_boxes

    image = np.full((300, 400, 3), 128, np.uint8)
    views = {light: lit(image, light).astype(int) for light in LIGHT_VIEWS}
    assert all(view.shape == image.shape for view in views.values())
    assert views["dim and noisy"].std() > 5 and np.array_equal(lit(image, "dim and noisy"), views["dim and noisy"])
    warm = views["warm lamp"].mean(axis=(0, 1))
    assert warm[2] > 128 > warm[0]  # red up, blue down (BGR)
    shadow = views["hand shadow"][:, :, 0]
    assert shadow[:20, :20].mean() > 120 > 70 > shadow[-20:, -20:].mean()  # lit before the edge, dark beyond it
    glare = views["glare spot"][:, :, 0]
    assert glare[135, 160] == 255 and glare[0, 399] < 140  # washed out at the spot, nearly untouched far from it
    with pytest.raises(ValueError, match="unknown light"):
        lit(image, "disco")
    path, card_box = two_card_photo(tmp_path)
    labels = [{"rank": "Q", "box": card_box("QH")}]
    data, same = lit_view_with_boxes(path, labels, "glare spot")
    assert same == labels and cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR).shape == (540, 960, 3)


def test_cards_not_read_are_counted_by_the_size_of_their_index(tmp_path, reader):
    write_scattered_scene(tmp_path, [{"code": ABSENT, "indices": [[10.0, 10.0, 40.0, 30.0]]}])  # labelled, not drawn
    rows = [list(r) for r in deal(6)]
    write_scene(tmp_path, "0001", [rows[0], rows[1], rows[2][:-1]], 0, truth_rows=rows)  # a back card not in the photo
    result = evaluate_scenes(reader, datasets.load_scenes(tmp_path), "drawn mixed")
    assert result.missed_by_size == {("scattered", "12–24 px"): 1, ("rows", "no visible index"): 1}
    lines = run_module._section(result, None)
    assert ("Cards not read (missed, or read as another card), by the short side of their largest visible index "
            "(photo px): "
            "rows no visible index ×1; scattered 12–24 px ×1") in lines


def test_each_set_counts_its_labelled_indices_by_what_the_reader_made_of_them(tmp_path, reader):
    truth = write_scattered_scene(tmp_path, [{"code": ABSENT, "indices": [[10.0, 10.0, 40.0, 30.0]]}])
    drawn_indices = sum(len(card["indices"]) for card in truth["cards"]) - 1
    result = evaluate_scenes(reader, datasets.load_scenes(tmp_path), "drawn scattered")
    assert result.index_outcomes == {("scattered", "named right surely"): drawn_indices, ("scattered", "no box"): 1}
    # the absent card's index is a miss no ranking can mend; the drawn ones are all named right
    assert result.numbers["52-class index mAP50 (whole reader, right readings ranked first)"] == pytest.approx(
        result.numbers["52-class index mAP50 (whole reader)"])
    assert result.numbers["52-class index mAP50 (whole reader)"] < 1.0
    lines = run_module._section(result, None)
    assert "| photo kind | indices | named right surely | named right, unsure | named another code | box off (IoU " \
           "0.1–0.5) | no box |" in lines
    assert f"| all | {drawn_indices + 1} | {drawn_indices} | 0 | 0 | 0 | 1 |" in lines
    # the absent card's class is the one with the lowest AP50 (never found), named first in the report
    assert result.lowest_ap50[0] == (ABSENT, 0.0, 1) and all(ap == pytest.approx(1.0) for _, ap, _ in
                                                             result.lowest_ap50[1:])
    assert any(line.startswith(f"Lowest 52-class index AP50 as read (class, AP50, labelled indices): {ABSENT} 0.000 (1)")
               for line in lines)


class LeftmostMissed(MarkerDetector):
    """Finds every marker but the leftmost one."""

    def detect(self, image, long_side, *, score_threshold=None):
        boxes, scores = super().detect(image, long_side, score_threshold=score_threshold)
        keep = np.argsort(boxes[:, 0])[1:]
        return boxes[keep], scores[keep]


class OneCardMisnamed(ColourClassifier):
    """Names every index right but one card's, which it names the next code (AS would be AH)."""

    def __init__(self, code):
        super().__init__()
        self.code = code

    def probabilities(self, image, boxes):
        out = super().probabilities(image, boxes)
        wrong = CLASS_NAMES.index(self.code)
        out[out[:, wrong] == out.max(axis=1), (wrong + 1) % len(CARD_CODES)] = 1.0
        return out


PERFECT_CLASSIFIER = "52-class index mAP50 (whole reader, a perfect classifier on its boxes)"
PERFECT_DETECTOR = "52-class index mAP50 (whole reader, every index it missed found exactly)"


def test_a_perfect_detector_finds_the_indices_the_reader_missed_and_its_classifier_names_them(tmp_path):
    write_scattered_scene(tmp_path)
    reader = CardReader(detector=LeftmostMissed(), classifier=ColourClassifier())
    result = evaluate_scenes(reader, datasets.load_scenes(tmp_path), "drawn scattered")
    assert result.numbers["52-class index mAP50 (whole reader)"] < 1.0  # the leftmost index is never found
    assert result.numbers[PERFECT_DETECTOR] == pytest.approx(1.0)  # found at its label box, it is named right
    assert result.numbers[PERFECT_CLASSIFIER] == pytest.approx(result.numbers["52-class index mAP50 (whole reader)"])


def test_a_perfect_classifier_names_right_what_the_reader_misnamed(tmp_path):
    truth = write_scattered_scene(tmp_path)
    reader = CardReader(detector=MarkerDetector(), classifier=OneCardMisnamed(truth["cards"][0]["code"]))
    result = evaluate_scenes(reader, datasets.load_scenes(tmp_path), "drawn scattered")
    assert result.numbers["52-class index mAP50 (whole reader)"] < 1.0
    assert result.numbers[PERFECT_CLASSIFIER] == pytest.approx(1.0)
    assert result.numbers[PERFECT_DETECTOR] == pytest.approx(result.numbers["52-class index mAP50 (whole reader)"])


@pytest.mark.parametrize("boxes, label", [([], "no visible index"), ([[0, 0, 30, 11.9]], "under 12 px"),
                                          ([[0, 0, 8, 40], [0, 0, 30, 20]], "12–24 px"),
                                          ([[0, 0, 100, 48]], "48 px and over")])
def test_index_size_bin_takes_the_largest_index_by_its_short_side(boxes, label):
    assert index_size_bin(boxes) == label


def test_the_evaluation_reads_with_the_detector_score_threshold_asked_for(real_models):
    from vision.looks import DETECTOR_SCORE_THRESHOLD

    parser = argparse.ArgumentParser()
    run_module.add_arguments(parser)
    default = run_module.make_reader(parser.parse_args(["--models", str(real_models)]))
    assert default.detector.score_threshold == DETECTOR_SCORE_THRESHOLD
    raised = run_module.make_reader(parser.parse_args(["--models", str(real_models),
                                                       "--detector-score-threshold", "0.3"]))
    assert raised.detector.score_threshold == 0.3


def test_the_evaluation_reads_with_the_scale_vote_asked_for(real_models):
    parser = argparse.ArgumentParser()
    run_module.add_arguments(parser)
    assert run_module.make_reader(parser.parse_args(["--models", str(real_models)])).classifier.scale_vote == ()
    voting = run_module.make_reader(parser.parse_args(["--models", str(real_models), "--scale-vote", "0.85,1.2"]))
    assert voting.classifier.scale_vote == (0.85, 1.2)
    for wrong in ("0.85,big", "0.1"):
        with pytest.raises(argparse.ArgumentTypeError):
            run_module.scale_factors(wrong)


def test_the_newest_dataset_of_a_kind_is_found_by_its_prefix(tmp_path):
    for name in ("synth-v4", "synth-v12", "synth-real-v1", "synth-real-v3", "synth-real-v9"):
        (tmp_path / name / "photos" / "val").mkdir(parents=True)
    for name in ("synth-v4", "synth-v12", "synth-real-v1", "synth-real-v3"):  # real-v9 is still being made
        (tmp_path / name / "photos" / "val" / "0000.json").write_text("{}")
    needs = ("photos/val/*.json",)
    assert datasets.newest_synth_root(tmp_path, needs) == tmp_path / "synth-v12"
    assert datasets.newest_synth_root(tmp_path, needs, prefix="synth-real-v") == tmp_path / "synth-real-v3"


def _evaluation_report(tmp_path, reader, monkeypatch, *argv: str) -> str:
    """report.md of `vision evaluate ARGV` run with `reader` over stand-in model files in tmp_path."""
    monkeypatch.setattr(run_module, "make_reader", lambda args: reader)
    for name in ("cards.onnx", "cards_cls.onnx"):  # the report names the model files it was given
        (tmp_path / name).write_bytes(b"stand-in")
    parser = argparse.ArgumentParser()
    run_module.add_arguments(parser)
    out = tmp_path / "out"
    assert run_module.run_evaluation(parser.parse_args([*argv, "--out", str(out), "--models", str(tmp_path)])) == 0
    return (out / "report.md").read_text()


def test_the_real_deck_set_is_reported_from_its_own_folder(tmp_path, reader, monkeypatch):
    folder = tmp_path / "real" / "photos" / "val"
    folder.mkdir(parents=True)
    write_scene(folder, "0000", [["2S", "3H", "4D"], ["5C", "6S", "7H", "8D", "9C"], ["TS", "JH", "QD", "KC", "AS"]], 0)
    report = _evaluation_report(tmp_path, reader, monkeypatch, "--sets", "real-deck", "--real-deck-photos", str(folder))
    assert f"photos of every kind of a real deck ({folder}) | rows exactly right | 1.000" in report
    assert "synthetic val photos of every kind" not in report  # only the set asked for


def test_the_four_colour_set_is_found_by_its_own_prefix_and_not_taken_for_the_photos_set(tmp_path, reader, monkeypatch):
    for name in ("synth-v5", "synth-4c-v1"):
        folder = tmp_path / name / "photos" / "val"
        folder.mkdir(parents=True)
        rows = [["2S", "3H", "4D"], ["5C", "6S", "7H", "8D", "9C"], ["TS", "JH", "QD", "KC", "AS"]]
        write_scene(folder, "0000", rows, 0)
    needs = ("photos/val/*.json",)
    assert datasets.newest_synth_root(tmp_path, needs) == tmp_path / "synth-v5"
    assert datasets.newest_synth_root(tmp_path, needs, prefix="synth-4c-v") == tmp_path / "synth-4c-v1"
    folder = tmp_path / "synth-4c-v1" / "photos" / "val"
    report = _evaluation_report(tmp_path, reader, monkeypatch, "--sets", "four-colour", "--four-colour-photos",
                                str(folder))
    assert f"photos of every kind of the val decks in four colours ({folder}) | rows exactly right | 1.000" in report
    assert "synthetic val photos of every kind" not in report


def test_the_moved_photos_set_reads_every_second_photo_smeared_at_stepping_angles(tmp_path, reader, monkeypatch):
    from vision.evaluation import views

    folder = tmp_path / "synth-v9" / "photos" / "val"
    folder.mkdir(parents=True)
    for i in range(4):
        write_scene(folder, f"{i:04d}", [list(r) for r in deal(i)], 0)
    smeared = []
    real_moved = views.moved_photo_bytes
    monkeypatch.setattr(run_module, "moved_photo_bytes",
                        lambda path, order: smeared.append((path.name, order)) or real_moved(path, order))
    report = _evaluation_report(tmp_path, reader, monkeypatch, "--sets", "photos-moved", "--photos", str(folder))
    assert smeared == [("0000.jpg", 0), ("0002.jpg", 1)]
    assert "every second one moved 1.5% of its side" in report and "| card recall |" in report
    # the view smears along the stepping angle and keeps the photo's size
    image = cv2.imread(str(folder / "0001.jpg"))
    moved = cv2.imdecode(np.frombuffer(real_moved(folder / "0001.jpg", 0), np.uint8), cv2.IMREAD_COLOR)
    assert moved.shape == image.shape

    def along_x_over_along_y(picture):
        picture = picture.astype(float)
        return np.abs(np.diff(picture, axis=1)).mean() / np.abs(np.diff(picture, axis=0)).mean()

    # order 0 is smeared at 0 degrees: the changes along x flatten far more than those along y
    assert along_x_over_along_y(moved) < 0.8 * along_x_over_along_y(image)


def test_a_card_named_wrongly_with_its_code_as_the_second_choice_counts_only_in_the_multi_label_map(tmp_path):
    """ultralytics' validation counts every class a box may be (multi-label): a box named QD whose second choice is
    its true QH is a miss as read, and a hit at a lower score among the box's other codes."""
    from vision.evaluation.evaluators import MULTI_LABEL_MAP50

    rows = [list(r) for r in deal(2)]
    true_code = rows[1][0]
    named_code = next(code for code in CARD_CODES if code not in {c for row in rows for c in row})

    class SecondChoiceIsRight(ColourClassifier):
        def probabilities(self, image, boxes):
            out = super().probabilities(image, boxes)
            wrong = out.argmax(axis=1) == CLASS_NAMES.index(true_code)
            out[wrong] = 0.0
            out[wrong, CLASS_NAMES.index(named_code)] = 0.6
            out[wrong, CLASS_NAMES.index(true_code)] = 0.35
            return out

    write_scene(tmp_path, "0000", rows, 0)
    result = evaluate_scenes(CardReader(detector=MarkerDetector(), classifier=SecondChoiceIsRight()),
                             datasets.load_scenes(tmp_path), "drawn")
    assert result.numbers["52-class index mAP50 (whole reader)"] < 0.99
    assert result.numbers[MULTI_LABEL_MAP50] == pytest.approx(1.0)
    honest = evaluate_scenes(CardReader(detector=MarkerDetector(), classifier=ColourClassifier()),
                             datasets.load_scenes(tmp_path), "drawn")
    assert honest.numbers[MULTI_LABEL_MAP50] == pytest.approx(honest.numbers["52-class index mAP50 (whole reader)"])


def test_the_flat_views_set_reads_each_edje_photo_in_every_view_flatter_than_30_degrees(tmp_path, reader, monkeypatch):
    from vision.evaluation.views import FLAT_VIEWS

    assert all(elevation < min(e for _, e, _, _ in STEEP_VIEWS) for _, elevation, _, _ in FLAT_VIEWS)
    dev = tmp_path / "dev"
    (dev / "edje-multi").mkdir(parents=True)
    path, card_box = two_card_photo(dev / "edje-multi")
    (dev / "labels.json").write_text("{}")
    labels = {f"edje-multi/{path.name}": [{"rank": "Q", "box": card_box("QH")}, {"rank": "9", "box": card_box("9C")}]}
    (dev / "edje-multi" / "labels.json").write_text(json.dumps(labels))
    report = _evaluation_report(tmp_path, reader, monkeypatch, "--sets", "edje-flat", "--dev-photos", str(dev))
    title = "real edje-multi in views flatter than 30° (rank only)"
    assert f"### {title}\n\n{len(FLAT_VIEWS)} photos (0 unreadable)" in report  # the one photo, once a view
    for view, _, _, _ in FLAT_VIEWS:
        assert f"rank recall, {view} |" in report
    assert "real edje-multi in steep views" not in report  # only the set asked for


def test_the_coloured_light_sets_read_each_photo_under_every_lamp(tmp_path, reader, monkeypatch):
    from vision.evaluation.views import COLOURED_LIGHTS, coloured

    dev = tmp_path / "dev"
    for folder in ("edje-multi", "phone-singles", "webcam-singles"):
        (dev / folder).mkdir(parents=True)
    path, card_box = two_card_photo(dev / "edje-multi")
    (dev / "edje-multi" / "labels.json").write_text(json.dumps(
        {f"edje-multi/{path.name}": [{"rank": "Q", "box": card_box("QH")}, {"rank": "9", "box": card_box("9C")}]}))
    single, _ = render([["7D"]], scale=1.5, size=(800, 600))
    (dev / "phone-singles" / "7D.jpg").write_bytes(jpeg(single))
    (dev / "labels.json").write_text(json.dumps({"phone-singles/7D.jpg": ["7D"]}))
    report = _evaluation_report(tmp_path, reader, monkeypatch, "--sets", "phone-coloured,edje-coloured",
                                "--dev-photos", str(dev))
    assert f"### real edje-multi in coloured light (rank only)\n\n{len(COLOURED_LIGHTS)} photos" in report
    phone = "### real phone-singles in coloured light (top-1; labels corrected)"
    assert f"{phone}\n\n{len(COLOURED_LIGHTS)} photos" in report
    for light, _ in COLOURED_LIGHTS:
        assert f"| top-1, {light} |" in report and f"| rank recall, {light} |" in report
    assert "webcam-singles" not in report  # only the sets asked for
    red = coloured(np.full((2, 2, 3), 200, np.uint8), "red lamp")[0, 0]
    assert red[2] == 200 and red[0] < red[1] < red[2]  # blue and green dimmed, red kept
    with pytest.raises(ValueError, match="unknown coloured light"):
        coloured(single, "ultraviolet")


def test_warning_kinds_drop_their_particulars():
    assert warning_kind("low confidence: 8H (0.55)") == "low confidence"
    assert warning_kind("left out unsure marks: TS? (0.36), QS? (0.10)") == "left out unsure marks"
    assert warning_kind("front row has 2 card(s), expected 3") == "front row has N card"
    assert warning_kind("expected 13 cards, found 12") == "expected N cards"


def test_photos_read_right_count_their_warnings_by_kind(tmp_path, reader):
    for i in range(4):
        write_scene(tmp_path, f"{i:04d}", [list(r) for r in deal(i)], 0)

    class WarnsEverySecondRead:  # right or not
        def __init__(self):
            self.reads = 0
            self.detector, self.detection_sizes = reader.detector, reader.detection_sizes
            self.min_card_confidence = reader.min_card_confidence

        def read(self, data, loose=False):
            read = reader.read(data, loose=loose)
            if self.reads % 2:
                read.warnings.append("low confidence: 8H (0.55)")
            self.reads += 1
            return read

    quiet = evaluate_scenes(reader, datasets.load_scenes(tmp_path), "drawn")
    warned = evaluate_scenes(WarnsEverySecondRead(), datasets.load_scenes(tmp_path), "drawn")
    assert quiet.numbers[WARNED_RIGHT] == 0.0 and quiet.read_right == 4
    assert warned.numbers[WARNED_RIGHT] == pytest.approx(2 / 4)
    assert warned.warned_right == {"low confidence": 2}
    assert "Warnings on photos read right (2 of 4 warned" in "\n".join(run_module._section(warned, None))


def test_a_photo_read_wrong_does_not_count_among_those_read_right_but_warned(tmp_path, reader):
    path, card_box = two_card_photo(tmp_path)
    right = [{"rank": "Q", "box": card_box("QH")}, {"rank": "9", "box": card_box("9C")}]
    missed = right + [{"rank": "A", "box": [0, 0, 60, 60]}]
    result = evaluate_rank_boxes(reader, [(path, right), (path, missed)], "drawn multi")
    assert result.read_right == 1 and result.photos == 2
    assert result.numbers[WARNED_RIGHT] == 0.0


@pytest.mark.parametrize("model_file, words, off_flag", [
    ("cards_cls_second.onnx", "second opinion", "--no-second-opinion"),
    ("cards_cls_partner.onnx", "partner classifier", "--no-partner-classifier"),
])
def test_the_report_says_whether_an_optional_model_read_and_names_its_file(tmp_path, reader, monkeypatch, model_file,
                                                                            words, off_flag):
    folder = tmp_path / "real" / "photos" / "val"
    folder.mkdir(parents=True)
    write_scene(folder, "0000", [["2S", "3H", "4D"], ["5C", "6S", "7H", "8D", "9C"], ["TS", "JH", "QD", "KC", "AS"]], 0)
    args = ("--sets", "real-deck", "--real-deck-photos", str(folder))
    without = _evaluation_report(tmp_path, reader, monkeypatch, *args)
    assert f"{words} off" in without and model_file not in without
    (tmp_path / model_file).write_bytes(b"stand-in")
    with_file = _evaluation_report(tmp_path, reader, monkeypatch, *args)
    assert f"{words} on" in with_file and f"- `{model_file}`: " in with_file
    assert f"{words} off" in _evaluation_report(tmp_path, reader, monkeypatch, *args, off_flag)


class LeftmostFaint(MarkerDetector):
    """Scores the leftmost index 0.05: under the reader's floors (it never reads it), over the evaluation's 0.001."""

    def detect(self, image, long_side, *, score_threshold=None):
        boxes, scores = super().detect(image, long_side, score_threshold=score_threshold)
        scores = scores.copy()
        scores[np.argmin(boxes[:, 0])] = 0.05
        keep = scores >= (score_threshold if score_threshold is not None else self.score_threshold)
        return boxes[keep], scores[keep]


def test_the_reader_as_a_detector_counts_the_boxes_under_its_thresholds_as_ultralytics_validation_does(tmp_path):
    from vision.evaluation.evaluators import AS_DETECTOR_MAP50, AS_DETECTOR_MAP50_ULTRALYTICS, MULTI_LABEL_MAP50

    write_scattered_scene(tmp_path)
    reader = CardReader(detector=LeftmostFaint(), classifier=ColourClassifier())
    result = evaluate_scenes(reader, datasets.load_scenes(tmp_path), "drawn scattered")
    assert result.numbers["52-class index mAP50 (whole reader)"] < 1.0  # the faint index is never read
    assert result.numbers[MULTI_LABEL_MAP50] < 1.0
    assert result.numbers[AS_DETECTOR_MAP50] == pytest.approx(1.0)  # ...but it is a box from 0.001, named right
    assert result.numbers[AS_DETECTOR_MAP50_ULTRALYTICS] == pytest.approx(0.995)  # ultralytics' cap for a whole class


def test_as_a_detector_adds_only_fresh_boxes_and_keeps_the_300_likeliest_hypotheses():
    from vision.evaluation.evaluators import MAX_HYPOTHESES, as_a_detector

    class SureAS:
        def probabilities(self, image, boxes):
            out = np.zeros((len(boxes), len(CLASS_NAMES)), np.float32)
            out[:, CLASS_NAMES.index("AS")], out[:, CLASS_NAMES.index("AH")] = 0.9, 0.1
            return out

    reader = CardReader(detector=MarkerDetector(), classifier=ColourClassifier())
    reader.looks.classifier = SureAS()
    image = np.zeros((100, 100, 3), np.uint8)
    read = (np.array([[0.0, 0.0, 10.0, 10.0]]), [0.8], ["2S"])
    found = np.array([[0.0, 0.0, 10.0, 11.0], [50.0, 50.0, 60.0, 60.0]])  # the first lies on the reading
    boxes, scores, codes = as_a_detector(reader, image, read, found, np.array([0.9, 0.5]))
    assert codes == ["2S", "AS", "AH"] and scores == pytest.approx([0.8, 0.45, 0.05])
    assert boxes[1].tolist() == [50.0, 50.0, 60.0, 60.0]
    many = np.array([[x * 20.0, 0.0, x * 20.0 + 10, 10.0] for x in range(1, 201)])  # 200 boxes, 2 codes each
    boxes, scores, codes = as_a_detector(reader, image, read, many, np.linspace(0.9, 0.1, 200))
    assert len(codes) == MAX_HYPOTHESES and scores == sorted(scores, reverse=True)
    assert codes.count("AS") == 200 and "2S" in codes  # every sure code outranks the weak AH ones


def test_every_set_reports_the_sure_flag_and_its_calibration(tmp_path, reader):
    for i, angle in enumerate((0, 100)):
        write_scene(tmp_path, f"{i:04d}", [list(r) for r in deal(i)], angle)
    result = evaluate_scenes(reader, datasets.load_scenes(tmp_path), "drawn")
    assert result.numbers["cards read"] == 26 and result.numbers["per-card F1"] == 1.0
    assert result.numbers["photos all right"] == 1.0 and result.numbers["wrong cards marked sure"] == 0
    assert 0.0 <= result.numbers["calibration error (ECE)"] <= 1.0
    assert "Reliability of the cards' calibrated chance" in "\n".join(run_module._section(result, None))


class ReadsAsTold:
    """A reader whose read of photo N is the N-th (cards, warnings) given."""

    def __init__(self, reads):
        self.reads = reads

    def read(self, data, loose=False):
        from vision.cards import Card, IndexReading
        from vision.results import ReadResult

        name = int(data.decode())
        codes, warnings = self.reads[name]
        cards = [Card(code, [IndexReading((10.0 * k, 0.0, 10.0 * k + 8, 12.0), code, 0.99, 0.9)], chance=0.99,
                      sure=not warnings) for k, code in enumerate(codes)]
        return ReadResult(cards, None, warnings, 1.0)


def test_unknown_deck_photos_count_as_flagged_only_with_the_warning(tmp_path):
    from vision.evaluation.evaluators import evaluate_unknown_decks
    from vision.messages import UNKNOWN_DECK_WARNING

    shows = [(["JS", "2H"], ["8S", "2H"], [f"{UNKNOWN_DECK_WARNING} (8S shows a court figure): check every card"]),
             (["QD"], ["TD"], []),  # read as another card, not flagged
             (["3C"], ["3C"], [])]  # no unknown letter to flag
    for n, (truth, _, _) in enumerate(shows):
        (tmp_path / f"{n:04d}.jpg").write_bytes(str(n).encode())
        (tmp_path / f"{n:04d}.json").write_text(json.dumps(
            {"rows": None, "kind": "scattered", "cards": [{"code": c, "indices": [[0, 0, 8, 12]]} for c in truth]}))
    result = evaluate_unknown_decks(ReadsAsTold([(read, warned) for _, read, warned in shows]),
                                    datasets.load_scenes(tmp_path), "unknown")
    assert result.numbers["photos showing unknown letters"] == 2
    assert result.numbers["unknown-deck photos flagged"] == 0.5
    assert result.numbers["wrong cards marked sure"] == 1  # TD: sure, wrong and not warned
    assert result.numbers["photos warned of an unknown deck"] == pytest.approx(1 / 3)
    assert "0001.jpg" in result.failures[0] and result.failures[0].endswith(NO_WARNING)
