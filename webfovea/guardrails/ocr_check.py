"""The OCR cross-check (`ocr_check`): does the screen contradict the answer's digits?

A value read from a screenshot can differ from the page's text: a custom font draws other
digits than the DOM holds (the rankings site), a canvas holds no text at all, a DOM left stale
by a script still holds the old figure. So the numbers of a candidate answer are looked for on
the screen — the OCR of the evidence screenshot (Tesseract, the optional Debian package
`tesseract-ocr`, through `documents/ocr.py`) and of any crop the agent was shown — and in the
page text the agent read (`read_text`, `find_text`).

Only evidence *against* the answer counts as a mismatch (a note to the verifier, a hold
without one): the page's own text holds the answer's numbers at a visible place
(`guardrails/answer_regions.py`), and the screen there draws other figures — neither the
answer's nor a one-digit misreading of them. Absence is not evidence: an answer whose digits
are on the screen but not in the text read (a PDF viewer's canvas, a custom font), an answer
from a tool's output or worked out from several figures, small digits Tesseract cannot read —
none of these is held, and `why` records what was found (result.json `evidence.ocr`).

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
    note: str | None  # the evidence against the answer, or why the check was skipped; None: none
    skipped: bool = False  # Tesseract is missing or failed
    region: list[int] | None = None  # the crop that showed the numbers (None: the whole screenshot)
    # What was found, in one sentence, whether or not it speaks against the answer (records only:
    # a sentence that does not contradict the answer is never shown to the agent or the verifier).
    why: str | None = None
    seen_there: list[str] | None = None  # the figures OCR read where the page text holds the answer's

    @property
    def mismatch(self) -> bool:
        """The evidence contradicts the answer (the note says how)."""
        return not self.skipped and self.note is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "numbers": self.numbers,
            "in_ocr": self.in_ocr,
            "in_text": self.in_text,
            "mismatch": self.mismatch,
            "skipped": self.skipped,
            "note": self.note,
            "why": self.why,
            "seen_there": self.seen_there,
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
    page's text holds the numbers in view (guardrails/answer_regions.py), in the image's pixels:
    read first, and the only place whose figures can contradict the answer; the whole screenshot
    is read when it does not show them all. `png`: the screenshot's own PNG (the capture's), sent
    to the reader as it is instead of encoding the image again."""
    numbers = numbers_of(answer)
    if not numbers:
        return None
    read = "\n".join(texts)
    in_text = all(holds(read, n) for n in numbers) if texts else None
    near: str | None = None
    if region is not None and ocr.available():
        near = recognise_text(image.crop(region))
        if near is not None and all(holds(near, n) for n in numbers):
            return OcrCheck(numbers, True, in_text, None, region=list(region), why=_support(True, in_text))
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
    if in_ocr:
        return OcrCheck(numbers, True, in_text, None, why=_support(True, in_text))
    there = _figures_against(numbers, near) if near is not None else []
    if there:
        note = (
            f"OCR cross-check: the page text holds the digits of the answer {answer.strip()[:60]!r} "
            f"at a place on the screen that shows {', '.join(there[:4])} instead: a custom font, "
            "a canvas or stale page text may show another value than the text holds."
        )
        return OcrCheck(
            numbers, False, in_text, note, region=list(region or ()) or None, why=note, seen_there=there
        )
    return OcrCheck(numbers, False, in_text, None, why=_support(False, in_text, region is not None))


def _figures_against(numbers: list[str], near: str) -> list[str]:
    """The figures OCR read where the page text holds the answer's, when they speak against it:
    none of them is one of the answer's numbers nor a misreading of one (a part of it, or one
    digit off, added or dropped — what Tesseract does to small digits). Empty: no evidence."""
    read = [n for n in numbers_of(near) if len(n) >= 2 or any(len(a) == 1 for a in numbers)]
    if any(_misread(got, want) for got in read for want in numbers):
        return []
    return read


def _misread(got: str, want: str) -> bool:
    """`got` is `want`, a part of it, or one edit (a digit changed, added or dropped) away."""
    if got in want or want in got:
        return True
    if abs(len(got) - len(want)) > 1:
        return False
    short, long_ = sorted((got, want), key=len)
    if len(short) == len(long_):
        return sum(a != b for a, b in zip(short, long_, strict=True)) <= 1
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))


def _support(in_ocr: bool, in_text: bool | None, placed: bool = False) -> str:
    """What the check found when nothing contradicts the answer (records only)."""
    text = {True: "in the page text read", False: "not in the page text read", None: "no page text was read"}
    if in_ocr:
        return f"OCR cross-check: the answer's digits are on the screen ({text[in_text]})."
    where = (
        "the page text in view holds them, but OCR could not read the figures there"
        if placed
        else "no page text in view holds them (a tool's output, a figure worked out, text read elsewhere)"
    )
    return f"OCR cross-check: the answer's digits were not read on the screen ({text[in_text]}); {where}: no evidence against it."
