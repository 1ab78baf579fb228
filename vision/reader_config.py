"""The reader's settings in one typed object (vision.reader.CardReader). Each default is the constant its module owns,
measured where that module says; `vision evaluate` and the training tools vary them through these fields."""
from __future__ import annotations

from dataclasses import dataclass

from vision.classifier import SCALE_VOTE, SCALE_VOTE_MIN_PX
from vision.looks import (DETECTION_SIZES, DETECTOR_SCORE_THRESHOLD, FAINT_BOX_MIN_PROBABILITY, FAINT_BOX_SCORE,
                          NONE_SURE_PROBABILITY, UNNAMED_BOX_SCORE)
from vision.results import FILL_MIN_CONFIDENCE, MIN_CARD_CONFIDENCE
from vision.sureness import SURE_CHANCE

# Crops are cut from a copy at least this long (JPEGs are decoded at 1/2, 1/4 or 1/8 size when bigger).
CROP_SOURCE_LONG_SIDE = 1920


@dataclass(frozen=True)
class ReaderConfig:
    # where and how the models look (vision.looks, vision.classifier)
    detection_sizes: tuple[int, ...] = DETECTION_SIZES
    crop_source_long_side: int = CROP_SOURCE_LONG_SIDE
    score_threshold: float = DETECTOR_SCORE_THRESHOLD
    faint_box_score: float = FAINT_BOX_SCORE
    faint_box_min_probability: float = FAINT_BOX_MIN_PROBABILITY
    unnamed_box_score: float = UNNAMED_BOX_SCORE
    none_sure_probability: float = NONE_SURE_PROBABILITY
    scale_vote: tuple[float, ...] = SCALE_VOTE
    scale_vote_min_px: float = SCALE_VOTE_MIN_PX
    # which cards a read keeps (vision.results)
    min_card_confidence: float = MIN_CARD_CONFIDENCE
    fill_min_confidence: float = FILL_MIN_CONFIDENCE
    # which cards a read names surely (vision.sureness): the one threshold of the result's `sure` flag
    sure_chance: float = SURE_CHANCE
    # the second-read passes (vision.passes), each on unless switched off
    balance_casts: bool = True          # passes.balanced
    read_four_colours: bool = True      # passes.two_colour (and the first look's put-off larger look)
    sharpen_blurred: bool = True        # passes.sharpened
    unsqueeze_short_reads: bool = True  # passes.stretched
    second_opinion: bool = True         # passes.second_opinion, where models/ ships the second classifier
    partner_classifier: bool = True     # the classifier's partner averaged in, where models/ ships it
    spare_looks: bool = True            # vision.looks: no look where one measured to change nothing suffices
