"""OCR of scanned PDF pages with Tesseract (the Debian package `tesseract-ocr`, optional).

Run as a separate program on the page's rendering, its word boxes grouped into lines become
the page's text layer, marked as OCR'd. Without the program (or when it fails) a scanned page
keeps no text layer and the model is told to read it from the image.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass

import PIL
from PIL import Image

from webfovea.documents import ocr_cache

Box = tuple[float, float, float, float, str]  # x, y, width, height (CSS px of the view), text

MAX_OCR_PAGES = 20  # scanned pages of one document recognised; the others stay image-only
TIMEOUT_S = 60.0
MIN_CONFIDENCE = 30.0  # Tesseract's word confidence (0-100) below which a word is dropped
# One OpenMP thread: with its default (a thread per core) Tesseract 5 spends most of its time
# spinning. A 1440x810 screenshot on a quiet 2-core machine: 3.4 s wall and 3.7 s of CPU with
# the default, 0.44 s and 0.44 s with one thread (docs/results/ocr.md); several workers OCR-ing
# at once made it far worse. A user's own OMP_THREAD_LIMIT wins.
_ENV_DEFAULTS = {"OMP_THREAD_LIMIT": "1"}


def available() -> bool:
    return shutil.which("tesseract") is not None


def recognise(
    png: bytes | Callable[[], bytes],
    scale: float,
    psm: int = 3,
    *,
    identity: bytes | None = None,
    enlarge: int = 1,
) -> list[Box] | None:
    """The lines of text Tesseract reads on a page image rendered at `scale` bitmap px per CSS px
    (None: it failed). `psm`: Tesseract's page segmentation mode (3: a page of text; 11: sparse
    text, as on a screenshot of a web page). `png` may be a function that makes the image, with
    `identity` the bytes that determine it: the cache is then looked up by `identity` and the
    image made only when Tesseract has to read it. `enlarge`: the reader enlarges the image so
    many times before Tesseract reads it (small text reads better), so the caller never holds
    the enlarged pixels."""
    tsv = _tsv(png, Read(psm, enlarge), identity)
    if tsv is None:
        return None
    lines: dict[tuple[str, str, str], list[tuple[float, float, float, float, str]]] = {}
    reader = csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE)
    for row in reader:
        text = (row.get("text") or "").strip()
        try:
            conf = float(row.get("conf") or -1)
            left, top, width, height = (
                float(row[k]) / (scale * enlarge) for k in ("left", "top", "width", "height")
            )
        except (KeyError, ValueError):
            continue
        if row.get("level") == "5" and text and conf >= MIN_CONFIDENCE:
            key = (row["block_num"], row["par_num"], row["line_num"])
            lines.setdefault(key, []).append((left, top, width, height, text))
    out: list[Box] = []
    for words in lines.values():
        x0 = min(w[0] for w in words)
        y0 = min(w[1] for w in words)
        x1 = max(w[0] + w[2] for w in words)
        y1 = max(w[1] + w[3] for w in words)
        out.append((x0, y0, x1 - x0, y1 - y0, " ".join(w[4] for w in words)))
    return out


@dataclass(frozen=True)
class Read:
    """How an image is read: Tesseract's page segmentation mode, and how many times the image is
    enlarged first."""

    psm: int = 3
    enlarge: int = 1

    def options(self) -> list[str]:
        """What the reading depends on besides the image (the cache's key)."""
        # Pillow does the enlarging: its version is part of the recipe. A 1x read keeps the
        # key it always had.
        extra = [f"enlarge={self.enlarge}", f"pillow={PIL.__version__}"] if self.enlarge != 1 else []
        return [*_options(self.psm), *extra]


def _tsv(png: bytes | Callable[[], bytes], how: Read, identity: bytes | None) -> str | None:
    """Tesseract's TSV for the image (None: not installed, or it failed); an image read before
    comes from the cache (documents/ocr_cache.py)."""
    exe = shutil.which("tesseract")
    if exe is None:
        return None
    if identity is None:
        png = png() if callable(png) else png
        identity = png
    k = ocr_cache.key(exe, identity, how.options())
    hit = ocr_cache.get(k) if k is not None else None
    if hit is not None:
        return hit
    if callable(png):
        png = png()
    text = _reader(png, how) if _reader is not None else None
    if text is None:
        text = read_here(png, how)
    if text is not None and k is not None:
        ocr_cache.put(k, text)
    return text


# Who reads this process's images instead of a Tesseract of its own: a runner's worker sends
# them to its driver, which reads for all the run's workers, a bounded number at once, so no
# worker carries a Tesseract (45-100 MB while it reads a screenshot; docs/results/memory.md).
# The enlarging happens where the reading does, for the same reason (+25-30 MiB for a moment at
# 2x). (PNG bytes, how) -> the TSV, or None when it could not: the image is then read here.
Reader = Callable[[bytes, Read], str | None]
_reader: Reader | None = None


def read_through(reader: Reader | None) -> None:
    """Send this process's reads to `reader` (None: read here again)."""
    global _reader
    _reader = reader


def read_here(png: bytes, how: Read) -> str | None:
    """Tesseract's TSV for the PNG, run in this process (None: not installed, or it failed)."""
    exe = shutil.which("tesseract")
    if exe is None:
        return None
    if how.enlarge != 1:
        try:
            png = enlarged(png, how.enlarge)
        except (OSError, ValueError, Image.DecompressionBombError):
            return None
    try:
        done = subprocess.run(  # noqa: S603 - a fixed program, the image on stdin
            [exe, "stdin", "stdout", *_options(how.psm)],
            input=png,
            capture_output=True,
            env={**_ENV_DEFAULTS, **os.environ},
            timeout=TIMEOUT_S,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.decode("utf-8", "replace")


def enlarged(png: bytes, times: int) -> bytes:
    """The PNG's image in RGB, enlarged `times` times (bicubic), as PNG. Only the bytes outlive
    the call: the enlarged pixels (14 MB for a 1440x810 screenshot at 2x) are gone before
    Tesseract reads."""
    with Image.open(io.BytesIO(png)) as opened:
        rgb = opened.convert("RGB")
    big = rgb.resize((rgb.width * times, rgb.height * times), Image.Resampling.BICUBIC)
    rgb.close()
    try:
        return png_bytes(big)
    finally:
        big.close()


def png_bytes(image: Image.Image) -> bytes:
    """The image as PNG bytes in RGB, as Tesseract is given every image. Read once, at once:
    the fastest compression."""
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    buf = io.BytesIO()
    rgb.save(buf, format="PNG", compress_level=1)
    if rgb is not image:  # the caller's image stays open
        rgb.close()
    return buf.getvalue()


def _options(psm: int) -> list[str]:
    return ["-l", "eng", "--psm", str(int(psm)), "tsv"]
