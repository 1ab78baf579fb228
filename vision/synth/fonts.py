"""Fonts for printed-text clutter: TrueType outlines read with a small parser, plus OpenCV's Hershey fonts.

Pillow is not a project dependency, so TrueType glyphs are read here straight from the font files
(`glyf` outlines, `cmap` formats 4 and 12, composite glyphs, `hmtx` advances; no hinting, no kerning)
and filled with `cv2.fillPoly` (anti-aliased, 1/8-pixel precision; OpenCV fills with the even-odd
rule, which matches TrueType's non-zero rule for fonts without overlapping contours, as DejaVu and
Liberation are). Fonts without `glyf` outlines (NotoColorEmoji is a bitmap font) are skipped.

Fonts come from the folders of FONT_DIRS that are installed (DejaVu and Liberation always; 13 more families of
Debian font packages for the fontcrops part's index fonts) and OpenCV's built-in Hershey vector fonts. The
licence of each file is taken from its own `name` table (licence description), else its folder's: DejaVu =
Bitstream Vera / Arev licence (DejaVu changes public domain); Liberation 1.x (Debian fonts-liberation
1.07) = Liberation Fonts licence, i.e. GPL-2 with a font exception, while Liberation 2.x
(fonts-liberation2) and Noto = OFL-1.1. Train and val use disjoint font families (VAL_FAMILIES), so
validation measures text in fonts the classifier has not seen.
"""
from __future__ import annotations

import itertools
import struct
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

FONT_ROOT = Path("/usr/share/fonts")
# folder -> (licence when the font's name table does not say, Debian package). Folders that are not installed are
# skipped: the tests need only DejaVu and Liberation; the other packages add index fonts to the fontcrops part
# (docs/synth.md@538d56c lists the apt command).
FONT_DIRS = {
    "truetype/dejavu": ("Bitstream Vera / Arev fonts licence, DejaVu changes public domain", "fonts-dejavu-core / fonts-dejavu-extra"),
    "truetype/liberation": ("OFL-1.1", "fonts-liberation / fonts-liberation2"),
    "truetype/noto": ("OFL-1.1", "fonts-noto-*"),
    "truetype/comfortaa": ("OFL-1.1", "fonts-comfortaa"),
    "truetype/croscore": ("Apache-2.0", "fonts-croscore"),
    "truetype/crosextra": ("OFL-1.1 (Carlito) / Apache-2.0 (Caladea)", "fonts-crosextra-carlito / fonts-crosextra-caladea"),
    "truetype/freefont": ("GPL-3.0-or-later with font exception", "fonts-freefont-ttf"),
    "truetype/gentium": ("OFL-1.1", "fonts-sil-gentium"),
    "truetype/hack": ("MIT and Bitstream Vera licence", "fonts-hack"),
    "truetype/lato": ("OFL-1.1", "fonts-lato"),
    "truetype/open-sans": ("Apache-2.0", "fonts-open-sans"),
    "truetype/paratype": ("ParaType Free Font Licence", "fonts-paratype"),
    "truetype/quicksand": ("OFL-1.1", "fonts-quicksand"),
    "truetype/roboto/unhinted": ("Apache-2.0", "fonts-roboto-unhinted"),
    "truetype/roboto/unhinted/RobotoTTF": ("Apache-2.0", "fonts-roboto-unhinted"),
    "fonts-go": ("BSD-3-Clause", "fonts-go"),
}
LIBERATION_1_LICENCE = "Liberation Fonts licence (GPL-2 with font exception)"
HERSHEY_LICENCE = "Hershey glyph data built into OpenCV (distributed under OpenCV's Apache-2.0)"
# Families held out for val (whole families, so no weight/slant of a val face is seen in train).
VAL_FAMILIES = {"DejaVuSerifCondensed", "LiberationSansNarrow", "NotoSerif", "NotoSansMono",
                "HersheyTriplex", "HersheyScriptComplex"}
SKIP_STEMS = {"DejaVuMathTeXGyre"}  # a maths font: odd metrics, not body text
# Characters a sheet may use. Card suit symbols (U+2660..2667) are never drawn.
CHARSET = "".join(chr(c) for c in range(32, 127)) + "£€°§©±×·•–—’“”½"
SUIT_SYMBOLS = set("♠♡♢♣♤♥♦♧")
# Characters read from a font's cmap: the text charset, plus the suit symbols for the fontcrops part.
CMAP_CHARS = CHARSET + "".join(sorted(SUIT_SYMBOLS))

HERSHEY_FACES = {
    "HersheySimplex": cv2.FONT_HERSHEY_SIMPLEX,
    "HersheyPlain": cv2.FONT_HERSHEY_PLAIN,
    "HersheyDuplex": cv2.FONT_HERSHEY_DUPLEX,
    "HersheyComplex": cv2.FONT_HERSHEY_COMPLEX,
    "HersheyTriplex": cv2.FONT_HERSHEY_TRIPLEX,
    "HersheyComplexSmall": cv2.FONT_HERSHEY_COMPLEX_SMALL,
    "HersheyScriptSimplex": cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
    "HersheyScriptComplex": cv2.FONT_HERSHEY_SCRIPT_COMPLEX,
}


# ---------------------------------------------------------------------------------------------
# TrueType reading


class TrueType:
    """Glyph outlines and advances of one TrueType font (a .ttf, or the first face of a .ttc)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        data = self.path.read_bytes()
        base = 0
        if data[:4] == b"ttcf":
            base = struct.unpack_from(">I", data, 12)[0]
        num_tables = struct.unpack_from(">H", data, base + 4)[0]
        tables = {}
        for i in range(num_tables):
            tag, _, offset, length = struct.unpack_from(">4sIII", data, base + 12 + 16 * i)
            tables[tag.decode("latin-1")] = (offset, length)
        if not {"glyf", "loca", "cmap", "head", "hmtx", "hhea", "maxp"} <= set(tables):
            raise ValueError(f"{path.name}: no TrueType outlines")
        self.data = data
        self.tables = tables
        head = tables["head"][0]
        self.units_per_em = struct.unpack_from(">H", data, head + 18)[0]
        loc_format = struct.unpack_from(">h", data, head + 50)[0]
        self.num_glyphs = struct.unpack_from(">H", data, tables["maxp"][0] + 4)[0]
        hhea = tables["hhea"][0]
        self.ascent, self.descent = struct.unpack_from(">hh", data, hhea + 4)
        n_metrics = struct.unpack_from(">H", data, hhea + 34)[0]
        hmtx = tables["hmtx"][0]
        advances = struct.unpack_from(f">{2 * n_metrics}H", data, hmtx)[0::2]
        self.advances = list(advances) + [advances[-1]] * max(0, self.num_glyphs - n_metrics)
        loca = tables["loca"][0]
        if loc_format == 0:
            self.loca = [2 * v for v in struct.unpack_from(f">{self.num_glyphs + 1}H", data, loca)]
        else:
            self.loca = list(struct.unpack_from(f">{self.num_glyphs + 1}I", data, loca))
        self.cmap = self._read_cmap()
        self.version = self._name(5)
        self.licence_text = self._name(13)
        self._contours: dict[str, tuple[np.ndarray, ...]] = {}
        self.cap_height = self._ink_height("H")
        self.x_height = self._ink_height("x")

    def _read_cmap(self) -> dict[int, int]:
        data, cmap = self.data, self.tables["cmap"][0]
        n = struct.unpack_from(">H", data, cmap + 2)[0]
        subtables = {}
        for i in range(n):
            platform, encoding, offset = struct.unpack_from(">HHI", data, cmap + 4 + 8 * i)
            subtables[(platform, encoding)] = cmap + offset
        wanted = [ord(c) for c in CMAP_CHARS]
        for key in ((3, 10), (0, 4), (3, 1), (0, 3), (0, 1), (0, 0)):
            if key not in subtables:
                continue
            at = subtables[key]
            fmt = struct.unpack_from(">H", data, at)[0]
            if fmt == 4:
                return self._cmap4(at, wanted)
            if fmt == 12:
                return self._cmap12(at, wanted)
        raise ValueError(f"{self.path.name}: no usable Unicode cmap")

    def _name(self, name_id: int) -> str:
        """A string from the `name` table (Windows Unicode or Mac Roman record), '' when absent."""
        if "name" not in self.tables:
            return ""
        data, at = self.data, self.tables["name"][0]
        count, strings = struct.unpack_from(">HH", data, at + 2)
        for i in range(count):
            platform, _, _, nid, length, offset = struct.unpack_from(">HHHHHH", data, at + 6 + 12 * i)
            if nid != name_id or platform not in (1, 3):
                continue
            raw = data[at + strings + offset:at + strings + offset + length]
            return raw.decode("utf-16-be" if platform == 3 else "latin-1", errors="replace").strip()
        return ""

    def _cmap4(self, at: int, wanted: list[int]) -> dict[int, int]:
        data = self.data
        seg = struct.unpack_from(">H", data, at + 6)[0] // 2
        ends = struct.unpack_from(f">{seg}H", data, at + 14)
        starts = struct.unpack_from(f">{seg}H", data, at + 16 + 2 * seg)
        deltas = struct.unpack_from(f">{seg}h", data, at + 16 + 4 * seg)
        range_at = at + 16 + 6 * seg
        ranges = struct.unpack_from(f">{seg}H", data, range_at)
        out = {}
        for c in wanted:
            for s in range(seg):
                if ends[s] >= c:
                    if starts[s] > c:
                        break
                    if ranges[s] == 0:
                        g = (c + deltas[s]) & 0xFFFF
                    else:
                        g = struct.unpack_from(">H", data, range_at + 2 * s + ranges[s] + 2 * (c - starts[s]))[0]
                        g = (g + deltas[s]) & 0xFFFF if g else 0
                    if g:
                        out[c] = g
                    break
        return out

    def _cmap12(self, at: int, wanted: list[int]) -> dict[int, int]:
        n = struct.unpack_from(">I", self.data, at + 12)[0]
        groups = [struct.unpack_from(">III", self.data, at + 16 + 12 * i) for i in range(n)]
        out = {}
        for c in wanted:
            for start, end, glyph in groups:
                if start <= c <= end:
                    out[c] = glyph + c - start
                    break
        return out

    def _ink_height(self, ch: str) -> float:
        contours = self.contours(ch)
        if not contours:
            return 0.7 * self.units_per_em
        return float(max(c[:, 1].max() for c in contours))

    def has(self, ch: str) -> bool:
        return ord(ch) in self.cmap

    def advance(self, ch: str) -> float:
        g = self.cmap.get(ord(ch), 0)
        return float(self.advances[g])

    def contours(self, ch: str) -> tuple[np.ndarray, ...]:
        """Closed polygons of a character in font units (y up), curves flattened (cached per font)."""
        got = self._contours.get(ch)
        if got is None:
            g = self.cmap.get(ord(ch), 0)
            got = tuple(self._glyph(g, 0)) if g else ()
            self._contours[ch] = got
        return got

    def _glyph(self, g: int, depth: int) -> list[np.ndarray]:
        if depth > 4 or g >= self.num_glyphs:
            return []
        start, end = self.loca[g], self.loca[g + 1]
        if end <= start:
            return []
        data, at = self.data, self.tables["glyf"][0] + start
        n_contours = struct.unpack_from(">h", data, at)[0]
        if n_contours < 0:
            return self._composite(at + 10, depth)
        ends = struct.unpack_from(f">{n_contours}H", data, at + 10)
        n_points = ends[-1] + 1 if n_contours else 0
        p = at + 10 + 2 * n_contours
        p += 2 + struct.unpack_from(">H", data, p)[0]  # skip instructions
        flags = []
        while len(flags) < n_points:
            f = data[p]
            p += 1
            flags.append(f)
            if f & 8:
                flags.extend([f] * data[p])
                p += 1
        flags = flags[:n_points]
        coords = []
        for short, same in ((2, 16), (4, 32)):
            values, v = [], 0
            for f in flags:
                if f & short:
                    d = data[p]
                    p += 1
                    v += d if f & same else -d
                elif not f & same:
                    v += struct.unpack_from(">h", data, p)[0]
                    p += 2
                values.append(v)
            coords.append(values)
        xs, ys = coords
        out, first = [], 0
        for last in ends:
            pts = [(xs[i], ys[i], flags[i] & 1) for i in range(first, last + 1)]
            first = last + 1
            if len(pts) >= 2:
                out.append(_flatten(pts))
        return out

    def _composite(self, p: int, depth: int) -> list[np.ndarray]:
        data, out = self.data, []
        while True:
            flags, glyph = struct.unpack_from(">HH", data, p)
            p += 4
            if flags & 1:
                a, b = struct.unpack_from(">hh", data, p)
                p += 4
            else:
                a, b = struct.unpack_from(">bb", data, p)
                p += 2
            if not flags & 2:  # anchored by point numbers: rare in Latin text glyphs, place at 0
                a = b = 0
            m = np.eye(2)
            if flags & 8:
                m *= struct.unpack_from(">h", data, p)[0] / 16384
                p += 2
            elif flags & 0x40:
                sx, sy = struct.unpack_from(">hh", data, p)
                m = np.diag([sx / 16384, sy / 16384])
                p += 4
            elif flags & 0x80:
                xx, xy, yx, yy = struct.unpack_from(">hhhh", data, p)
                m = np.array([[xx, yx], [xy, yy]]) / 16384
                p += 8
            for c in self._glyph(glyph, depth + 1):
                out.append(c @ m.T + [a, b])
            if not flags & 0x20:
                return out


def _flatten(pts: list[tuple[int, int, int]], steps: int = 5) -> np.ndarray:
    """A TrueType contour (on/off-curve points, quadratic B-splines) as a polygon."""
    n = len(pts)
    # Start from an on-curve point (or the midpoint of two off-curve ones).
    start = next((i for i, q in enumerate(pts) if q[2]), None)
    if start is None:
        p0 = ((pts[0][0] + pts[1][0]) / 2, (pts[0][1] + pts[1][1]) / 2)
        seq = pts[1:] + pts[:1]
    else:
        p0 = pts[start][:2]
        seq = pts[start + 1:] + pts[:start]
    seq = seq + [(p0[0], p0[1], 1)]
    out = [p0]
    cur = p0
    ctrl = None
    t = np.linspace(0, 1, steps + 1)[1:, None]
    for x, y, on in seq:
        if on:
            if ctrl is None:
                out.append((x, y))
            else:
                out.extend(_quad(cur, ctrl, (x, y), t))
                ctrl = None
            cur = (x, y)
        else:
            if ctrl is not None:
                mid = ((ctrl[0] + x) / 2, (ctrl[1] + y) / 2)
                out.extend(_quad(cur, ctrl, mid, t))
                cur = mid
            ctrl = (x, y)
    if n and ctrl is not None:
        out.extend(_quad(cur, ctrl, p0, t))
    return np.array(out, np.float64)


def _quad(p0, p1, p2, t: np.ndarray) -> list[tuple[float, float]]:
    a, b, c = np.array(p0), np.array(p1), np.array(p2)
    pts = (1 - t) ** 2 * a + 2 * (1 - t) * t * b + t ** 2 * c
    return [tuple(p) for p in pts]


# ---------------------------------------------------------------------------------------------
# Font registry


@dataclass(frozen=True)
class FontInfo:
    name: str  # file stem, or HersheyXxx[-Italic]
    family: str
    kind: str  # "ttf" | "hershey"
    path: str  # font file, or "" for Hershey
    licence: str
    package: str
    bold: bool
    italic: bool
    mono: bool
    script: bool  # handwriting-like
    version: str = ""


def _licence(tt: TrueType, default: str) -> str:
    """Short licence name from the font's own licence description (name ID 13)."""
    text = tt.licence_text.lower()
    if "open font license" in text or "ofl" in text:
        return "OFL-1.1"
    if "liberation fonts license" in text:
        return LIBERATION_1_LICENCE
    if "bitstream" in text:
        return "Bitstream Vera / Arev fonts licence, DejaVu changes public domain"
    return default


def _family(stem: str) -> str:
    return stem.split("-")[0]


def _style(stem: str) -> tuple[bool, bool]:
    s = stem.lower()
    return "bold" in s, ("italic" in s or "oblique" in s)


@lru_cache(maxsize=1)
def all_fonts() -> tuple[FontInfo, ...]:
    """Every usable font on this machine, sorted by name (deterministic)."""
    fonts = []
    for folder, (licence, package) in FONT_DIRS.items():
        for path in sorted((FONT_ROOT / folder).glob("*.tt[fc]")):
            if _family(path.stem) in SKIP_STEMS:
                continue
            try:
                tt = load_truetype(str(path))
            except (ValueError, struct.error, IndexError):
                continue
            if not all(tt.has(c) for c in "AKQJ0123456789abcxyz"):
                continue
            bold, italic = _style(path.stem)
            fonts.append(FontInfo(path.stem, _family(path.stem), "ttf", str(path), _licence(tt, licence), package,
                                  bold, italic, "mono" in path.stem.lower(), False, tt.version))
    # (OpenCV's FONT_ITALIC flag changes nothing in the installed build, so no italic Hershey faces.)
    for family in HERSHEY_FACES:
        fonts.append(FontInfo(family, family, "hershey", "", HERSHEY_LICENCE, "opencv-python-headless",
                              "Duplex" in family or "Triplex" in family, False, family == "HersheyPlain",
                              "Script" in family, cv2.__version__))
    return tuple(sorted(fonts, key=lambda f: f.name))


def fonts_for(split: str) -> tuple[FontInfo, ...]:
    """Train fonts and val fonts: disjoint by family (VAL_FAMILIES)."""
    val = split == "val"
    return tuple(f for f in all_fonts() if (f.family in VAL_FAMILIES) == val)


def ttf_fonts_for(split: str) -> tuple[FontInfo, ...]:
    """The split's TrueType faces (no Hershey): what the fontcrops part draws card indices with."""
    return tuple(f for f in fonts_for(split) if f.kind == "ttf")


CARD_SUIT_CHARS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
REFERENCE_SUIT_FACE = "DejaVuSans"


def _suit_raster(tt: "TrueType", ch: str, size: int = 32) -> np.ndarray:
    """The glyph's ink fitted into the middle of a size x size square (aspect kept), as a 0/1 float mask."""
    contours = tt.contours(ch)
    pts = np.concatenate(contours)
    low, high = pts.min(axis=0), pts.max(axis=0)
    scale = (size - 4) / max(float((high - low).max()), 1e-6)
    offset = (size - (high - low) * scale) / 2
    img = np.zeros((size, size), np.uint8)
    fill_outline(img, [np.stack([(c[:, 0] - low[0]) * scale + offset[0], (high[1] - c[:, 1]) * scale + offset[1]], axis=1)
                       for c in contours], 255)
    return img.astype(np.float32) / 255


@lru_cache(maxsize=None)
def draws_card_suits(path: str) -> bool:
    """Whether the face has the four suit symbols and draws them as those suits: of the 24 ways to match its four
    glyphs to the reference face's four, matching each to its own symbol must overlap most. FreeSerif Bold draws
    U+2660 as a club and U+2663 as a spade, which would label a drawn club a spade; a thin-lobed club (Go Mono) may
    be nearer another reference glyph on its own, so glyphs are not judged one at a time."""
    return suit_glyphs_in_order(load_truetype(path))


def suit_glyphs_in_order(tt: "TrueType") -> bool:
    """draws_card_suits for a loaded face."""
    if not all(tt.has(c) for c in CARD_SUIT_CHARS.values()):
        return False
    reference = next((f.path for f in all_fonts() if f.name == REFERENCE_SUIT_FACE), None)
    if reference is None:
        return True
    ref = [_suit_raster(load_truetype(reference), c) for c in CARD_SUIT_CHARS.values()]
    mine = [_suit_raster(tt, c) for c in CARD_SUIT_CHARS.values()]
    overlap = np.array([[float((m * r).sum() / max(np.maximum(m, r).sum(), 1e-6)) for r in ref] for m in mine])
    best = max(itertools.permutations(range(4)), key=lambda order: sum(overlap[i, j] for i, j in enumerate(order)))
    return best == (0, 1, 2, 3)


def suit_faces_for(split: str) -> tuple[FontInfo, ...]:
    """The split's TrueType faces that draw the four card suits right (draws_card_suits)."""
    return tuple(f for f in ttf_fonts_for(split) if draws_card_suits(f.path))


def manifest_record(fonts_of=fonts_for) -> dict:
    """The manifest's fonts per split (fonts_of(split)), their licences and the val families."""
    splits = ("train", "val")
    used = {split: [{"name": f.name, "family": f.family, "file": f.path or "(OpenCV Hershey)", "version": f.version,
                     "package": f.package, "license": f.licence} for f in fonts_of(split)] for split in splits}
    licences = sorted({(Path(f.path).parent.name if f.path else "hershey (OpenCV)", f.licence)
                       for split in splits for f in fonts_of(split)})
    return {"fonts": used, "font_licences": [f"{name}: {licence}" for name, licence in licences],
            "val_font_families": sorted(VAL_FAMILIES)}


@lru_cache(maxsize=512)  # above the faces installed (~160 with every FONT_DIRS package), or every draw re-parses
def load_truetype(path: str) -> TrueType:
    return TrueType(Path(path))


# ---------------------------------------------------------------------------------------------
# Drawing


@dataclass
class Glyph:
    ch: str
    quad: np.ndarray  # 4x2 corners of the ink box (sheet pixels), clockwise from top-left
    line: int  # text line number on the sheet, for neighbourhood queries


class Pen:
    """Draws text in one font at a given cap height onto a BGR uint8 image and records glyph boxes."""

    def __init__(self, font: FontInfo, cap_px: float, weight: float = 0.0) -> None:
        self.font = font
        self.cap_px = float(cap_px)
        self.weight = weight  # extra stroke width in pixels (faux bold / pen pressure)
        if font.kind == "ttf":
            self.tt = load_truetype(font.path)
            self.scale = self.cap_px / max(self.tt.cap_height, 1.0)
            self.hershey_scale = 0.0
            self.thickness = 0
        else:
            self.tt = None
            face = HERSHEY_FACES[font.family]
            self.face = face
            ink = _hershey_ink(face, "H", 4.0, 1)
            self.hershey_scale = self.cap_px / max((ink[3] - ink[1]) / 4.0, 1.0)
            stroke = (1.5 if font.bold else 1.0) * self.cap_px / 15 + weight
            self.thickness = max(1, int(round(stroke)))
            self.scale = 0.0

    @property
    def line_height(self) -> float:
        return self.cap_px * 1.45

    def advance(self, ch: str) -> float:
        if self.tt is not None:
            return self.tt.advance(ch) * self.scale if self.tt.has(ch) else self.cap_px * 0.6
        return float(_hershey_size(self.face, ch, round(self.hershey_scale, 3), self.thickness)[0])

    def width(self, text: str) -> float:
        return sum(self.advance(c) for c in text)

    def draw(self, img: np.ndarray, text: str, x: float, y: float, colour, line: int = 0,
             rng: np.random.Generator | None = None, wobble: float = 0.0, slant: float = 0.0) -> list[Glyph]:
        """Draw `text` with its baseline starting at (x, y). Returns the glyphs with ink (no spaces).

        wobble: handwriting jitter (fraction of the cap height) of each glyph's position and angle;
        slant: extra shear (tan of the angle) for TrueType faces.
        """
        glyphs: list[Glyph] = []
        for ch in text:
            if ch in SUIT_SYMBOLS:
                continue
            adv = self.advance(ch)
            if ch != " ":
                dx = dy = rot = 0.0
                if wobble and rng is not None:
                    dx, dy = rng.normal(0, wobble * self.cap_px, 2)
                    rot = float(rng.normal(0, wobble * 0.6))
                quad = (self._draw_ttf(img, ch, x + dx, y + dy, colour, rot, slant) if self.tt is not None
                        else self._draw_hershey(img, ch, x + dx, y + dy, colour))
                if quad is not None:
                    glyphs.append(Glyph(ch, quad, line))
            x += adv
        return glyphs

    def _draw_ttf(self, img, ch, x, y, colour, rot, slant):
        contours = self.tt.contours(ch)
        if not contours:
            return None
        s = self.scale
        c, sn = np.cos(rot), np.sin(rot)
        # font units (y up) -> pixels: scale, flip y, shear, rotate, move
        m = np.array([[s, -s * slant], [0.0, -s]])
        m = np.array([[c, -sn], [sn, c]]) @ m
        polys = [c_ @ m.T + [x, y] for c_ in contours]
        fill_outline(img, polys, colour, self.weight)
        allp = np.concatenate(polys)
        pad = self.weight / 2
        x0, y0 = allp.min(axis=0) - pad
        x1, y1 = allp.max(axis=0) + pad
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])

    def _draw_hershey(self, img, ch, x, y, colour):
        if not (32 < ord(ch) < 127):
            return None
        cv2.putText(img, ch, (int(round(x)), int(round(y))), self.face, self.hershey_scale, colour, self.thickness,
                    cv2.LINE_AA)
        box = _hershey_ink(self.face, ch, round(self.hershey_scale, 3), self.thickness)
        if box is None:
            return None
        x0, y0, x1, y1 = box
        return np.array([[x + x0, y + y0], [x + x1, y + y0], [x + x1, y + y1], [x + x0, y + y1]], np.float64)


def text_outlines(tt: "TrueType", text: str, scale: float, aspect: float = 1.0, slant: float = 0.0,
                  spacing: float = 1.0) -> list[list[np.ndarray]]:
    """Outline polygons (pixels, y down, baseline at y=0) of each character of `text`: `scale` pixels per font unit,
    widths times `aspect`, x sheared by `slant` per unit of height, advances times `spacing`."""
    m = np.array([[scale * aspect, scale * slant], [0.0, -scale]])
    x, out = 0.0, []
    for ch in text:
        out.append([c @ m.T + [x, 0.0] for c in tt.contours(ch)])
        x += tt.advance(ch) * scale * aspect * spacing
    return out


def outlines_bounds(glyphs: list[list[np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """(min, max) corner of the glyphs' polygons."""
    pts = np.concatenate([p for g in glyphs for p in g])
    return pts.min(axis=0), pts.max(axis=0)


def moved_outlines(glyphs: list[list[np.ndarray]], offset: "np.typing.ArrayLike") -> list[list[np.ndarray]]:
    """The glyphs' polygons shifted by `offset` (x, y pixels)."""
    return [[p + offset for p in g] for g in glyphs]


def fill_outline(img: np.ndarray, polys: list[np.ndarray], colour, weight: float = 0.0) -> None:
    """Fill a glyph's closed polygons (pixels, float) anti-aliased at 1/8 px; weight > 0.3 px also strokes
    the outline that wide (faux bold)."""
    pts = [np.round(p * 8).astype(np.int32) for p in polys]
    cv2.fillPoly(img, pts, colour, lineType=cv2.LINE_AA, shift=3)
    if weight > 0.3:
        cv2.polylines(img, pts, True, colour, max(1, int(round(weight))), lineType=cv2.LINE_AA, shift=3)


@lru_cache(maxsize=4096)
def _hershey_size(face: int, ch: str, scale: float, thickness: int) -> tuple[int, int]:
    (w, h), _ = cv2.getTextSize(ch, face, scale, thickness)
    return w, h


@lru_cache(maxsize=8192)
def _hershey_ink(face: int, ch: str, scale: float, thickness: int) -> tuple[int, int, int, int] | None:
    """Ink box of one Hershey character relative to its baseline origin."""
    (w, h), base = cv2.getTextSize(ch, face, scale, thickness)
    pad = thickness + 4
    canvas = np.zeros((h + base + 2 * pad + int(h * 0.6), w + 2 * pad + int(h * 0.6)), np.uint8)
    ox, oy = pad + int(h * 0.3), pad + h + int(h * 0.3)
    cv2.putText(canvas, ch, (ox, oy), face, scale, 255, thickness, cv2.LINE_8)
    ys, xs = np.nonzero(canvas)
    if not len(xs):
        return None
    return int(xs.min()) - ox, int(ys.min()) - oy, int(xs.max()) + 1 - ox, int(ys.max()) + 1 - oy
