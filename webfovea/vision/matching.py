"""Multi-scale normalised cross-correlation: where a template shows in a screenshot, at any scale.

A recurring widget (a cookie banner, a paginator, a date picker) looks the same on every page
of a site but for its size: the page's zoom, a responsive layout or a smaller viewport scales
it. Normalised cross-correlation (NCC) compares the template with every window of the image
after removing each one's brightness and contrast, so a score of 1.0 is the same picture and
a flat or unrelated window scores near 0; scanning a ladder of template sizes finds it at the
scale the page uses.

It is numpy and Pillow only (OpenCV's `matchTemplate` does the same per scale but would add a
60 MB wheel for one function): the correlation is an FFT product and the windows' means and
variances come from summed-area tables, so one scale of a 1280 x 720 screenshot costs a few
milliseconds. To keep a ladder of 15-20 scales cheap the search runs coarse to fine: every
scale on a copy shrunk so the smallest template is still `_COARSE_SIDE` pixels across, then
each candidate again at full resolution around where it was found, at its scale and the two
next to it. Boxes of one widget found at neighbouring scales are merged (the best kept).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageFilter

# What a match is lives apart (match.py): the action and the templates file name it without numpy.
from webfovea.vision.match import DEFAULT_THRESHOLD, Match, TemplateError

__all__ = ["DEFAULT_THRESHOLD", "Match", "TemplateError", "find", "gray", "ncc_map"]

Gray = NDArray[np.float32]

DEFAULT_SCALES = tuple(round(0.6 * 1.06**i, 4) for i in range(18))  # 0.6 .. ~1.62, 6% apart
_COARSE_SIDE = 10  # the smallest template side the coarse pass shrinks to
_COARSE_SLACK = 0.2  # a coarse score this far under the threshold is still refined
_FINE_GAIN = 0.1  # the most the 0.25% scale steps add to the 1% steps' best (else not tried)
_MIN_SIDE = 6  # a template scaled smaller than this is skipped: too few pixels to tell apart
_OVERLAP = 0.3
_TILES = 4  # rows of the detail check's grid (columns: up to three times as many, ~12 px each)
_TILE_MIN = (
    0.45  # NCC every tile with contrast must reach  # boxes overlapping more than this (IoU) are one widget
)
_FLAT = 1e-3  # a window (or template) whose standard deviation is under this is flat


def gray(image: Image.Image) -> Gray:
    """The image as float32 luminance 0-255 (colour is dropped: NCC compares structure)."""
    return np.asarray(image.convert("L"), dtype=np.float32)


def _resize(a: Gray, w: int, h: int) -> Gray:
    img = Image.fromarray(a.astype(np.float32), mode="F")
    return np.asarray(img.resize((w, h), Image.Resampling.BILINEAR), dtype=np.float32)


def _fast_len(n: int) -> int:
    """The smallest 2^a * 3^b * 5^c >= n: FFT sizes numpy's pocketfft transforms quickly."""
    best = 1 << max(0, (n - 1).bit_length())
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            p = p35
            while p < n:
                p *= 2
            best = min(best, p)
            p35 *= 3
        p5 *= 5
    return best


class Prepared:
    """An image made ready for many templates: its FFT (at a size that fits templates up to
    `max_h` x `max_w`) and its summed-area tables, computed once for every scale."""

    def __init__(self, image: Gray | NDArray[np.float64], max_h: int, max_w: int) -> None:
        self.image: NDArray[np.float64] = image.astype(np.float64)
        self.shape = (_fast_len(image.shape[0] + max_h), _fast_len(image.shape[1] + max_w))
        self.spectrum = np.fft.rfft2(self.image, self.shape)
        self.s1 = np.pad(self.image, ((1, 0), (1, 0))).cumsum(0).cumsum(1)
        self.s2 = np.pad(self.image * self.image, ((1, 0), (1, 0))).cumsum(0).cumsum(1)

    def fits(self, h: int, w: int) -> bool:
        big_h, big_w = self.image.shape
        return bool(h <= big_h and w <= big_w and big_h + h <= self.shape[0] and big_w + w <= self.shape[1])


def ncc_map(image: Gray | Prepared, tmpl: Gray) -> Gray:
    """The NCC of `tmpl` at every position where it fits wholly inside `image` (shape
    (H-h+1, W-w+1)); flat windows score 0."""
    h, w = tmpl.shape
    prep = image if isinstance(image, Prepared) else Prepared(image, h, w)
    big_h, big_w = prep.image.shape
    if h > big_h or w > big_w:
        return np.zeros((0, 0), dtype=np.float32)
    if not prep.fits(h, w):
        prep = Prepared(prep.image, h, w)
    t = tmpl.astype(np.float64) - float(tmpl.mean())
    t_norm = math.sqrt(float((t * t).sum()))
    if t_norm < _FLAT * math.sqrt(t.size):
        raise TemplateError("the template has no contrast (a flat image matches everything)")
    spec = prep.spectrum * np.conj(np.fft.rfft2(t, prep.shape))
    corr = np.fft.irfft2(spec, prep.shape)[: big_h - h + 1, : big_w - w + 1]
    s1, s2 = prep.s1, prep.s2

    def window(s: NDArray[np.float64]) -> NDArray[np.float64]:
        return s[h:, w:] - s[:-h, w:] - s[h:, :-w] + s[:-h, :-w]

    n = h * w
    var = np.maximum(window(s2) - window(s1) ** 2 / n, 0.0)
    flat = var < (_FLAT**2) * n
    out = np.where(flat, 0.0, corr / np.where(flat, 1.0, np.sqrt(var) * t_norm))
    return np.clip(out, -1.0, 1.0).astype(np.float32)


def _peaks(scores: Gray, threshold: float, h: int, w: int, limit: int) -> list[tuple[int, int, float]]:
    """The best positions (y, x, score) at or over `threshold`, each suppressing the positions
    a box of h x w around it covers, so one widget gives one peak per scale."""
    out: list[tuple[int, int, float]] = []
    if scores.size == 0:
        return out
    s = scores.copy()
    for _ in range(limit):
        idx = int(np.argmax(s))
        y, x = divmod(idx, s.shape[1])
        best = float(s[y, x])
        if best < threshold:
            break
        out.append((y, x, best))
        s[max(0, y - h // 2) : y + h // 2 + 1, max(0, x - w // 2) : x + w // 2 + 1] = -1.0
    return out


def _iou(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> float:
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def _refine(image: Gray, template: Gray, at: tuple[float, float], scale: float, reach: int) -> Match | None:
    """The best full-resolution match of `template` at `scale` whose corner is within `reach`
    pixels of `at` (x, y)."""
    th, tw = template.shape
    w, h = round(tw * scale), round(th * scale)
    if min(w, h) < _MIN_SIDE or h > image.shape[0] or w > image.shape[1]:
        return None
    x0 = max(0, round(at[0]) - reach)
    y0 = max(0, round(at[1]) - reach)
    x1 = min(image.shape[1], round(at[0]) + reach + w)
    y1 = min(image.shape[0], round(at[1]) + reach + h)
    if x1 - x0 < w or y1 - y0 < h:
        return None
    scores = ncc_map(image[y0:y1, x0:x1], _resize(template, w, h))
    idx = int(np.argmax(scores))
    y, x = divmod(idx, scores.shape[1])
    return Match((x0 + x, y0 + y, x0 + x + w, y0 + y + h), float(scores[y, x]), round(scale, 4))


def _best_scale(
    image: Gray, template: Gray, at: tuple[float, float], scale: float, reach: int, floor: float = -1.0
) -> Match | None:
    """The full-resolution match near `at`, its scale searched around `scale`: text in a
    template decorrelates fast (1.3% off the true scale can cost 0.3 of NCC), so the coarse
    ladder's step is narrowed twice, to 1% and then to 0.25%."""
    best: Match | None = None
    centre = scale
    for step, n in ((0.01, 4), (0.0025, 3)):
        for k in range(-n, n + 1):
            s = centre * (1 + k * step)
            m = _refine(image, template, best.box[:2] if best else at, s, reach)
            if m is not None and (best is None or m.score > best.score):
                best = m
        if best is None or best.score < floor:
            return best  # far under the threshold at 1% steps: the finer steps cannot save it
        centre = best.scale
    return best


def _soften(a: Gray) -> NDArray[np.float64]:
    """A light blur (sigma 1 px): text rasterised again at another size moves its strokes by
    a pixel, which a tile of 12 px would read as a different word."""
    img = Image.fromarray(np.clip(a, 0, 255).astype(np.uint8))
    return np.asarray(img.filter(ImageFilter.GaussianBlur(1.0)), dtype=np.float64)


def _details_agree(image: Gray, template: Gray, m: Match) -> bool:
    """Whether every part of the match agrees with the template, not only the whole: a
    look-alike (the same paginator with other page numbers, the same calendar for another
    month) scores 0.9 or more on the whole, since frame and layout are most of the picture,
    but a tile where its words differ scores far less. The template is cut into a grid of
    tiles (`_TILES`); each tile with contrast must reach `_TILE_MIN` at the match's box."""
    x1, y1, x2, y2 = m.box
    crop = _soften(image[y1:y2, x1:x2])
    t = _soften(_resize(template, x2 - x1, y2 - y1))
    rows = max(1, min(_TILES, (y2 - y1) // 12))
    cols = max(1, min(_TILES * 3, (x2 - x1) // 12))
    for r in range(rows):
        for c in range(cols):
            ys = slice((y2 - y1) * r // rows, (y2 - y1) * (r + 1) // rows)
            xs = slice((x2 - x1) * c // cols, (x2 - x1) * (c + 1) // cols)
            a, b = crop[ys, xs], t[ys, xs]
            a, b = a - a.mean(), b - b.mean()
            nb = float(np.sqrt((b * b).sum()))
            if nb < 4.0 * math.sqrt(b.size):  # a flat part of the template says nothing
                continue
            na = float(np.sqrt((a * a).sum()))
            if na == 0.0 or float((a * b).sum()) / (na * nb) < _TILE_MIN:
                return False
    return True


def find(
    image: Image.Image | Gray,
    template: Image.Image | Gray,
    *,
    scales: tuple[float, ...] = DEFAULT_SCALES,
    threshold: float = DEFAULT_THRESHOLD,
    limit: int = 5,
) -> list[Match]:
    """Every place `template` shows in `image` at one of `scales` with an NCC of `threshold` or
    more, best first, at most `limit`; boxes in the image's pixels."""
    if not scales or any(s <= 0 for s in scales):
        raise TemplateError(f"scales must be positive numbers, not {scales!r}")
    if not 0.0 < threshold <= 1.0:
        raise TemplateError(f"the threshold is an NCC score in (0, 1], not {threshold!r}")
    img = gray(image) if isinstance(image, Image.Image) else image
    tmpl = gray(template) if isinstance(template, Image.Image) else template
    th, tw = tmpl.shape
    if min(th, tw) < _MIN_SIDE:
        raise TemplateError(f"the template is {tw}x{th} px; it needs {_MIN_SIDE} px or more on each side")
    if float(tmpl.std()) < _FLAT:
        raise TemplateError("the template has no contrast (a flat image matches everything)")
    ordered = sorted(set(scales))
    # Shrink everything by `d` for the coarse pass, keeping the smallest template readable.
    d = max(1, min(4, math.floor(min(th, tw) * ordered[0] / _COARSE_SIDE)))
    small = _resize(img, max(1, img.shape[1] // d), max(1, img.shape[0] // d)) if d > 1 else img
    prep = Prepared(small, math.ceil(th * ordered[-1] / d), math.ceil(tw * ordered[-1] / d))
    # Every scale's best places first, then one candidate per place (the best scale's), and
    # only the best few refined at full resolution: refining is most of the cost.
    coarse: list[tuple[float, float, tuple[int, int, int, int]]] = []
    for s in ordered:
        w, h = round(tw * s / d), round(th * s / d)
        if min(w, h) < max(3, _MIN_SIDE // d) or h > small.shape[0] or w > small.shape[1]:
            continue
        scores = ncc_map(prep, _resize(tmpl, w, h))
        for y, x, score in _peaks(scores, threshold - _COARSE_SLACK, h, w, limit * 2):
            coarse.append((score, s, (x * d, y * d, (x + w) * d, (y + h) * d)))
    places: list[tuple[float, float, tuple[int, int, int, int]]] = []
    for c in sorted(coarse, key=lambda c: -c[0]):
        if all(_iou(c[2], p[2]) <= 0.5 for p in places):
            places.append(c)
    found: list[Match] = []
    for _score, s, box in places[: limit * 2]:
        best = _best_scale(img, tmpl, (box[0], box[1]), s, reach=2 * d + 1, floor=threshold - _FINE_GAIN)
        if best is not None and best.score >= threshold and _details_agree(img, tmpl, best):
            found.append(best)
    kept: list[Match] = []
    for m in sorted(found, key=lambda m: -m.score):
        if all(_iou(m.box, k.box) <= _OVERLAP for k in kept):
            kept.append(m)
    return kept[:limit]
