"""The region of a far layout, cut out and enlarged for a second look."""
import numpy as np

from vision.zoom import MARGIN_INDEX_SIZES, TARGET_INDEX_PX, layout_region, zoomed_region


def test_region_reaches_beyond_the_indices_and_stays_inside_the_image():
    boxes = np.array([[500, 400, 510, 412], [700, 600, 710, 612]], float)
    x1, y1, x2, y2 = layout_region(boxes, 12.0, (1500, 2000, 3))
    assert (x1, y1) == (500 - MARGIN_INDEX_SIZES * 12, 400 - MARGIN_INDEX_SIZES * 12)
    assert (x2, y2) == (710 + MARGIN_INDEX_SIZES * 12, 612 + MARGIN_INDEX_SIZES * 12)
    assert layout_region(np.array([[5, 5, 15, 15]], float), 12.0, (100, 120)) == (0, 0, 87, 87)


def test_small_region_is_enlarged_so_indices_reach_the_target_size():
    image = np.zeros((1500, 2000, 3), np.uint8)
    picture, factor, input_side = zoomed_region(image, (800, 600, 1000, 750), 8.0, (640, 1024))
    # 200 px wide with 8 px indices: 600 px wanted, raised to the smallest input side 640
    assert input_side == 640 and factor == 640 / 200
    assert picture.shape[:2] == (480, 640)


def test_large_region_is_not_enlarged_and_the_input_side_is_capped():
    image = np.zeros((1500, 2000, 3), np.uint8)
    picture, factor, input_side = zoomed_region(image, (0, 0, 2000, 1500), 10.0, (640, 1024))
    # 2000 px * 24 / 10 would be 4800: capped at 1024, so the detector shrinks the region
    assert factor == 1.0 and input_side == 1024 and picture.shape[:2] == (1500, 2000)
    _, _, side = zoomed_region(image, (0, 0, 1000, 800), 1000 * TARGET_INDEX_PX / 700, (640, 1024))
    assert side == 672  # 700 rounded down to a multiple of 32
