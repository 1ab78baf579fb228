"""Index classifier: crops cut with the shared crop rule (vision.crops), one batched ONNX run, softmax; where a
partner network is shipped, the mean of the two's probabilities."""
from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from vision.crops import CLASS_NAMES, index_crop
from vision.onnx_session import create_session
from vision.errors import ModelError

if TYPE_CHECKING:
    from onnxruntime import InferenceSession

# Measured in docs/reader-decisions.md@538d56c [classify].
# Crops named with less than this are classified again turned by 90, 180 and 270 degrees and the four answers
# averaged (the classifier was trained on indices at any angle).
ROTATION_VOTE_BELOW = 0.8
# Crops named with ROTATION_VOTE_BELOW up to this are turned too, as a check: the four turns' mean replaces the reading
# only where it names another class (a misread suit is then left out as unsure rather than read wrong surely).
ROTATION_CHECK_BELOW = 0.9
# Crops still unsure after the turns can be classified again from boxes scaled by these factors about their centre,
# the answers averaged. Off in the reader (it cost real recall on small, soft indices); a knob for candidates
# (`vision evaluate --scale-vote`).
SCALE_VOTE: tuple[float, ...] = ()
# ...and then only for boxes at least this long, in pixels of the picture classified (`vision evaluate
# --scale-vote-min-px`): small indices have too few pixels for a rescaled crop to add anything but blur. A closer
# look's picture is enlarged, so its small boxes count as large (session 45: no form of the vote kept).
SCALE_VOTE_MIN_PX = 0.0


def softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    return exp / exp.sum(axis=1, keepdims=True)


def crops_to_input(crops: list[np.ndarray]) -> np.ndarray:
    """48x48 BGR uint8 crops → float32 Nx3x48x48 in 0..1, channels kept in BGR order."""
    batch = np.stack(crops).astype(np.float32) / np.float32(255.0)
    return np.ascontiguousarray(batch.transpose(0, 3, 1, 2))


def takes_turned_mean(probs: np.ndarray, votes: np.ndarray, rotation_vote_below: float) -> np.ndarray:
    """Which crops, among those turned (named under the check threshold), take their four turns' mean `votes`
    instead of `probs` (both (N, classes)): the unsure ones, and the checked ones whose mean names another class."""
    return (probs.max(axis=1) < rotation_vote_below) | (votes.argmax(axis=1) != probs.argmax(axis=1))


def scaled_boxes(boxes: np.ndarray, factor: float) -> np.ndarray:
    """x1y1x2y2 boxes scaled by `factor` about their centres."""
    boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
    centre = (boxes[:, :2] + boxes[:, 2:]) / 2
    half = (boxes[:, 2:] - boxes[:, :2]) * factor / 2
    return np.hstack([centre - half, centre + half])


class IndexClassifier:
    """Names the card of each index box (52 codes + `none`); thread-safe."""

    def __init__(self, model_path: Path, *, partner_path: Path | None = None,
                 scale_vote: tuple[float, ...] = SCALE_VOTE, scale_vote_min_px: float = SCALE_VOTE_MIN_PX,
                 rotation_check_below: float = ROTATION_CHECK_BELOW):
        """`partner_path`: a second network whose probabilities are averaged with this one's on every crop (the
        shipped pair's partner, trained from its own start so that it fails elsewhere: docs/reader-decisions.md@538d56c,
        partner classifier)."""
        self.scale_vote = scale_vote
        self.scale_vote_min_px = scale_vote_min_px
        self.rotation_check_below = rotation_check_below
        self.session = _checked_session(model_path)
        self.input_name = self.session.get_inputs()[0].name
        self.partner = None if partner_path is None else _checked_session(partner_path)
        self.partner_input_name = None if self.partner is None else self.partner.get_inputs()[0].name

    def probabilities(self, image: np.ndarray, boxes: np.ndarray,
                      rotation_vote_below: float = ROTATION_VOTE_BELOW) -> np.ndarray:
        """Class probabilities (N, 53) for index boxes (N,4, pixels of `image`).

        Unsure crops (top probability < rotation_vote_below) get the mean over four quarter turns, and those still
        unsure and at least `self.scale_vote_min_px` long the mean over their box and the box scaled by each of
        `self.scale_vote` (each with its own turns); crops up to `self.rotation_check_below` take the turns' mean only
        where it names another class; rotation_vote_below 0 turns all three off.
        """
        probs = self._turned_vote(image, boxes, rotation_vote_below)
        if not self.scale_vote:
            return probs
        boxes = np.asarray(boxes, np.float64).reshape(-1, 4)
        long_sides = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
        unsure = np.flatnonzero((probs.max(axis=1) < rotation_vote_below) & (long_sides >= self.scale_vote_min_px))
        if len(unsure):
            votes = probs[unsure] + sum(
                self._turned_vote(image, scaled_boxes(boxes[unsure], factor), rotation_vote_below)
                for factor in self.scale_vote)
            probs[unsure] = votes / (1 + len(self.scale_vote))
        return probs

    def _turned_vote(self, image: np.ndarray, boxes: np.ndarray, rotation_vote_below: float) -> np.ndarray:
        """One batched run over the boxes' crops; the unsure ones averaged over their four quarter turns, the checked
        ones (up to rotation_check_below) replaced by that mean only where it names another class."""
        if len(boxes) == 0:
            return np.zeros((0, len(CLASS_NAMES)), np.float32)
        batch = crops_to_input([index_crop(image, box) for box in boxes])
        probs = self.probabilities_as_cut(batch)
        top = probs.max(axis=1)
        check_below = max(self.rotation_check_below, rotation_vote_below) if rotation_vote_below > 0 else 0.0
        turned_ids = np.flatnonzero(top < check_below)
        if len(turned_ids):
            turned = [np.rot90(batch[turned_ids], quarter, axes=(2, 3)) for quarter in (1, 2, 3)]
            turned_probs = self.probabilities_as_cut(np.ascontiguousarray(np.concatenate(turned)))
            votes = (probs[turned_ids] + turned_probs.reshape(3, len(turned_ids), -1).sum(axis=0)) / 4
            take = takes_turned_mean(probs[turned_ids], votes, rotation_vote_below)
            probs[turned_ids[take]] = votes[take]
        return probs

    def probabilities_as_cut(self, batch: np.ndarray) -> np.ndarray:
        """Class probabilities (N, 53) of a batch of crops as cut (crops_to_input), one run, no turns: the
        classifier's softmax, averaged with its partner's where it has one."""
        probs = _probabilities(self.session, self.input_name, batch)
        if self.partner is not None:
            # the plain mean: a normalised product made wrong names surer where both lean the same way (session 55)
            probs = (probs + _probabilities(self.partner, self.partner_input_name, batch)) / 2
        return probs


def _checked_session(model_path: Path) -> InferenceSession:
    """An ONNX Runtime session of a classifier with CLASS_NAMES' outputs in their order (ModelError otherwise)."""
    session = create_session(model_path)
    classes = session.get_outputs()[0].shape[-1]
    if isinstance(classes, int) and classes != len(CLASS_NAMES):
        raise ModelError(f"classifier {model_path.name} has {classes} outputs, expected {len(CLASS_NAMES)}")
    recorded = session.get_modelmeta().custom_metadata_map.get("classes")
    if recorded is not None and json.loads(recorded) != CLASS_NAMES:
        raise ModelError(f"classifier {model_path.name} was trained with another class order than vision.crops")
    return session


def _probabilities(session: InferenceSession, input_name: str, batch: np.ndarray) -> np.ndarray:
    (logits,) = session.run(None, {input_name: batch})[:1]
    return softmax(logits.astype(np.float32))
