"""The evidence behind an answer: what it was read from, kept with it.

Live data drifts, and only what was on the screen can show an answer was right when it was
given. So every `finished` is taken with its evidence: the screenshot the model was looking at
when it answered (marked where it last acted), the page text it read (`read_text`/`find_text`,
`Response.read`), the page's URL and, when one did, the page's own request whose response held
the answer's value (XHR/fetch bodies are looked at in memory only, never stored). The verifier
is shown exactly this (guardrails/verifier.py); the task driver writes it as `evidence.png` and
result.json `evidence` (docs/records.md).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from webfovea.guardrails.ocr_check import OcrCheck, holds, numbers_of
from webfovea.record.atomic import now_iso
from webfovea.record.redact import redact_url
from webfovea.record.writer import mark_points

MAX_TEXTS = 8  # the latest texts read that go with an answer
MAX_TEXT_CHARS = 700
MAX_SHOWN = 2  # the latest images an action showed (zoom crops) that OCR also reads
MAX_RESPONSES = 40  # the latest XHR/fetch responses looked at for the value
MAX_BODY_BYTES = 256_000
_TEXTUAL = ("json", "text", "xml", "javascript", "csv")


@dataclass
class Evidence:
    answer: str
    image: Image.Image  # the screenshot as the model was sent it, marked
    url: str
    texts: list[str]
    mark: tuple[float, float] | None  # where the agent last acted, in the image's pixels
    taken_at: str
    request: dict[str, Any] | None = None  # {method, url, status, resource_type}
    ocr: OcrCheck | None = None
    screenshot: str | None = None  # the file the driver saved it as (evidence.png)
    # How the workflow cache confirmed this answer on the page (webfovea/cache/): it was not sent
    # to the verifier again. None: the answer is the model's.
    confirmed: str | None = None
    plain: Image.Image | None = None  # the screenshot as the model was sent it, unmarked

    def to_json(self) -> dict[str, Any]:
        return {
            "screenshot": self.screenshot,
            "taken_at": self.taken_at,
            "url": redact_url(self.url),
            "text_read": self.texts,
            "mark": [round(v, 1) for v in self.mark] if self.mark else None,
            "request": self.request,
            "ocr": self.ocr.to_json() if self.ocr is not None else None,
            "confirmed": self.confirmed,
        }


@dataclass
class _Seen:
    method: str
    url: str
    status: int
    resource_type: str
    body: str


@dataclass
class EvidenceKeeper:
    """Per task: the texts read, the last point acted on, the latest responses of the page."""

    texts: deque[str] = field(default_factory=lambda: deque(maxlen=MAX_TEXTS))
    point_css: tuple[float, float] | None = None
    # The latest images an action itself showed (a zoom crop): an answer
    # read from a magnified region is not legible in the screenshot, so OCR looks there too.
    shown: deque[Image.Image] = field(default_factory=lambda: deque(maxlen=MAX_SHOWN))
    responses: deque[_Seen] = field(default_factory=lambda: deque(maxlen=MAX_RESPONSES))
    # The answer the workflow cache is replaying and has confirmed on the page (whole tokens at
    # the elements it was read from), with how: set by the cache for its own `finished` only.
    confirmed: tuple[str, str] | None = None
    # Every `finished` an answer check held, {step, check, why}: result.json `holds`.
    holds: list[dict[str, Any]] = field(default_factory=list)
    _context: Any = None
    _pending: set[asyncio.Future[None]] = field(default_factory=set)

    def saw(
        self, read: list[str], point: tuple[float, float] | None, shown: list[Image.Image] | None = None
    ) -> None:
        """One executed action: the text it read, the point it acted on, the images it showed."""
        self.texts.extend(t[:MAX_TEXT_CHARS] for t in read)
        self.shown.extend(shown or [])
        if point is not None:
            self.point_css = (float(point[0]), float(point[1]))

    # the page's responses -------------------------------------------------------------
    def watch(self, context: Any) -> None:
        """Look at the XHR/fetch responses of the browser context (bodies kept in memory only)."""
        self._context = context
        context.on("response", self._on_response)

    def close(self) -> None:
        if self._context is not None:
            with contextlib.suppress(Exception):
                self._context.remove_listener("response", self._on_response)
        self._context = None
        for fut in self._pending:
            fut.cancel()

    def _on_response(self, resp: Any) -> None:
        try:
            req = resp.request
            kind = (resp.headers.get("content-type") or "").lower()
            if req.resource_type not in ("xhr", "fetch") or not any(t in kind for t in _TEXTUAL):
                return
            fut = asyncio.ensure_future(self._read(resp, req))
        except Exception:  # noqa: BLE001 - a side channel never disturbs the task
            return
        self._pending.add(fut)
        fut.add_done_callback(self._pending.discard)

    async def _read(self, resp: Any, req: Any) -> None:
        try:
            body = await resp.body()
        except Exception:  # noqa: BLE001 - a body that is gone (navigation, redirect)
            return
        if len(body) <= MAX_BODY_BYTES:
            text = body.decode("utf-8", "replace")
            self.responses.append(_Seen(req.method, resp.url, resp.status, req.resource_type, text))

    def request_holding(self, answer: str) -> dict[str, Any] | None:
        """The newest response whose body holds the answer's value (its numbers, else its text)."""
        numbers = numbers_of(answer)
        text = answer.strip()
        if not numbers and not (2 < len(text) <= 200):
            return None
        for seen in reversed(self.responses):
            hit = all(holds(seen.body, n) for n in numbers) if numbers else text.lower() in seen.body.lower()
            if hit:
                return {
                    "method": seen.method,
                    "url": redact_url(seen.url),
                    "status": seen.status,
                    "resource_type": seen.resource_type,
                }
        return None

    # the answer -----------------------------------------------------------------------
    def confirmed_by_cache(self, answer: str) -> str | None:
        """How the workflow cache confirmed `answer` on the page, when it is the answer the cache
        is replaying; None for any other answer."""
        if self.confirmed is None or self.confirmed[0] != answer:
            return None
        return self.confirmed[1]

    def gather(self, answer: str, image: Image.Image, to_image: Any, url: str) -> Evidence:
        """The evidence of one answer. `to_image` maps a CSS point into the image's pixels."""
        mark = to_image(*self.point_css) if self.point_css is not None else None
        marked = mark_points(image.convert("RGB"), [mark] if mark else [])
        return Evidence(
            answer=answer,
            image=marked,
            url=url,
            texts=list(self.texts),
            mark=mark,
            taken_at=now_iso(),
            request=self.request_holding(answer),
            plain=image,
        )
