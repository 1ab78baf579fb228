"""Paper with printed or handwritten text: book pages, notes on ruled paper, score sheets, receipts,
forms, calendars and big-letter sheets with small shapes (never suit symbols).

`document(rng, fonts, h, w, cap_px)` returns a Sheet: the paper image plus the ink box of every glyph
drawn (and of letter + shape pairs), so that crops can be cut around single characters at the size of
a card index. Used for `none` crops (parts.textcrops) and as background paper in scenes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.synth import textures
from vision.synth.fonts import FontInfo, Glyph, Pen

Rng = np.random.Generator

WORDS = """the and of to in is it you that was for on are with as his they be at one have this from or had
by word but what some we can out other were all there when up use your how said an each she which do their
time if will way about many then them write would like so these her long make thing see him two has look
more day could go come did number sound no most people my over know water than call first who may down side
been now find any new work part take get place made live where after back little only round man year came
show every good me give our under name very through just form great think say help low line turn cause much
mean before move right old too same tell does set three want air well also play small end put home read hand
port large spell add even land here must big high such follow act why ask men change went light kind off need
house picture try us again point mother world near build self earth father head stand own page should country
found answer school grow study still learn plant cover food sun four between state keep eye never last let
thought city tree cross farm hard start might story saw far sea draw left late run while press close night
real life few north open seem together next white children begin got walk example ease paper group always
music those both mark often letter until mile river car feet care second book carry took science eat room
friend began idea fish mountain stop once base hear horse cut sure watch colour face wood main enough plain
girl usual young ready above ever red list though feel talk bird soon body dog family direct pose leave song
measure door product black short numeral class wind question happen complete ship area half rock order fire
south problem piece told knew pass since top whole king space heard best hour better true during hundred five
remember step early hold west ground interest reach fast verb sing listen six table travel less morning ten
simple several vowel toward war lay against pattern slow centre love person money serve appear road map rain
rule govern pull cold notice voice unit power town fine certain fly fall lead cry dark machine note wait plan
figure star box noun field rest correct able pound done beauty drive stood contain front teach week final gave
green oh quick develop ocean warm free minute strong special mind behind clear tail produce fact street inch
multiply nothing course stay wheel full force blue object decide surface deep moon island foot system busy
test record boat common gold possible plane stead dry wonder laugh thousand ago ran check game shape equate
hot miss brought heat snow tire bring yes distant fill east paint language among quiz jazz jacket queue
kettle knock kayak quota jury judge quarter kilo okay""".split()
CARD_WORDS = """ace king queen jack ten nine eight seven hearts spades clubs diamonds poker big two chinese
flush straight full house pair trips quads royal dealer player round score total points win lose pass fold
call raise bet pot hand deck shuffle deal bonus foul scoop front middle back kicker high card joker trump
bridge rummy solitaire blackjack tricks bid dummy vul game set match""".split()
NAMES = """Alice Ben Kate Jack Quinn Tom Ann Ken Joe Kim Jill Amy Kai Zoe Leo Max Sam Jo Kay Al Ted Abe Quincy
Karen Julia Quentin Anna Kevin James Queenie Alex Kurt Jane Amir Khan Jun Ah Kit Wai Ming Tak Yan Lok""".split()
MONTHS = "JAN FEB MAR APR MAY JUN JUL AUG SEP OCT NOV DEC".split()
DAYS = "MON TUE WED THU FRI SAT SUN".split()
RECEIPT_ITEMS = """COFFEE TEA MILK BREAD EGGS JAM JUICE WATER SODA CHIPS NUTS APPLE KIWI BANANA RICE NOODLES SOUP
TOAST CAKE COOKIE SANDWICH BURGER FRIES SALAD PIZZA BEER WINE SNACK CANDY GUM BATTERY CARDS TISSUE""".split()
# Characters a card index is made of: these are the ones the classifier confuses.
TRAP_TOKENS = ["A", "K", "Q", "J", "T", "10", "2", "3", "4", "5", "6", "7", "8", "9", "A", "K", "Q", "J", "10"]
# Marks drawn beside or below letters. No filled square (turned 45 degrees with the sheet it is a
# diamond), no outlined square and no filled disc (a blob the size of a suit): nothing that can pass
# for a suit symbol at any rotation. A dot is a small bullet, well under the size of a suit.
SHAPES = ["ring", "dot", "star", "check", "cross", "plus", "bar", "asterisk", "arrow"]
SHAPES_BELOW = ["ring", "star", "check", "cross", "plus", "bar", "asterisk", "arrow"]


@dataclass
class Sheet:
    image: np.ndarray  # BGR uint8 paper, ink included
    glyphs: list[Glyph]  # every character drawn
    extras: list[np.ndarray] = field(default_factory=list)  # 4x2 quads: a letter with a shape beside/below
    cap_px: float = 0.0  # the body text cap height


def _log_uniform(rng: Rng, lo: float, hi: float) -> float:
    return float(math.exp(rng.uniform(math.log(lo), math.log(hi))))


# ---------------------------------------------------------------------------------------------
# Paper and ink


def paper(rng: Rng, h: int, w: int, kind: str | None = None) -> np.ndarray:
    """A sheet of paper, float32 BGR: white, cream, grey recycled, newsprint, sticky-note yellow or pastel."""
    kind = kind or str(rng.choice(["white", "white", "white", "cream", "cream", "grey", "news", "yellow", "pastel",
                                   "thermal"]))
    if kind == "white":
        base = np.full(3, rng.uniform(225, 255))
    elif kind == "cream":
        base = np.array([rng.uniform(195, 225), rng.uniform(225, 242), rng.uniform(238, 252)])
    elif kind == "grey":
        base = np.full(3, rng.uniform(185, 225))
    elif kind == "news":
        base = np.array([rng.uniform(185, 205), rng.uniform(200, 218), rng.uniform(208, 225)])
    elif kind == "yellow":
        base = np.array([rng.uniform(100, 160), rng.uniform(215, 240), rng.uniform(240, 255)])
    elif kind == "thermal":
        base = np.array([rng.uniform(228, 245), rng.uniform(228, 242), rng.uniform(222, 238)])
    else:  # pastel note paper
        base = rng.uniform(215, 250, 3)
    base = base + rng.normal(0, 3, 3)
    shade = 1 + rng.uniform(0.02, 0.08) * (textures.fractal_noise(rng, h, w, rng.uniform(40, 300), 3) - 0.5)
    fibre = cv2.GaussianBlur(rng.standard_normal((h, w), dtype=np.float32), (0, 0), rng.uniform(0.6, 1.5))
    shade = shade + rng.uniform(0.0, 0.05) * fibre
    img = base.astype(np.float32)[None, None, :] * shade[:, :, None]
    if rng.random() < 0.15:  # a fold crease
        p = rng.uniform(0, 1, 2) * [w, h]
        a = rng.uniform(0, np.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        d = (xx - p[0]) * np.sin(a) - (yy - p[1]) * np.cos(a)
        img *= (1 - rng.uniform(0.03, 0.1) * np.exp(-(d / rng.uniform(1, 4)) ** 2))[:, :, None]
        img *= (1 + 0.03 * np.tanh(d / 30))[:, :, None]
    return np.clip(img, 0, 255)


def ink(rng: Rng, kind: str | None = None) -> tuple[float, float, float]:
    """Ink colour (BGR): printed black/grey, ballpoint blue, red, green, pencil."""
    kind = kind or str(rng.choice(["black", "black", "black", "blue", "blue", "red", "grey", "green", "pencil"]))
    if kind == "black":
        v = rng.uniform(5, 60)
        c = [v, v, v + rng.uniform(0, 10)]
    elif kind == "grey":
        c = [rng.uniform(60, 110)] * 3
    elif kind == "blue":
        c = [rng.uniform(110, 200), rng.uniform(20, 90), rng.uniform(0, 50)]
    elif kind == "red":
        c = [rng.uniform(10, 60), rng.uniform(10, 60), rng.uniform(150, 230)]
    elif kind == "green":
        c = [rng.uniform(40, 90), rng.uniform(90, 140), rng.uniform(10, 50)]
    else:  # pencil
        c = [rng.uniform(90, 140)] * 3
    return tuple(float(v) for v in c)


# ---------------------------------------------------------------------------------------------
# Text content


def _number(rng: Rng) -> str:
    r = rng.random()
    if r < 0.25:
        return str(int(rng.integers(0, 100)))
    if r < 0.4:
        return str(int(rng.integers(100, 10000)))
    if r < 0.55:
        return f"{rng.uniform(0, 200):.2f}"
    if r < 0.65:
        return f"{int(rng.integers(1, 29)):02d}/{int(rng.integers(1, 13)):02d}/{int(rng.integers(0, 100)):02d}"
    if r < 0.72:
        return f"20{int(rng.integers(10, 30))}-{int(rng.integers(1, 13)):02d}-{int(rng.integers(1, 29)):02d}"
    if r < 0.8:
        return f"{int(rng.integers(0, 24))}:{int(rng.integers(0, 60)):02d}"
    if r < 0.88:
        return ("+" if rng.random() < 0.5 else "-") + str(int(rng.integers(1, 40)))
    if r < 0.94:
        return f"{int(rng.integers(1, 100))}%"
    return f"${rng.uniform(0, 99):.2f}"


def _trap(rng: Rng) -> str:
    """A short token made of index characters: 'A', 'K.', 'Q:', '10', 'AK', 'J7', 'No. 9'."""
    t = TRAP_TOKENS[rng.integers(len(TRAP_TOKENS))]
    r = rng.random()
    if r < 0.45:
        return t
    if r < 0.6:
        return t + str(rng.choice([".", ")", ":", ",", "-"]))
    if r < 0.8:
        return t + TRAP_TOKENS[rng.integers(len(TRAP_TOKENS))]
    if r < 0.9:
        return str(rng.choice(["(", "No. ", "#", "x", "Q", "P"])) + t
    return t + str(rng.choice(["+", "th", "s", "x", "%", "/" + TRAP_TOKENS[rng.integers(len(TRAP_TOKENS))]]))


def _word(rng: Rng, case: str) -> str:
    r = rng.random()
    if r < 0.12:
        return _number(rng)
    if r < 0.24:
        return _trap(rng)
    if r < 0.36:
        w = CARD_WORDS[rng.integers(len(CARD_WORDS))]
    elif r < 0.44:
        return NAMES[rng.integers(len(NAMES))] if case != "upper" else NAMES[rng.integers(len(NAMES))].upper()
    else:
        w = WORDS[rng.integers(len(WORDS))]
    if case == "upper":
        return w.upper()
    if case == "title" or rng.random() < 0.08:
        return w.capitalize()
    return w


def _sentence(rng: Rng, pen: Pen, width: float, case: str) -> str:
    words: list[str] = []
    while True:
        w = _word(rng, case)
        trial = " ".join(words + [w])
        if words and pen.width(trial) > width:
            break
        words.append(w)
        if rng.random() < 0.06:
            words[-1] += str(rng.choice([",", ".", ";", ":", "!", "?"]))
        if len(words) > 40:
            break
    return " ".join(words)


# ---------------------------------------------------------------------------------------------
# Shapes (bullets, marks, stars; never a suit symbol)


def draw_shape(img: np.ndarray, kind: str, cx: float, cy: float, size: float, colour, thickness: int) -> np.ndarray:
    """Draw a small mark centred at (cx, cy), `size` pixels across; returns its box as a 4x2 quad."""
    r = size / 2
    s8 = lambda pts: np.round(np.asarray(pts, np.float64) * 8).astype(np.int32)  # noqa: E731
    t = max(1, thickness)
    aa = cv2.LINE_AA
    if kind == "ring":
        cv2.circle(img, (int(cx * 8), int(cy * 8)), int(r * 8), colour, t, aa, 3)
    elif kind == "dot":
        r *= 0.45
        cv2.circle(img, (int(cx * 8), int(cy * 8)), max(1, int(r * 8)), colour, -1, aa, 3)
    elif kind == "star":
        a = np.arange(10) * np.pi / 5 - np.pi / 2
        rad = np.where(np.arange(10) % 2 == 0, r, r * 0.42)
        cv2.fillPoly(img, [s8(np.stack([cx + rad * np.cos(a), cy + rad * np.sin(a)], 1))], colour, aa, 3)
    elif kind == "check":
        cv2.polylines(img, [s8([[cx - r, cy], [cx - r * 0.3, cy + r * 0.8], [cx + r, cy - r]])], False, colour, t, aa, 3)
    elif kind == "cross":
        cv2.line(img, (int((cx - r) * 8), int((cy - r) * 8)), (int((cx + r) * 8), int((cy + r) * 8)), colour, t, aa, 3)
        cv2.line(img, (int((cx - r) * 8), int((cy + r) * 8)), (int((cx + r) * 8), int((cy - r) * 8)), colour, t, aa, 3)
    elif kind == "plus":
        cv2.line(img, (int((cx - r) * 8), int(cy * 8)), (int((cx + r) * 8), int(cy * 8)), colour, t, aa, 3)
        cv2.line(img, (int(cx * 8), int((cy - r) * 8)), (int(cx * 8), int((cy + r) * 8)), colour, t, aa, 3)
    elif kind == "bar":
        cv2.line(img, (int((cx - r) * 8), int(cy * 8)), (int((cx + r) * 8), int(cy * 8)), colour, t + 1, aa, 3)
        return np.array([[cx - r, cy - t], [cx + r, cy - t], [cx + r, cy + t], [cx - r, cy + t]])
    elif kind == "asterisk":
        for a in np.arange(3) * np.pi / 3 + np.pi / 2:
            dx, dy = r * np.cos(a), r * np.sin(a)
            cv2.line(img, (int((cx - dx) * 8), int((cy - dy) * 8)), (int((cx + dx) * 8), int((cy + dy) * 8)), colour, t, aa, 3)
    else:  # arrow
        cv2.line(img, (int((cx - r) * 8), int(cy * 8)), (int((cx + r) * 8), int(cy * 8)), colour, t, aa, 3)
        cv2.polylines(img, [s8([[cx + r * 0.3, cy - r * 0.6], [cx + r, cy], [cx + r * 0.3, cy + r * 0.6]])], False,
                      colour, t, aa, 3)
    return np.array([[cx - r, cy - r], [cx + r, cy - r], [cx + r, cy + r], [cx - r, cy + r]])


def _union(*quads: np.ndarray) -> np.ndarray:
    p = np.concatenate(quads)
    (x0, y0), (x1, y1) = p.min(axis=0), p.max(axis=0)
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


def _marked_letter(rng: Rng, img: np.ndarray, pen: Pen, x: float, y: float, colour, line: int) -> tuple[list[Glyph], np.ndarray | None]:
    """A trap token with a small shape beside or (for larger text) below it."""
    token = _trap(rng)[:2].strip() or "A"
    glyphs = pen.draw(img, token, x, y, colour, line)
    if not glyphs:
        return glyphs, None
    box = _union(*(g.quad for g in glyphs))
    size = pen.cap_px * rng.uniform(0.4, 0.9)
    shape_colour = colour if rng.random() < 0.6 else ink(rng, str(rng.choice(["black", "red", "blue"])))
    thick = max(1, int(round(pen.cap_px / rng.uniform(8, 14))))
    if pen.cap_px >= 16 and rng.random() < 0.5:
        kind = SHAPES_BELOW[rng.integers(len(SHAPES_BELOW))]
        cx = (box[0, 0] + box[1, 0]) / 2 + rng.normal(0, 0.1) * pen.cap_px
        cy = box[2, 1] + size / 2 + rng.uniform(0.1, 0.4) * pen.cap_px
    else:
        kind = SHAPES[rng.integers(len(SHAPES))]
        side = 1 if rng.random() < 0.7 else -1
        cx = (box[1, 0] if side > 0 else box[0, 0]) + side * (size / 2 + rng.uniform(0.15, 0.5) * pen.cap_px)
        cy = (box[0, 1] + box[2, 1]) / 2 + rng.normal(0, 0.15) * pen.cap_px
    shape = draw_shape(img, kind, cx, cy, size, shape_colour, thick)
    return glyphs, _union(box, shape)


# ---------------------------------------------------------------------------------------------
# Documents


def _pen(rng: Rng, fonts: tuple[FontInfo, ...], cap: float, want: str = "") -> Pen:
    pool = fonts
    if want == "mono":
        pool = tuple(f for f in fonts if f.mono) or fonts
    elif want == "hand":
        pool = tuple(f for f in fonts if f.script or f.italic) or fonts
    elif want == "print":
        pool = tuple(f for f in fonts if not f.script) or fonts
    font = pool[rng.integers(len(pool))]
    weight = rng.uniform(0, cap / 12) if font.kind == "ttf" and rng.random() < 0.25 else 0.0
    return Pen(font, cap, weight)


def _prose(rng: Rng, img: np.ndarray, fonts, cap: float, hand: bool, ruled: bool) -> Sheet:
    h, w = img.shape[:2]
    pen = _pen(rng, fonts, cap, "hand" if hand else "print")
    colour = ink(rng, str(rng.choice(["blue", "black", "pencil", "red"] if hand else ["black", "black", "grey", "red", "blue"])))
    gap = pen.line_height * (rng.uniform(1.15, 1.6) if hand else rng.uniform(0.95, 1.35))
    left = rng.uniform(-0.3, 0.15) * w
    top = rng.uniform(-0.5, 1.5) * cap + cap
    if ruled:
        line_c = (rng.uniform(200, 235), rng.uniform(160, 200), rng.uniform(120, 170))
        y = top + gap * 0.15
        while y < h:
            cv2.line(img, (0, int(y)), (w, int(y)), line_c, 1, cv2.LINE_AA)
            y += gap
        if rng.random() < 0.6:
            mx = int(rng.uniform(0.05, 0.25) * w)
            cv2.line(img, (mx, 0), (mx, h), (rng.uniform(120, 170), rng.uniform(120, 170), rng.uniform(200, 240)), 1, cv2.LINE_AA)
            left = max(left, mx + cap * 0.4)
    case = str(rng.choice(["lower", "lower", "lower", "title", "upper"]))
    glyphs: list[Glyph] = []
    extras: list[np.ndarray] = []
    y, line = top, 0
    while y < h + cap:
        x = left + (rng.uniform(0, 4) * cap if rng.random() < 0.2 else 0)
        if rng.random() < 0.12:  # a list item or heading starting with an index-like token
            token = str(rng.choice(["A.", "B.", "Q:", "A:", "1.", "2)", "10.", "K", "J.", "7.", "(a)", "•", "-", "*"]))
            glyphs += pen.draw(img, token + " ", x, y, colour, line, rng, 0.05 if hand else 0.0)
            x += pen.width(token + " ")
        if rng.random() < 0.1 and cap >= 10:
            g, extra = _marked_letter(rng, img, pen, x, y, colour, line)
            glyphs += g
            if extra is not None:
                extras.append(extra)
            x = extra[1, 0] + cap if extra is not None else x + 2 * cap
        text = _sentence(rng, pen, w - x + rng.uniform(0, 0.3) * w, case)
        glyphs += pen.draw(img, text, x, y, colour, line, rng, rng.uniform(0.03, 0.09) if hand else 0.0)
        if hand and rng.random() < 0.15:  # cross-out or underline
            yy = y - cap * (0.4 if rng.random() < 0.5 else -0.25)
            x1 = x + rng.uniform(0.2, 0.8) * min(pen.width(text), w)
            cv2.line(img, (int(x), int(yy)), (int(x1), int(yy + rng.normal(0, cap * 0.1))), colour,
                     max(1, int(cap / 12)), cv2.LINE_AA)
        y += gap
        line += 1
        if rng.random() < 0.08:
            y += gap  # paragraph break
    return Sheet(img, glyphs, extras, cap)


def _table(rng: Rng, img: np.ndarray, fonts, cap: float, kind: str) -> Sheet:
    """Score sheet (handwritten scores in a grid), printed form/table, or calendar page."""
    h, w = img.shape[:2]
    hand = kind == "score" and rng.random() < 0.75
    pen = _pen(rng, fonts, cap, "hand" if hand else "print")
    head_pen = _pen(rng, fonts, cap * rng.uniform(0.9, 1.4), "print")
    colour = ink(rng, str(rng.choice(["blue", "black", "pencil"] if hand else ["black", "black", "grey", "blue"])))
    head_colour = ink(rng, str(rng.choice(["black", "black", "red", "blue"])))
    cols = 7 if kind == "calendar" else int(rng.integers(3, 7))
    cw = cap * (rng.uniform(2.2, 3.5) if kind == "calendar" else rng.uniform(2.5, 5.5))
    ch = cap * (rng.uniform(1.8, 3.2) if kind == "calendar" else rng.uniform(1.6, 2.4))
    x0 = rng.uniform(-0.5, 0.2) * w
    y0 = rng.uniform(-0.2, 0.25) * h
    rows = int((h - y0) / ch) + 1
    n_cols = int((w - x0) / cw) + 1
    grid_c = ink(rng, str(rng.choice(["black", "grey", "blue", "pencil"])))
    thick = 1 if rng.random() < 0.7 else 2
    if rng.random() < 0.4:  # shaded header row
        shade = np.clip(np.array(img[0, 0]) * rng.uniform(0.75, 0.92), 0, 255)
        cv2.rectangle(img, (int(x0), int(y0)), (int(x0 + n_cols * cw), int(y0 + ch)), tuple(float(v) for v in shade), -1)
    for r in range(rows + 1):
        yy = int(y0 + r * ch)
        cv2.line(img, (int(x0), yy), (int(x0 + n_cols * cw), yy), grid_c, thick, cv2.LINE_AA)
    for c in range(n_cols + 1):
        xx = int(x0 + c * cw)
        cv2.line(img, (xx, int(y0)), (xx, int(y0 + rows * ch)), grid_c, thick, cv2.LINE_AA)
    glyphs: list[Glyph] = []
    extras: list[np.ndarray] = []
    if kind == "calendar":
        heads = DAYS if rng.random() < 0.6 else [d[0] for d in DAYS]
        day = -int(rng.integers(0, 7)) + 1
        last = int(rng.integers(28, 32))
    elif kind == "score":
        heads = (list(rng.choice(NAMES, n_cols)) if rng.random() < 0.5 else
                 list(rng.choice(["A", "B", "C", "D", "N", "E", "S", "W", "K", "Q", "J", "P1", "P2", "P3", "P4"], n_cols)))
    else:
        heads = [str(rng.choice(["QTY", "ITEM", "NAME", "DATE", "No.", "A", "K", "TOTAL", "AMOUNT", "Q1", "Q2",
                                 "CODE", "JAN", "REF", "TIME", "Score", "Rank", "Points"])) for _ in range(n_cols)]
    line = 0
    for r in range(rows):
        for c in range(n_cols):
            cx0, cy0 = x0 + c * cw, y0 + r * ch
            if cx0 + cw < 0 or cx0 > w or cy0 + ch < 0 or cy0 > h:
                continue
            if r == 0:
                text, p, col = heads[c % len(heads)], head_pen, head_colour
            elif kind == "calendar":
                d = day + (r - 1) * 7 + c
                if not 1 <= d <= last:
                    continue
                text, p = str(d), pen
                col = ink(rng, "red") if c == 6 and rng.random() < 0.7 else colour
            elif c == 0 and rng.random() < 0.7:
                text, p, col = str(r), head_pen, head_colour
            elif rng.random() < (0.8 if kind == "score" else 0.6):
                text = _number(rng) if kind != "score" else str(rng.choice([str(int(rng.integers(0, 30))),
                                                                           "+" + str(int(rng.integers(1, 20))),
                                                                           "-" + str(int(rng.integers(1, 20))), _trap(rng)]))
                p, col = pen, colour
            else:
                continue
            tw = p.width(text)
            while tw > cw * 0.95 and len(text) > 1:
                text = text[:-1]
                tw = p.width(text)
            if kind == "calendar" and r > 0:
                tx, ty = cx0 + rng.uniform(0.1, 0.2) * cap, cy0 + p.cap_px * rng.uniform(1.15, 1.4)
            else:
                tx = cx0 + (cw - tw) / 2 + rng.normal(0, 0.1) * cap
                ty = cy0 + (ch + p.cap_px) / 2 + rng.normal(0, 0.08) * cap
            glyphs += p.draw(img, text, tx, ty, col, line, rng, rng.uniform(0.03, 0.08) if hand and p is pen else 0.0)
            if hand and rng.random() < 0.08:  # a ring round a score
                ring = draw_shape(img, "ring", tx + tw / 2, ty - p.cap_px / 2, max(tw, p.cap_px) * 1.5, col, max(1, int(cap / 12)))
                extras.append(ring)
        line += 1
    return Sheet(img, glyphs, extras, cap)


def _receipt(rng: Rng, img: np.ndarray, fonts, cap: float) -> Sheet:
    h, w = img.shape[:2]
    pen = _pen(rng, fonts, cap, "mono")
    colour = ink(rng, str(rng.choice(["black", "grey", "grey"])))
    gap = pen.line_height * rng.uniform(0.95, 1.3)
    left = rng.uniform(-0.2, 0.1) * w
    width = w - left - rng.uniform(0, 0.1) * w
    y, line = rng.uniform(0.5, 2.0) * cap, 0
    glyphs: list[Glyph] = []
    while y < h + cap:
        r = rng.random()
        if r < 0.5:
            item = str(rng.choice(RECEIPT_ITEMS))
            qty = f"{int(rng.integers(1, 10))} x " if rng.random() < 0.3 else ""
            price = f"{rng.uniform(0.5, 60):.2f}"
            n = max(1, int((width - pen.width(qty + item + price)) / max(pen.advance(' '), 1)))
            text = qty + item + " " * n + price
        elif r < 0.6:
            text = "-" * int(width / max(pen.advance("-"), 1))
        elif r < 0.7:
            text = f"{int(rng.integers(1, 29)):02d}/{int(rng.integers(1, 13)):02d}/20{int(rng.integers(10, 30))} " \
                   f"{int(rng.integers(0, 24)):02d}:{int(rng.integers(0, 60)):02d}"
        elif r < 0.85:
            label = str(rng.choice(["TOTAL", "SUBTOTAL", "TAX", "VAT 10%", "CASH", "CHANGE", "VISA", "QTY", "TABLE 7",
                                    "No. 4521", "THANK YOU", "JACKPOT", "KENO", "AMEX **** 1234", "TIP"]))
            price = f"{rng.uniform(0.5, 200):.2f}"
            n = max(1, int((width - pen.width(label + price)) / max(pen.advance(' '), 1)))
            text = label + " " * n + price
        else:
            text = _sentence(rng, pen, width, "upper")
        glyphs += pen.draw(img, text, left, y, colour, line)
        y += gap
        line += 1
    return Sheet(img, glyphs, [], cap)


def _big(rng: Rng, img: np.ndarray, fonts, cap: float) -> Sheet:
    """Few large tokens (A, K, 10, Q, card words, numbers) in red/black, with marks beside or below."""
    h, w = img.shape[:2]
    glyphs: list[Glyph] = []
    extras: list[np.ndarray] = []
    y, line = rng.uniform(1.0, 1.6) * cap, 0
    while y < h + cap:
        x = rng.uniform(-0.2, 0.3) * cap
        pen = _pen(rng, fonts, cap * rng.uniform(0.8, 1.25))
        while x < w:
            colour = ink(rng, str(rng.choice(["black", "red", "red", "blue", "black"])))
            r = rng.random()
            if r < 0.45:
                g, extra = _marked_letter(rng, img, pen, x, y, colour, line)
                glyphs += g
                if extra is not None:
                    extras.append(extra)
                    x = extra[1, 0]
                else:
                    x += pen.cap_px
            else:
                text = _trap(rng) if r < 0.75 else _word(rng, str(rng.choice(["upper", "title"])))
                glyphs += pen.draw(img, text, x, y, colour, line)
                x += pen.width(text)
            x += pen.cap_px * rng.uniform(0.6, 2.5)
        y += pen.line_height * rng.uniform(1.1, 1.9)
        line += 1
    return Sheet(img, glyphs, extras, cap)


DOCUMENTS = [("book", 0.2), ("notes", 0.15), ("score", 0.17), ("form", 0.1), ("calendar", 0.06),
             ("receipt", 0.12), ("big", 0.2)]


def document(rng: Rng, fonts: tuple[FontInfo, ...], h: int, w: int, cap: float, kind: str | None = None) -> Sheet:
    """A page of `kind` (random by DOCUMENTS weights) with body text `cap` pixels tall, as BGR uint8."""
    if kind is None:
        names, weights = zip(*DOCUMENTS)
        kind = str(rng.choice(names, p=np.array(weights) / sum(weights)))
    paper_kind = {"receipt": "thermal", "notes": str(rng.choice(["white", "white", "cream", "yellow", "pastel"]))}.get(kind)
    img = np.ascontiguousarray(paper(rng, h, w, paper_kind).astype(np.uint8))
    if kind == "book":
        sheet = _prose(rng, img, fonts, cap, hand=False, ruled=False)
    elif kind == "notes":
        sheet = _prose(rng, img, fonts, cap, hand=True, ruled=rng.random() < 0.7)
    elif kind in ("score", "form", "calendar"):
        sheet = _table(rng, img, fonts, cap, kind)
    elif kind == "receipt":
        sheet = _receipt(rng, img, fonts, cap)
    else:
        sheet = _big(rng, img, fonts, cap)
    if rng.random() < 0.25:  # doodles / stray pen strokes
        for _ in range(int(rng.integers(1, 4))):
            pts = np.cumsum(rng.normal(0, cap, (int(rng.integers(3, 8)), 2)), axis=0) + rng.uniform(0, 1, 2) * [w, h]
            cv2.polylines(img, [np.round(pts * 8).astype(np.int32)], False, ink(rng), max(1, int(cap / 12)),
                          cv2.LINE_AA, 3)
    return sheet
