"""Perceptual change detection: what a person would call a change, not what a pixel counter does.

The grid of `feedback/pixels.py` counts pixels that moved by 24 levels or more, so it misses a
broad change of a few levels (a heat-map cell recoloured by 15) and counts every edge of a
canvas redrawn a pixel to the side or re-encoded as JPEG. This measure (`change_detection =
"perceptual"` in the config, docs/observation-modes.md) compares the two captures in windows
of 64 x 64 px of the sent image (overlapping by half, so a change on a border is whole in
one), through two low-pass filters:

- **sharp**: a light blur (Gaussian sigma 1.2 px) removes JPEG ringing and anti-aliasing
  jitter; a window changed when 60 of its pixels moved by 32 levels or more. A moved line
  point or a bar 3 px taller is 90 or more such pixels; a caret blink (a line 1 px wide) 35 or fewer.
- **broad**: a heavy blur (sigma 3 px) leaves only what covers an area; a window changed when
  300 of its pixels moved by 14 levels or more: a heat-map cell recoloured by 15 levels is
  700 or more; a caret 50 or fewer.

In both, each window is compared at the offset, within one pixel either way, that matches it
best: a canvas or image redrawn a pixel to the side is the same picture. The thresholds were
set on benchmarks/bench_change_detection.py (docs/results/change-detection.md), for captures
of a 1920 x 1080 CSS viewport sent at 1440 x 810.

`phash` and `dhash` are the classic 64-bit perceptual hashes (DCT of a 32 x 32 grey image;
gradient signs of a 9 x 8 one), for the whole view or a region; the benchmark shows why the
verdict does not rest on them: a subtle chart change is often not one bit of the whole
view's hash, and rendering noise sometimes is.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from PIL import Image, ImageChops, ImageFilter

from webfovea.feedback.pixels import Box, PixelChange

_WINDOW = 64  # window side, image pixels
_STRIDE = _WINDOW // 2  # windows overlap by half
_SHIFT = 1  # a region moved by up to this many pixels is the same picture


class _Filter(NamedTuple):
    blur: float  # Gaussian sigma, image pixels
    level: int  # a low-passed pixel changed when it moved by this many levels (any channel)
    area: int  # a window changed when this many of its pixels did


SHARP = _Filter(1.2, 32, 60)
BROAD = _Filter(3.0, 14, 300)
_FILTERS = (SHARP, BROAD)


def compare_perceptual(
    before: Image.Image, after: Image.Image, css_size: tuple[float, float], same: bool = False
) -> PixelChange:
    """Changed windows between two captures of the same viewport, in CSS pixels (`same`: the
    caller knows the captures are byte-identical). Only the windows around the difference's
    bounding box are measured."""
    cw, ch = css_size
    if same:
        return PixelChange([])
    if before.size != after.size:
        return PixelChange([(0.0, 0.0, cw, ch)])
    a, b = _rgb(before), _rgb(after)
    bbox = ImageChops.difference(a, b).getbbox()
    if bbox is None:
        return PixelChange([])
    w, h = a.size
    # the windows the difference can reach (a window starts on the stride grid)
    x0 = max(0, (bbox[0] - _WINDOW) // _STRIDE * _STRIDE)
    y0 = max(0, (bbox[1] - _WINDOW) // _STRIDE * _STRIDE)
    x1, y1 = min(w, bbox[2] + _WINDOW), min(h, bbox[3] + _WINDOW)
    pad = 10 + _SHIFT  # the blur's support plus the shift, read from the real neighbours
    box = (max(0, x0 - pad), max(0, y0 - pad), min(w, x1 + pad), min(h, y1 + pad))
    ca, cb = a.crop(box), b.crop(box)
    ox, oy = x0 - box[0], y0 - box[1]
    changed: NDArray[np.bool_] | None = None
    for f in _FILTERS:
        area = _window_areas(_lowpass(ca, f.blur), _lowpass(cb, f.blur), ox, oy, x1 - x0, y1 - y0, f.level)
        changed = area >= f.area if changed is None else changed | (area >= f.area)
    assert changed is not None
    sx, sy = cw / w, ch / h
    boxes: list[Box] = []
    for r, c in zip(*np.nonzero(changed), strict=True):
        bx0, by0 = x0 + int(c) * _STRIDE, y0 + int(r) * _STRIDE
        bx1, by1 = min(w, bx0 + _WINDOW), min(h, by0 + _WINDOW)
        boxes.append((bx0 * sx, by0 * sy, bx1 * sx, by1 * sy))
    return PixelChange(boxes)


def _window_areas(
    fa: NDArray[np.int16], fb: NDArray[np.int16], ox: int, oy: int, ww: int, hh: int, level: int
) -> NDArray[np.int64]:
    """Per window (rows x cols of the stride grid over the ww x hh area at ox, oy in the
    arrays): the count of pixels changed by `level`, at the offset whose total difference is least."""
    nby, nbx = -(-hh // _STRIDE), -(-ww // _STRIDE)  # blocks, the last one possibly partial
    ref = _region(fa, ox, oy, ww, hh)
    best_sum: NDArray[np.int64] | None = None
    best_area = np.zeros((nby, nbx), dtype=np.int64)
    for dy in range(-_SHIFT, _SHIFT + 1):
        for dx in range(-_SHIFT, _SHIFT + 1):
            moved = _region(fb, ox + dx, oy + dy, ww, hh)
            d = np.abs(ref - moved).max(axis=2)
            total = _windows(_blocks(d.astype(np.int64), nby, nbx))
            changed = _windows(_blocks((d >= level).astype(np.int64), nby, nbx))
            if best_sum is None:
                best_sum, best_area = total, changed
            else:
                better = total < best_sum
                best_sum = np.where(better, total, best_sum)
                best_area = np.where(better, changed, best_area)
    return best_area


def _region(arr: NDArray[np.int16], x: int, y: int, ww: int, hh: int) -> NDArray[np.int16]:
    """arr[y:y+hh, x:x+ww], edge-padded where the offset reaches past the crop."""
    h, w = arr.shape[:2]
    p = _SHIFT + 1
    if x < 0 or y < 0 or x + ww > w or y + hh > h:
        arr = np.pad(arr, ((p, p), (p, p), (0, 0)), mode="edge")
        x, y = x + p, y + p
    return arr[y : y + hh, x : x + ww]


def _blocks(d: NDArray[np.int64], nby: int, nbx: int) -> NDArray[np.int64]:
    h, w = d.shape
    full = np.zeros((nby * _STRIDE, nbx * _STRIDE), dtype=np.int64)
    full[:h, :w] = d
    out: NDArray[np.int64] = full.reshape(nby, _STRIDE, nbx, _STRIDE).sum(axis=(1, 3))
    return out


def _windows(blocks: NDArray[np.int64]) -> NDArray[np.int64]:
    """A window is 2 x 2 blocks; the last row and column of windows are one block (padded)."""
    p = np.pad(blocks, ((0, 1), (0, 1)))
    return p[:-1, :-1] + p[1:, :-1] + p[:-1, 1:] + p[1:, 1:]


def _lowpass(image: Image.Image, sigma: float) -> NDArray[np.int16]:
    return np.asarray(image.filter(ImageFilter.GaussianBlur(sigma)), dtype=np.int16)


def _rgb(image: Image.Image) -> Image.Image:
    return image if image.mode == "RGB" else image.convert("RGB")


# --- the classic perceptual hashes --------------------------------------------------------


def _dct_matrix(n: int) -> NDArray[np.float64]:
    k = np.arange(n)[:, None]
    i = np.arange(n)[None, :]
    m: NDArray[np.float64] = np.cos(np.pi * (2 * i + 1) * k / (2 * n)) * np.sqrt(2 / n)
    m[0] /= np.sqrt(2)
    return m


_DCT32 = _dct_matrix(32)


def phash(image: Image.Image) -> int:
    """64-bit DCT hash: the 8 x 8 lowest frequencies of a 32 x 32 grey image, each bit whether
    a coefficient is above their median (the DC term left out of the median)."""
    g = np.asarray(image.convert("L").resize((32, 32), Image.Resampling.LANCZOS), dtype=np.float64)
    low = (_DCT32 @ g @ _DCT32.T)[:8, :8].flatten()
    med = float(np.median(low[1:]))
    return _bits(low > med)


def dhash(image: Image.Image) -> int:
    """64-bit gradient hash: whether each pixel of a 9 x 8 grey image is brighter than its right neighbour."""
    g = np.asarray(image.convert("L").resize((9, 8), Image.Resampling.LANCZOS), dtype=np.int16)
    return _bits((g[:, :-1] > g[:, 1:]).flatten())


def hamming(a: int, b: int) -> int:
    return (a ^ b).bit_count()


def _bits(flags: NDArray[np.bool_]) -> int:
    out = 0
    for f in flags:
        out = (out << 1) | int(bool(f))
    return out
