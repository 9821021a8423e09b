"""The OCR cross-check (`ocr_check`): are the answer's digits where the answer says they came from?

A value read from a screenshot can differ from the page's text: a custom font draws other
digits than the DOM holds (the rankings site), a canvas holds no text at all, a DOM left stale
by a script still holds the old figure. So the numbers of a candidate answer are looked for in
two places — the OCR of the evidence screenshot (Tesseract, the optional Debian package
`tesseract-ocr`, through `documents/ocr.py`) and the page text the agent read (`read_text`,
`find_text`) — and when they are missing from one of them the check writes one sentence, which
goes to the verifier with the evidence and to the agent when its answer is sent back.

Without Tesseract the check is skipped with a note (`ocr: null` never means "matched").
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PIL import Image

from webfovea.documents import ocr, ocr_cache

_NUMBER = re.compile(r"\d(?:[\d,.'\u00a0\u202f ]*\d)?")
# Separators inside a number (1,234.5 / 1 234,5 / 1'234): dropped before comparing digits.
_SEPARATOR = re.compile(r"(?<=\d)[,.'\u00a0\u202f ](?=\d)")
OCR_SCALE = 2  # the screenshot is enlarged before recognition: its text is small at the cap
# The whole screenshot is read at its own size first: on the built-in suite's evidence 49 of 59
# answers' numbers were legible so, none was found at 1x and not at 2x, and the read costs about
# half the CPU and ~40 MiB less (Tesseract's ~60 MB against ~97, and no enlarged copy); 2x only
# when 1x misses one.
FIRST_SCALE = 1
_BAND = 64  # rows of pixels hashed at once
SPARSE_TEXT = 11  # Tesseract's mode for text scattered over a page (labels, cells), not paragraphs


@dataclass
class OcrCheck:
    numbers: list[str]  # the answer's numbers, as digit strings
    in_ocr: bool | None  # all of them in the OCR of the evidence (None: no OCR)
    in_text: bool | None  # all of them in the text read (None: no text was read)
    note: str | None  # the mismatch, or why the check was skipped; None: it matched
    skipped: bool = False  # Tesseract is missing or failed
    region: list[int] | None = None  # the crop that showed the numbers (None: the whole screenshot)

    @property
    def mismatch(self) -> bool:
        return not self.skipped and self.note is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "numbers": self.numbers,
            "in_ocr": self.in_ocr,
            "in_text": self.in_text,
            "mismatch": self.mismatch,
            "skipped": self.skipped,
            "note": self.note,
            "region": self.region,
        }


def numbers_of(text: str) -> list[str]:
    """The numbers in `text` as digit strings, separators dropped ("1,234.5" -> "12345")."""
    return [re.sub(r"\D", "", m.group(0)) for m in _NUMBER.finditer(text or "")]


def holds(haystack: str, digits: str) -> bool:
    """`digits` occurs in `haystack` as a whole number (its separators ignored)."""
    flat = _SEPARATOR.sub("", haystack or "")
    return re.search(rf"(?<!\d){re.escape(digits)}(?!\d)", flat) is not None


def recognise_text(image: Image.Image, scale: int = OCR_SCALE, png: bytes | None = None) -> str | None:
    """The text Tesseract reads on the image enlarged `scale` times (None: not installed, or it
    failed). `png`: the image's own PNG when the caller has it (a capture's), sent as it is. The
    reader enlarges the image (documents/ocr.py): this process never holds the enlarged pixels."""
    if not ocr.available():
        return None
    # The pixels are hashed only when there is a cache to look them up in.
    identity = _identity(image, png) if ocr_cache.folder() is not None else None
    source: bytes | Callable[[], bytes] = png if png is not None else (lambda: _png(image))
    boxes = ocr.recognise(source, 1, psm=SPARSE_TEXT, identity=identity, enlarge=scale)
    return None if boxes is None else "\n".join(b[4] for b in boxes)


def _identity(image: Image.Image, png: bytes | None) -> bytes:
    """What determines the image Tesseract is given before any enlarging: its PNG's bytes, or its
    pixels, size and mode. An image read before is found by this without encoding it again."""
    if png is not None:
        return b"webfovea-ocr-png\0" + hashlib.sha256(png).digest()
    h = hashlib.sha256(f"webfovea-ocr-pixels\0{image.mode}\0{image.size}\0".encode())
    # In bands of rows: the pixels as one bytes object would be a copy of the image (3.5 MB for
    # 1440x810 RGB), and Pillow joins its chunks into it, twice that for a moment.
    for top in range(0, image.height, _BAND):
        band = image.crop((0, top, image.width, min(image.height, top + _BAND)))
        h.update(band.tobytes())
        band.close()
    return h.digest()


def _png(image: Image.Image) -> bytes:
    """This process's one encoding of an image it sends to be read (none when the caller has the
    capture's own PNG)."""
    return ocr.png_bytes(image)


def check(
    answer: str,
    image: Image.Image,
    texts: list[str],
    shown: list[Image.Image] | None = None,
    region: tuple[int, int, int, int] | None = None,
    *,
    png: bytes | None = None,
) -> OcrCheck | None:
    """Cross-check the answer's numbers (None: the answer has none, nothing to check: Tesseract,
    seconds a screenshot (docs/results/verifier.md), runs only for an answer with digits). `shown`: images the
    agent's actions showed it beside the screenshot (a zoom crop), read too. `region`: where the
    page's text holds the numbers (guardrails/answer_regions.py), in the image's pixels: read
    first; the whole screenshot only when it does not show them all. `png`: the screenshot's
    own PNG (the capture's), sent to the reader as it is instead of encoding the image again."""
    numbers = numbers_of(answer)
    if not numbers:
        return None
    read = "\n".join(texts)
    in_text = all(holds(read, n) for n in numbers) if texts else None
    if region is not None and ocr.available():
        near = recognise_text(image.crop(region))
        if near is not None and all(holds(near, n) for n in numbers):
            return OcrCheck(numbers, True, in_text, _mismatch(answer, True, in_text), region=list(region))
    seen = recognise_text(image, FIRST_SCALE, png)
    if seen is None or not all(holds(seen, n) for n in numbers):
        seen = recognise_text(image, OCR_SCALE, png)
    if seen is None:
        why = "OCR check skipped: tesseract is not installed" if not ocr.available() else "OCR failed"
        return OcrCheck(numbers, None, in_text, why + ".", skipped=True)
    in_ocr = all(holds(seen, n) for n in numbers)
    for crop in shown or []:  # only when the screenshot did not show them all
        if in_ocr:
            break
        seen = f"{seen}\n{recognise_text(crop) or ''}"
        in_ocr = all(holds(seen, n) for n in numbers)
    return OcrCheck(numbers, in_ocr, in_text, _mismatch(answer, in_ocr, in_text))


def _mismatch(answer: str, in_ocr: bool, in_text: bool | None) -> str | None:
    said = f"the digits of the answer {answer.strip()[:60]!r}"
    if in_ocr and in_text is False:
        return (
            f"OCR cross-check: {said} are on the screen but not in the page text read: the site may "
            "draw its digits with a custom font, so the text and the screen disagree."
        )
    if not in_ocr and in_text:
        return (
            f"OCR cross-check: {said} are in the page text read but not on the screen (OCR): a custom "
            "font, a canvas or stale page text may show another value than the text holds."
        )
    if not in_ocr:
        where = (
            "neither on the screen (OCR) nor in the page text read"
            if in_text is False
            else "on the screen (OCR)"
        )
        return f"OCR cross-check: {said} were not found {where}."
    return None
