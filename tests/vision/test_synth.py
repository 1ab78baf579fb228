"""The synthetic data generator: crop rule, index finding on real deck renders, dataset layout, determinism."""
from __future__ import annotations

import filecmp
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.crops import CARD_CODES, CLASS_NAMES, CROP_SCALE, CROP_SIZE, index_crop

# ---------------------------------------------------------------------------------------------
# Crop rule (no decks needed)


def test_class_list_order_is_rank_major_then_suit():
    assert len(CARD_CODES) == 52 and len(set(CARD_CODES)) == 52
    assert CARD_CODES[0] == "2S" and CARD_CODES[1] == "2H" and CARD_CODES[3] == "2C"
    assert CARD_CODES[4] == "3S" and CARD_CODES[51] == "AC"
    assert CLASS_NAMES == CARD_CODES + ["none"]
    for i, code in enumerate(CARD_CODES):
        assert i == "23456789TJQKA".index(code[0]) * 4 + "SHDC".index(code[1])


def test_crop_has_the_classifier_shape_for_boxes_inside_and_outside_the_image():
    image = np.random.default_rng(0).integers(0, 256, (120, 90, 3), dtype=np.uint8)
    for box in [(10, 10, 30, 50), (-15, -5, 10, 20), (80, 100, 130, 150), (500, 500, 520, 530), (40, 40, 41, 41)]:
        crop = index_crop(image, box)
        assert crop.shape == (CROP_SIZE, CROP_SIZE, 3) and crop.dtype == np.uint8


def test_crop_takes_the_square_of_side_scale_times_the_longer_box_side():
    # A gradient image: the crop's corner values tell which window was taken.
    yy, xx = np.mgrid[0:400, 0:400]
    image = np.dstack([xx % 256, yy % 256, np.zeros_like(xx)]).astype(np.uint8)
    box = (100, 100, 140, 200)  # 40 x 100: side = 1.4 * 100 = 140, centre (120, 150)
    crop = index_crop(image, box)
    expected = cv2.resize(image[80:220, 50:190], (CROP_SIZE, CROP_SIZE), interpolation=cv2.INTER_AREA)
    assert CROP_SCALE == 1.4
    assert np.abs(crop.astype(int) - expected.astype(int)).max() <= 1


def test_crop_replicates_the_border_outside_the_image():
    image = np.zeros((50, 50, 3), np.uint8)
    image[:, 0] = 200  # left column bright: replicated leftwards it fills the outside part
    crop = index_crop(image, (-30, 10, 10, 40))
    assert crop[:, :10].mean() > 150


@pytest.mark.parametrize("image, box", [
    (np.zeros((10, 10), np.uint8), (0, 0, 5, 5)),
    (np.zeros((10, 10, 3), np.float32), (0, 0, 5, 5)),
    (np.zeros((10, 10, 3), np.uint8), (5, 5, 5, 9)),
    (np.zeros((10, 10, 3), np.uint8), (0, 0, float("nan"), 5)),
    (np.zeros((10, 10, 3), np.uint8), (0, 0, 5)),
])
def test_crop_rejects_bad_input_with_a_value_error(image, box):
    with pytest.raises(ValueError):
        index_crop(image, box)


# ---------------------------------------------------------------------------------------------
# Decks, index boxes and generation (need the Debian card decks and rsvg-convert)

from conftest import TEST_TRAIN_DECK, TEST_VAL_DECK, needs_decks  # noqa: E402
from vision.synth.bank import INDEX_BOXES_FILE  # noqa: E402
from vision.synth.decks import DECKS_BY_NAME, load_face  # noqa: E402


@needs_decks
@pytest.mark.parametrize("deck_name", [TEST_TRAIN_DECK, TEST_VAL_DECK])
def test_index_boxes_lie_in_the_corners_and_hold_dark_glyph_ink(cache, deck_name):
    from vision.synth.bank import load_deck_faces

    deck = load_deck_faces(cache, DECKS_BY_NAME[deck_name])
    assert sorted(deck.faces) == sorted(CARD_CODES)
    for code, face in deck.faces.items():
        w, h = face.size
        rgba = face.pyramid[0]
        for corner, (x1, y1, x2, y2) in enumerate(face.boxes):
            assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h, (code, corner)
            # An index: small (rank over suit), and near its corner.
            assert 0.08 * h < y2 - y1 < 0.35 * h and 0.03 * w < x2 - x1 < 0.3 * w, (code, corner)
            cx, cy = (x1 + x2) / 2 / w, (y1 + y2) / 2 / h
            assert (cx < 0.25 and cy < 0.3) if corner == 0 else (cx > 0.75 and cy > 0.7), (code, corner)
            patch = rgba[y1:y2, x1:x2, :3].astype(int)
            paper = np.median(rgba[h // 2 - 5:h // 2 + 5, 5:15, :3].reshape(-1, 3), axis=0)
            ink = np.abs(patch - paper).max(axis=2) > 80
            assert 0.1 < ink.mean() < 0.9, (code, corner, ink.mean())
            # The box is tight: (anti-aliased) ink within two pixels of all four sides.
            faint = np.abs(patch - paper).max(axis=2) > 40
            assert faint[:2].any() and faint[-2:].any() and faint[:, :2].any() and faint[:, -2:].any(), (code, corner)


@pytest.mark.parametrize("elevation", [90.0, 60.0, 30.0])
def test_a_fixed_camera_tilt_squeezes_the_table_across_the_view_by_its_sine(elevation):
    from vision.synth import scene

    cam = scene.make_camera(np.random.default_rng(0), 2.0, 100.0, (600, 600), yaw=0.0, elevation=elevation)
    # a small square at the table origin, seen through the camera: one side keeps its length, the other shrinks
    square = np.array([[[-0.01, -0.01], [0.01, -0.01], [0.01, 0.01], [-0.01, 0.01]]])
    seen = cv2.perspectiveTransform(square, cam)[0]
    sides = sorted([np.linalg.norm(seen[1] - seen[0]), np.linalg.norm(seen[2] - seen[1])])
    assert sides[0] / sides[1] == pytest.approx(np.sin(np.radians(elevation)), abs=0.02)


def _king_on_ace_scene(cache: Path):
    """Two cards, the KH exactly on top of the AS, seen top-down with no spin."""
    from vision.synth import layouts, scene
    from vision.synth.bank import load_deck_faces

    deck = load_deck_faces(cache, DECKS_BY_NAME[TEST_TRAIN_DECK])
    rng = np.random.default_rng(3)
    layout = layouts.Layout([layouts.Placed("AS", 0, 0, 0), layouts.Placed("KH", 0, 0, 0)], deck.aspect)
    cam = scene.make_camera(rng, 2.0, 300.0, (600, 600), elevation_range=(90, 90), yaw=0.0)
    return scene.render_layout(rng, layout, deck, cam, (600, 600))


@needs_decks
def test_rendered_scene_labels_only_uncovered_indices(cache):
    # Only the king's indices are visible.
    visible = _king_on_ace_scene(cache).visible_labels()
    assert sorted((lab.code, lab.corner) for lab in visible) == [("KH", 0), ("KH", 1)]
    for lab in visible:
        x1, y1, x2, y2 = lab.box
        assert 0 <= x1 < x2 <= 600 and 0 <= y1 < y2 <= 600
        # Seen top-down with no spin the top-left index stays in the top-left quarter of the card.
    tl = next(lab for lab in visible if lab.corner == 0)
    assert tl.box[0] < 300 and tl.box[1] < 300


@needs_decks
def test_scene_labels_say_how_much_of_each_suit_is_uncovered(cache):
    suit = {(lab.code, lab.corner): lab.suit_visible for lab in _king_on_ace_scene(cache).labels}
    assert suit[("AS", 0)] == suit[("AS", 1)] == 0.0  # under the king
    assert suit[("KH", 0)] > 0.9 and suit[("KH", 1)] > 0.9


def test_contrast_kept_is_lost_to_glare_but_not_to_dim_light():
    from vision.synth.scene import IndexLabel, contrast_kept

    clean = np.full((40, 40, 3), 235, np.uint8)
    clean[10:30, 15:20] = 20  # the index's ink
    owner = np.zeros((40, 40), np.int16)
    label = IndexLabel("AS", 0, 0, (5.0, 5.0, 35.0, 35.0), 1.0)
    dim = (clean.astype(np.float32) * 0.2).astype(np.uint8)
    glare = np.clip(clean.astype(np.int16) + 220, 0, 255).astype(np.uint8)
    assert contrast_kept(clean, clean, label, owner) == pytest.approx(1.0)
    assert contrast_kept(clean, dim, label, owner) > 0.8
    assert contrast_kept(clean, glare, label, owner) < 0.1
    other_card = IndexLabel("KD", 1, 0, (5.0, 5.0, 35.0, 35.0), 1.0)  # no pixel of it is on top
    assert contrast_kept(clean, glare, other_card, owner) == 0.0


def test_the_suit_band_is_the_lower_part_of_a_top_left_index_and_the_upper_of_a_bottom_right_one():
    from vision.synth import scene

    hull = np.array([[10, 20], [30, 20], [30, 70], [10, 70]], np.float32)  # 50 tall
    low = 70 - scene.SUIT_BAND * 50
    assert np.allclose(scene._suit_band(hull, 0), [[10, low], [30, low], [30, 70], [10, 70]])
    high = 20 + scene.SUIT_BAND * 50
    assert np.allclose(scene._suit_band(hull, 1), [[10, 20], [30, 20], [30, high], [10, high]])


def test_visible_fraction_counts_where_the_card_is_on_top_and_outside_the_image_as_covered():
    from vision.synth import scene

    owner = np.ones((100, 100), np.int16)
    owner[:, 50:] = 2
    square = np.array([[20, 20], [80, 20], [80, 40], [20, 40]], np.float32)
    assert abs(scene._visible_fraction(square, 1200.0, owner, 1) - 0.5) < 0.05
    assert abs(scene._visible_fraction(square, 1200.0, owner, 2) - 0.5) < 0.05
    half_out = np.array([[80, 0], [120, 0], [120, 20], [80, 20]], np.float32)
    assert abs(scene._visible_fraction(half_out, 800.0, owner, 2) - 0.5) < 0.05
    assert scene._visible_fraction(square + 500, 1200.0, owner, 1) == 0.0


def _generate(out: Path, cache: Path, seed: int) -> dict:
    from vision.synth.dataset import generate

    return generate(out, cache, seed, tiles=12, crops=40, scenes=2, val_fraction=0.25,
                    train_decks=[TEST_TRAIN_DECK], val_decks=[TEST_VAL_DECK], workers=1, command="test")


@pytest.fixture(scope="module")
def dataset(cache, tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("synth") / "ds"
    return out, _generate(out, cache, seed=5)


@needs_decks
def test_tiny_generation_writes_the_dataset_layout(dataset):
    out, manifest = dataset
    data_yaml = (out / "detect" / "data.yaml").read_text()
    assert "train: images/train" in data_yaml and "val: images/val" in data_yaml and "0: index" in data_yaml
    for split in ("train", "val"):
        images = sorted((out / "detect" / "images" / split).glob("*.jpg"))
        labels = sorted((out / "detect" / "labels" / split).glob("*.txt"))
        assert images and [p.stem for p in images] == [p.stem for p in labels]
        assert manifest["counts"]["detect"][split] == len(images)
        for image_path, label_path in zip(images, labels):
            assert cv2.imread(str(image_path)).shape == (320, 320, 3)
            for line in label_path.read_text().splitlines():
                cls, cx, cy, w, h = line.split()
                cx, cy, w, h = map(float, (cx, cy, w, h))
                assert cls == "0"
                # Inside the tile, and an index 10-45 px tall at most a bit more after perspective.
                eps = 1e-5  # labels are written with 6 decimals
                assert -eps <= cx - w / 2 and cx + w / 2 <= 1 + eps and -eps <= cy - h / 2 and cy + h / 2 <= 1 + eps
                assert 0 < w and 0 < h < 130 / 320
        crops = list((out / "crops" / split).glob("*/*.png"))
        assert len(crops) == manifest["counts"]["crops"][split]["total"] > 0
        assert {p.parent.name for p in crops} <= set(CLASS_NAMES)
        crop = cv2.imread(str(crops[0]))
        assert crop.shape == (48, 48, 3)
    assert (out / "crops" / "train" / "none").is_dir()
    scenes = sorted((out / "scenes" / "val").glob("*.json"))
    assert len(scenes) == 2
    truth = json.loads(scenes[0].read_text())
    assert [len(truth["rows"][r]) for r in ("front", "middle", "back")] == [3, 5, 5]
    assert sorted(c["code"] for c in truth["cards"]) == sorted(sum(truth["rows"].values(), []))
    image = cv2.imread(str(scenes[0].with_suffix(".jpg")))
    assert image.shape[:2] in ((1500, 2000), (2000, 1500))
    assert manifest["decks"]["train"][0]["name"] == TEST_TRAIN_DECK
    assert manifest["decks"]["val"][0]["license"]
    assert json.loads((out / "manifest.json").read_text())["seed"] == 5


@needs_decks
def test_photos_part_writes_every_kind_of_photo_with_rows_only_for_layouts(cache, tmp_path):
    from vision.synth.dataset import generate
    from vision.synth.parts.photos import PHOTO_KINDS

    out = tmp_path / "ds"
    manifest = generate(out, cache, 3, tiles=0, crops=0, scenes=0, val_fraction=0.25, train_decks=[TEST_TRAIN_DECK],
                        val_decks=[TEST_VAL_DECK], workers=1, command="test", parts=("photos",), photos=6)
    assert manifest["counts"]["photos"]["val"] == 6 and manifest["counts"]["detect"]["train"] == 0
    kinds = set()
    for label in sorted((out / "photos" / "val").glob("*.json")):
        truth = json.loads(label.read_text())
        kinds.add(truth["kind"])
        assert truth["kind"] in dict(PHOTO_KINDS) and truth["deck"] == TEST_VAL_DECK
        if truth["kind"] == "rows":
            assert [len(truth["rows"][r]) for r in ("front", "middle", "back")] == [3, 5, 5]
        else:
            assert truth["rows"] is None
        height, width = cv2.imread(str(label.with_suffix(".jpg"))).shape[:2]
        boxes = [box for card in truth["cards"] for box in card["indices"]]
        assert boxes, label.name  # every kind shows at least one index
        for card in truth["cards"]:  # each box says how legible it is
            assert len(card["suit_visible"]) == len(card["contrast_kept"]) == len(card["indices"])
            assert all(0.0 <= v <= 1.0 for v in card["suit_visible"] + card["contrast_kept"])
        for x1, y1, x2, y2 in boxes:
            assert 0 <= x1 < x2 <= width and 0 <= y1 < y2 <= height
    assert len(kinds) >= 2


@needs_decks
def test_photo_kinds_limit_the_photo_parts_to_the_kinds_asked_for_and_go_into_the_manifest(cache, tmp_path):
    from vision.synth.dataset import generate

    out = tmp_path / "ds"
    manifest = generate(out, cache, 3, tiles=0, crops=0, scenes=0, val_fraction=0.25, train_decks=[TEST_TRAIN_DECK],
                        val_decks=[TEST_VAL_DECK], workers=1, command="test", parts=("photos",), photos=6,
                        photo_kinds=(("hand", 1.0),))
    kinds = {json.loads(label.read_text())["kind"] for label in (out / "photos" / "val").glob("*.json")}
    assert kinds == {"hand"}
    assert manifest["photo_kinds"] == {"hand": 1.0} and "photo_kinds" in manifest["notes"]


@pytest.mark.parametrize("kinds", ["fan=1", "hand=0", "hand", "hand=x", "rows=1,hand=-2"])
def test_photo_kinds_command_line_refuses_unknown_kinds_and_weights_that_are_not_positive(kinds, tmp_path, capsys):
    from vision.synth.__main__ import main

    with pytest.raises(SystemExit) as exit_info:
        main(["--out", str(tmp_path / "ds"), "--parts", "photocrops", "--photo-kinds", kinds])
    assert exit_info.value.code == 2
    assert "--photo-kinds" in capsys.readouterr().err
    assert not (tmp_path / "ds").exists()  # refused before anything was written


@needs_decks
def test_generation_is_deterministic_from_the_seed(dataset, cache, tmp_path):
    out, _ = dataset
    again = tmp_path / "again"
    _generate(again, cache, seed=5)
    for sub in ("detect/labels/train", "detect/images/train", "scenes/val"):
        names = sorted(p.name for p in (out / sub).iterdir())
        assert names == sorted(p.name for p in (again / sub).iterdir())
        match, mismatch, errors = filecmp.cmpfiles(out / sub, again / sub, names, shallow=False)
        assert not mismatch and not errors, sub
    other = tmp_path / "other"
    _generate(other, cache, seed=6)
    first = sorted((out / "detect" / "images" / "train").iterdir())[0]
    assert first.read_bytes() != (other / "detect" / "images" / "train" / first.name).read_bytes()


@needs_decks
def test_text_sheets_in_scenes_are_background_never_labels(cache):
    from vision.synth import layouts, scene
    from vision.synth.bank import load_deck_faces
    from vision.synth.fonts import fonts_for

    deck = load_deck_faces(cache, DECKS_BY_NAME[TEST_TRAIN_DECK])
    layout = layouts.Layout([layouts.Placed("AS", 0, 0, 0), layouts.Placed("KH", 0, 0, 0)], deck.aspect)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        cam = scene.make_camera(rng, 2.0, 150.0, (600, 600), elevation_range=(90, 90), yaw=0.0)
        sc = scene.render_layout(rng, layout, deck, cam, (600, 600), text_sheets=1.0, text_fonts=fonts_for("train"))
        # The paper is a prop; only the top card's two indices are labelled.
        assert (sc.owner == scene.PROP_OWNER).sum() > 0
        assert sorted((lab.code, lab.corner) for lab in sc.visible_labels()) == [("KH", 0), ("KH", 1)]


# ---------------------------------------------------------------------------------------------
# Printed-text `none` crops (no decks needed: system TrueType fonts when installed, else Hershey)


def test_truetype_glyphs_fill_their_boxes_and_suit_symbols_are_never_drawn():
    from vision.synth.fonts import Pen, all_fonts

    fonts = [f for f in all_fonts() if f.kind == "ttf"][:3] + [f for f in all_fonts() if f.kind == "hershey"][:1]
    assert fonts
    for font in fonts:
        img = np.full((80, 200, 3), 255, np.uint8)
        glyphs = Pen(font, 30).draw(img, "A10 ♥", 10, 50, (0, 0, 0))
        assert [g.ch for g in glyphs] == ["A", "1", "0"], font.name
        for g in glyphs:
            (x0, y0), (x1, y1) = g.quad.min(axis=0), g.quad.max(axis=0)
            assert 24 <= y1 - y0 <= 36, (font.name, g.ch, y1 - y0)  # cap height 30 px
            ink = img[int(y0):int(np.ceil(y1)), int(x0):int(np.ceil(x1))].min(axis=2) < 128
            assert 0.1 < ink.mean() < 0.9, (font.name, g.ch)
        assert img[:, 110:].min() == 255, font.name  # nothing drawn for the suit symbol


def test_val_fonts_are_other_families_than_train_fonts():
    from vision.synth.fonts import fonts_for

    train, val = fonts_for("train"), fonts_for("val")
    assert train and val
    assert not {f.name for f in train} & {f.name for f in val}
    assert not {f.family for f in train} & {f.family for f in val}


def _text_crops(out: Path, seed: int, count: int = 40) -> dict:
    from vision.synth.parts.textcrops import generate_text_crops

    return generate_text_crops(out, seed, count, val_fraction=0.25, workers=1, command="test")


@pytest.fixture(scope="module")
def text_crops(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("textcrops") / "ds"
    return out, _text_crops(out, seed=3)


def test_text_crops_part_writes_the_requested_count_of_none_crops(text_crops):
    out, manifest = text_crops
    train = sorted((out / "crops" / "train" / "none").glob("text_*.png"))
    val = sorted((out / "crops" / "val" / "none").glob("text_*.png"))
    assert (len(train), len(val)) == (30, 10)
    assert manifest["text_crops"]["counts"] == {"train": 30, "val": 10}
    saved = json.loads((out / "manifest.json").read_text())["text_crops"]
    assert saved["seed"] == 3 and saved["counts"] == {"train": 30, "val": 10}
    assert {f["name"] for f in saved["fonts"]["train"]}.isdisjoint(f["name"] for f in saved["fonts"]["val"])
    assert all(f["license"] for split in ("train", "val") for f in saved["fonts"][split])
    for path in train + val:
        crop = cv2.imread(str(path))
        assert crop.shape == (48, 48, 3), path.name
        # Not blank: some ink clearly darker than the paper.
        gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(int)
        assert np.median(gray) - np.percentile(gray, 2) > 15, path.name


def test_text_crops_are_deterministic_from_the_seed_and_replace_earlier_text_crops(text_crops, tmp_path):
    out, _ = text_crops
    again = tmp_path / "again"
    (again / "crops" / "train" / "none").mkdir(parents=True)
    (again / "crops" / "train" / "none" / "text_999999_00.png").write_bytes(b"old")  # from an earlier run
    (again / "crops" / "train" / "none" / "000001_00.png").write_bytes(b"card scene crop")  # not ours
    _text_crops(again, seed=3)
    for split in ("train", "val"):
        names = sorted(p.name for p in (out / "crops" / split / "none").iterdir())
        again_names = sorted(p.name for p in (again / "crops" / split / "none").glob("text_*.png"))
        assert names == again_names
        match, mismatch, errors = filecmp.cmpfiles(out / "crops" / split / "none", again / "crops" / split / "none",
                                                   names, shallow=False)
        assert not mismatch and not errors, split
    assert (again / "crops" / "train" / "none" / "000001_00.png").exists()
    other = tmp_path / "other"
    _text_crops(other, seed=4)
    first = sorted((out / "crops" / "train" / "none").iterdir())[0]
    assert first.read_bytes() != (other / "crops" / "train" / "none" / first.name).read_bytes()


def test_text_crops_command_line_needs_no_decks(tmp_path):
    from vision.synth.__main__ import main

    assert main(["--out", str(tmp_path / "ds"), "--seed", "1", "--parts", "textcrops", "--text-crops", "20",
                 "--workers", "1"]) == 0
    assert len(list((tmp_path / "ds" / "crops" / "train" / "none").glob("text_*.png"))) == 18
    assert len(list((tmp_path / "ds" / "crops" / "val" / "none").glob("text_*.png"))) == 2


# ---------------------------------------------------------------------------------------------
# Card-index crops drawn in TrueType fonts (no decks needed; needs the DejaVu / Liberation fonts)


def _font_crops(out: Path, seed: int, count: int = 112) -> dict:
    from vision.synth.parts.fontcrops import generate_font_crops

    return generate_font_crops(out, seed, count, val_fraction=0.25, workers=1, command="test")


@pytest.fixture(scope="module")
def font_crops(tmp_path_factory) -> tuple[Path, dict]:
    from vision.synth.fonts import ttf_fonts_for

    if not ttf_fonts_for("train") or not ttf_fonts_for("val"):
        pytest.skip("no TrueType fonts installed (fonts-dejavu, fonts-liberation)")
    out = tmp_path_factory.mktemp("fontcrops") / "ds"
    return out, _font_crops(out, seed=5)


def test_font_crops_part_writes_every_card_code_in_the_classifier_layout(font_crops):
    out, manifest = font_crops
    entry = manifest["font_crops"]
    assert entry["counts"] == {"train": 84, "val": 28}
    assert json.loads((out / "manifest.json").read_text())["font_crops"]["counts"] == entry["counts"]
    for split, n in (("train", 84), ("val", 28)):
        folders = sorted(p.name for p in (out / "fontcrops" / split).iterdir())
        assert folders == sorted(CARD_CODES)  # class folders the classifier's loader reads
        sizes = [len(list((out / "fontcrops" / split / code).glob("font_*.png"))) for code in CARD_CODES]
        assert sum(sizes) == n and max(sizes) - min(sizes) <= 1  # codes in turn: even over the 52
        for path in (out / "fontcrops" / split).glob("*/font_*.png"):
            assert cv2.imread(str(path)).shape == (CROP_SIZE, CROP_SIZE, 3), path


def test_font_crops_val_fonts_are_not_train_fonts(font_crops):
    _, manifest = font_crops
    fonts = manifest["font_crops"]["fonts"]
    assert fonts["train"] and fonts["val"]
    assert {f["name"] for f in fonts["train"]}.isdisjoint(f["name"] for f in fonts["val"])
    assert all(f["file"].endswith((".ttf", ".ttc")) for split in fonts for f in fonts[split])


def test_font_crops_red_suits_are_red_and_black_suits_dark(font_crops):
    out, _ = font_crops
    for suit, red in (("H", True), ("D", True), ("S", False), ("C", False)):
        reds, lums = [], []
        for path in (out / "fontcrops" / "train").glob(f"?{suit}/font_*.png"):
            crop = cv2.imread(str(path)).astype(float)
            b, g, r = crop[..., 0], crop[..., 1], crop[..., 2]
            # The ink: the 10 % of pixels farthest from the crop's median colour.
            dist = np.abs(crop - np.median(crop.reshape(-1, 3), axis=0)).sum(axis=2)
            ink = dist >= np.percentile(dist, 90)
            reds.append(np.mean(r[ink] - (g[ink] + b[ink]) / 2))
            lums.append(np.mean(crop[ink]))
        if red:
            assert np.median(reds) > 30, (suit, np.median(reds))
        else:
            assert np.median(reds) < 20 and np.median(lums) < 110, (suit, np.median(reds), np.median(lums))


def test_font_crops_are_deterministic_from_the_seed(font_crops, tmp_path):
    out, _ = font_crops
    again = tmp_path / "again"
    (again / "fontcrops" / "val" / "AS").mkdir(parents=True)
    (again / "fontcrops" / "val" / "AS" / "font_999999.png").write_bytes(b"old")  # from an earlier run
    _font_crops(again, seed=5)
    for split in ("train", "val"):
        for code in CARD_CODES:
            names = sorted(p.name for p in (out / "fontcrops" / split / code).iterdir())
            assert names == sorted(p.name for p in (again / "fontcrops" / split / code).iterdir())
            _, mismatch, errors = filecmp.cmpfiles(out / "fontcrops" / split / code, again / "fontcrops" / split / code,
                                                   names, shallow=False)
            assert not mismatch and not errors, (split, code)
    other = tmp_path / "other"
    _font_crops(other, seed=6, count=8)
    first = out / "fontcrops" / "train" / "2S" / "font_000000.png"
    assert first.read_bytes() != (other / "fontcrops" / "train" / "2S" / "font_000000.png").read_bytes()


def test_font_crops_command_line_needs_no_decks(tmp_path):
    from vision.synth.__main__ import main

    assert main(["--out", str(tmp_path / "ds"), "--seed", "1", "--parts", "fontcrops", "--font-crops", "60",
                 "--workers", "1"]) == 0
    assert len(list((tmp_path / "ds" / "fontcrops" / "train").glob("*/font_*.png"))) == 54
    assert len(list((tmp_path / "ds" / "fontcrops" / "val").glob("*/font_*.png"))) == 6


@needs_decks
def test_photocrops_part_cuts_index_crops_out_of_photos_of_every_kind(cache, tmp_path):
    from vision.crops import CROP_SIZE, NONE_CLASS
    from vision.synth.dataset import generate
    from vision.synth.parts import photocrops

    out = tmp_path / "ds"
    manifest = generate(out, cache, 3, tiles=0, crops=0, scenes=0, val_fraction=0.5, train_decks=[TEST_TRAIN_DECK],
                        val_decks=[TEST_VAL_DECK], workers=1, command="test", parts=("photocrops",),
                        photo_crops=2 * photocrops.PHOTO_YIELD)
    for split in ("train", "val"):
        counts = manifest["counts"]["photocrops"][split]
        assert counts == photocrops.on_disk(out, split)
        assert 0 < counts["total"] <= photocrops.CROPS_PER_PHOTO
        assert counts["per_class"][NONE_CLASS] >= 1
        assert sum(n for code, n in counts["per_class"].items() if code != NONE_CLASS) >= 2
    crop = cv2.imread(str(next((out / "photocrops" / "train").glob("*/*.png"))))
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3)
    assert manifest["notes"]["photocrops"] == photocrops.NOTES


def _scene_with_indices(index_px: float):
    from vision.synth import scene

    image = np.full((1500, 2000, 3), 200, np.uint8)
    labels = [scene.IndexLabel("AS", 0, 0, (100.0 + 200 * i, 100.0, 100.0 + 200 * i + index_px * 0.6, 100.0 + index_px),
                               1.0) for i in range(5)]
    polygon = np.array([[50.0, 50.0], [1200.0, 50.0], [1200.0, 800.0], [50.0, 800.0]])
    return image, scene.Scene(image, labels, [polygon], np.zeros((1500, 2000), np.int16))


def test_low_resolution_shrinks_a_photo_to_small_indices_and_moves_its_scene_with_it():
    from vision.synth.parts.photocrops import LOWRES_INDEX_PX, low_resolution

    image, sc = _scene_with_indices(80.0)
    small, shrunk = low_resolution(np.random.default_rng(0), image, sc)
    scale = small.shape[1] / image.shape[1]
    assert small.shape[0] < image.shape[0] and shrunk.image is small and shrunk.owner.shape == small.shape[:2]
    assert LOWRES_INDEX_PX[0] - 0.5 <= 80.0 * scale <= LOWRES_INDEX_PX[1] + 0.5
    assert shrunk.labels[1].box == pytest.approx(tuple(v * scale for v in sc.labels[1].box), rel=0.01)
    assert shrunk.card_polygons[0] == pytest.approx(sc.card_polygons[0] * scale, rel=0.01)


def test_low_resolution_leaves_a_photo_whose_indices_are_small_already():
    from vision.synth.parts.photocrops import LOWRES_INDEX_PX, low_resolution

    image, sc = _scene_with_indices(LOWRES_INDEX_PX[0] - 2)
    small, same = low_resolution(np.random.default_rng(0), image, sc)
    assert small is image and same is sc


@needs_decks
def test_photocrops_part_with_photo_lowres_crops_shrunk_photos_and_says_so_in_the_manifest(cache, tmp_path):
    from vision.crops import CROP_SIZE
    from vision.synth.dataset import generate
    from vision.synth.parts import photocrops

    out = tmp_path / "ds"
    manifest = generate(out, cache, 3, tiles=0, crops=0, scenes=0, val_fraction=0.5, train_decks=[TEST_TRAIN_DECK],
                        val_decks=[TEST_VAL_DECK], workers=1, command="test", parts=("photocrops",),
                        photo_crops=2 * photocrops.PHOTO_YIELD, photo_lowres=1.0)
    assert manifest["photo_lowres"] == 1.0 and "photo_lowres" in manifest["notes"]
    assert manifest["counts"]["photocrops"]["train"]["total"] > 0
    crop = cv2.imread(str(next((out / "photocrops" / "train").glob("*/*.png"))))
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3)


def test_photo_lowres_command_line_must_be_a_probability(tmp_path, capsys):
    from vision.synth.__main__ import main

    with pytest.raises(SystemExit) as exit_info:
        main(["--out", str(tmp_path / "ds"), "--parts", "photocrops", "--photo-lowres", "1.5"])
    assert exit_info.value.code == 2 and "--photo-lowres" in capsys.readouterr().err


@needs_decks
def test_phototiles_part_cuts_labelled_detector_tiles_out_of_shrunk_photos(cache, tmp_path):
    from vision.synth.dataset import generate
    from vision.synth.parts import phototiles
    from vision.synth.parts.detect import TILE

    per_photo = phototiles.LOOKS_PER_PHOTO * phototiles.TILES_PER_LOOK
    out = tmp_path / "ds"
    manifest = generate(out, cache, 5, tiles=0, crops=0, scenes=0, val_fraction=0.5, train_decks=[TEST_TRAIN_DECK],
                        val_decks=[TEST_VAL_DECK], workers=1, command="test", parts=("phototiles",),
                        photo_tiles=2 * per_photo)
    assert manifest["counts"]["phototiles"] == {"train": per_photo, "val": per_photo}
    labelled = 0
    for image in (out / "phototiles" / "images").glob("*/*.jpg"):
        assert cv2.imread(str(image)).shape == (TILE, TILE, 3)
        lines = (out / "phototiles" / "labels" / image.parent.name / f"{image.stem}.txt").read_text().split()
        values = np.array(lines, float).reshape(-1, 5)
        assert (values[:, 0] == 0).all() and (values[:, 1:] >= 0).all() and (values[:, 1:] <= 1).all()
        labelled += len(values) > 0
    assert labelled >= per_photo  # most tiles are centred near an index
    assert "train: images/train" in (out / "phototiles" / "data.yaml").read_text()
    assert manifest["notes"]["phototiles"] == phototiles.NOTES


@needs_decks
def test_phototiles_with_tile_blur_blur_the_same_tiles_and_keep_their_labels(cache, tmp_path):
    from vision.synth.dataset import generate
    from vision.synth.parts import phototiles

    per_photo = phototiles.LOOKS_PER_PHOTO * phototiles.TILES_PER_LOOK
    written = {}
    for blur in (0.0, 1.0):
        out = tmp_path / f"blur{blur}"
        manifest = generate(out, cache, 5, tiles=0, crops=0, scenes=0, val_fraction=0.5, train_decks=[TEST_TRAIN_DECK],
                            val_decks=[TEST_VAL_DECK], workers=1, command="test", parts=("phototiles",),
                            photo_tiles=2 * per_photo, tile_blur=blur)
        written[blur] = out / "phototiles"
    assert manifest["tile_blur"] == 1.0 and "tile_blur" in manifest["notes"]
    sharper = 0
    for image in sorted((written[0.0] / "images" / "train").glob("*.jpg")):
        label = Path("labels", "train", f"{image.stem}.txt")
        # every look blurred after its scale was drawn: the same tiles in the same places, only softer
        assert (written[0.0] / label).read_text() == (written[1.0] / label).read_text()
        edges = [cv2.Laplacian(cv2.imread(str(root / "images" / "train" / image.name), cv2.IMREAD_GRAYSCALE),
                               cv2.CV_64F).var() for root in (written[0.0], written[1.0])]
        sharper += edges[0] > edges[1]
    assert sharper == per_photo


def test_tile_blur_command_line_must_be_a_probability(tmp_path, capsys):
    from vision.synth.__main__ import main

    with pytest.raises(SystemExit) as exit_info:
        main(["--out", str(tmp_path / "ds"), "--parts", "phototiles", "--tile-blur", "-0.1"])
    assert exit_info.value.code == 2 and "--tile-blur" in capsys.readouterr().err


def test_phototiles_shrink_photos_as_the_readers_looks_do():
    from vision.looks import DETECTION_SIZES, LARGER_DETECTION_SIZE
    from vision.synth.parts import phototiles

    rng = np.random.default_rng(0)
    assert phototiles.FIRST_LONG_SIDE == DETECTION_SIZES[0] and phototiles.LARGER_LONG_SIDE == LARGER_DETECTION_SIZE
    assert phototiles.look_scale(rng, "first", 2000, 30.0) == pytest.approx(0.32)
    assert phototiles.look_scale(rng, "larger", 2000, 30.0) == pytest.approx(0.512)
    closer = [phototiles.look_scale(rng, "closer", 2000, 10.0) * 10.0 for _ in range(50)]
    assert min(closer) >= phototiles.CLOSER_INDEX_PX[0] and max(closer) <= phototiles.CLOSER_INDEX_PX[1]
    assert phototiles.look_scale(rng, "closer", 2000, 2.0) == phototiles.MAX_ENLARGE  # a speck is not blown up


def test_phototiles_pad_small_pictures_to_a_tile_and_move_their_labels_with_them():
    from vision.synth.parts import phototiles
    from vision.synth.parts.detect import TILE
    from vision.synth.parts.framing import scaled_labels
    from vision.synth.scene import IndexLabel

    padded, offset = phototiles.padded_to_tile(np.zeros((200, 500, 3), np.uint8))
    assert padded.shape == (TILE, 500, 3) and offset == (0, (TILE - 200) // 2)
    assert (padded[0] == phototiles.PAD_VALUE).all() and (padded[offset[1]] == 0).all()
    label = IndexLabel("AS", 0, 0, (100.0, 40.0, 120.0, 70.0), 1.0)
    (moved,) = scaled_labels([label], 0.5, offset)
    assert moved.box == (50.0, 20.0 + offset[1], 60.0, 35.0 + offset[1]) and moved.code == "AS"


def test_a_crossed_seven_bar_crosses_the_stem_halfway_down():
    from vision.synth.parts.fontcrops import _crossbar

    # a 7 drawn as its top bar and a stem running from (90, 15) down-left to (30, 100)
    seven = [np.array([[0, 0], [100, 0], [100, 15], [50, 100], [30, 100], [80, 15], [0, 15]], float)]
    for seed in range(5):
        bar = _crossbar(np.random.default_rng(seed), seven, 100.0, 100.0)
        y = bar[:, 1].mean()
        assert 45 <= y <= 60
        stem_left = 80 + (y - 15) * (30 - 80) / 85  # the stem's two edges at the bar's height
        stem_right = 100 + (y - 15) * (50 - 100) / 85
        assert bar[:, 0].min() < stem_left and bar[:, 0].max() > stem_right
        assert bar[:, 0].mean() == pytest.approx((stem_left + stem_right) / 2)


# ---------------------------------------------------------------------------------------------
# A deck cache carried to a machine without the decks (a lent GPU machine: scripts/device_detector_step.sh)


def test_a_deck_whose_faces_are_cached_is_available_without_its_svg(tmp_path, monkeypatch):
    from vision.synth import decks

    absent = decks.Deck("absent", "kde", "no-such-deck/none.svgz", "none", "none")
    monkeypatch.setattr(decks, "DECKS", [absent])
    monkeypatch.setattr(decks, "PHOTO_DECKS", [])
    monkeypatch.setattr(decks, "RESTYLED_DECKS", [])  # (they are available wherever their base deck is installed)
    monkeypatch.setattr(decks, "NUMBER_CARD_DECKS", [])
    assert decks.available_decks(tmp_path) == []
    (tmp_path / "absent").mkdir()
    (tmp_path / "absent" / "done.json").write_text("{}")
    assert decks.available_decks(tmp_path) == [absent]
    assert decks.installed_decks() == []


def test_a_face_re_encoded_as_webp_loads_with_its_alpha(tmp_path):
    from vision.synth.decks import DECKS, DeckError

    deck = DECKS[0]
    face = np.zeros((72, 46, 4), np.uint8)
    face[8:64, 6:40] = (250, 250, 250, 255)
    (tmp_path / deck.name).mkdir()
    ok, webp = cv2.imencode(".webp", face, [cv2.IMWRITE_WEBP_QUALITY, 92])
    assert ok
    (tmp_path / deck.name / "AS.webp").write_bytes(webp.tobytes())
    loaded = load_face(tmp_path, deck, "AS")
    assert loaded.shape == (72, 46, 4)
    opaque = face[..., 3] > 0  # lossy WebP drops the colour of transparent pixels, which nothing draws
    assert (loaded[..., 3] == face[..., 3]).mean() > 0.99
    assert np.abs(loaded[..., :3].astype(int) - face[..., :3])[opaque].max() < 16
    with pytest.raises(DeckError):
        load_face(tmp_path, deck, "KH")


@needs_decks
def test_index_boxes_are_kept_beside_the_faces_and_found_again_when_the_faces_change(cache, tmp_path, monkeypatch):
    import shutil

    from vision.synth import bank
    from vision.synth.indices import find_deck_indices

    folder = tmp_path / TEST_VAL_DECK
    shutil.copytree(cache / TEST_VAL_DECK, folder)
    (folder / INDEX_BOXES_FILE).unlink(missing_ok=True)
    raw = {code: load_face(tmp_path, DECKS_BY_NAME[TEST_VAL_DECK], code) for code in CARD_CODES}
    found = find_deck_indices(raw)
    assert bank.cached_index_boxes(folder, raw) == found and (folder / INDEX_BOXES_FILE).is_file()
    searches = []
    monkeypatch.setattr(bank, "find_deck_indices", lambda faces, other_corners=False: searches.append(1) or found)
    assert bank.cached_index_boxes(folder, raw) == found and searches == []  # read back, not searched
    raw["AS"] = raw["AS"].copy()
    raw["AS"][0, 0, 0] ^= 1  # other pixels: the saved boxes no longer hold
    bank.cached_index_boxes(folder, raw)
    assert searches == [1]
    (folder / INDEX_BOXES_FILE).write_text("not json")
    assert bank.cached_index_boxes(folder, raw) == found and searches == [1, 1]


@needs_decks
def test_phototiles_generate_from_a_webp_cache_with_the_decks_uninstalled(cache, tmp_path, monkeypatch, capsys):
    from vision.synth import __main__ as synth_cli
    from vision.synth import decks

    from vision.synth.cache_pack import pack_cache

    webp_cache = tmp_path / "cache"
    assert pack_cache(cache, webp_cache) > 0
    assert sorted(p.name for p in webp_cache.iterdir()) == sorted([TEST_TRAIN_DECK, TEST_VAL_DECK])
    assert not list(webp_cache.glob("*/*.png")) and len(list(webp_cache.glob(f"{TEST_VAL_DECK}/*.webp"))) == 52
    assert (webp_cache / TEST_VAL_DECK / INDEX_BOXES_FILE).is_file()  # found on the WebP faces, travels with them
    monkeypatch.setattr(decks, "AISLERIOT_DIR", tmp_path / "no-aisleriot")
    monkeypatch.setattr(decks, "KDE_DIR", tmp_path / "no-kde")
    monkeypatch.setattr(synth_cli, "installed_decks", lambda: [])
    out = tmp_path / "ds"
    status = synth_cli.main(["--out", str(out), "--cache", str(webp_cache), "--seed", "3", "--parts", "phototiles",
                             "--photo-tiles", "24", "--val-fraction", "0.5", "--decks",
                             f"{TEST_TRAIN_DECK},{TEST_VAL_DECK}", "--val-decks", TEST_VAL_DECK, "--workers", "1"])
    assert status == 0, capsys.readouterr().err
    labels = list((out / "phototiles" / "labels" / "train").glob("*.txt"))
    assert labels and sum(bool(p.read_text().strip()) for p in labels) >= len(labels) // 2
