"""The model that answers `look` and `locate`: a separate vision model, or the task's own.

`--vision-model SPEC` (`Harness.launch(..., vision_model=SPEC)`, `HarnessConfig.vision_model`)
sends every look/locate question to a second real client built from the same spec grammar as
`--model`; the task's model then never sees those images, only the answer text. Without it,
`locate` asks the task's own model in a separate plain call (like a compression summary: no
tools, not part of an append-only transcript) and `look` attaches the screenshot to the
task model's next input, as before.

Each call is recorded by the action (the step record's `vision`: purpose, model, raw reply,
usage, seconds, error); its usage is counted apart from the task model's when the model is
separate (`result.json` `vision_usage`).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any

from PIL import Image
from playwright.async_api import Page

from webfovea.browser.world import worlds
from webfovea.models.base import Model, ModelInput
from webfovea.observation.capture import Shot
from webfovea.observation.grid import draw_grid

CLOSING = "Answer now in the form asked for."


async def css_viewport(page: Page) -> tuple[float, float]:
    """The CSS viewport size, read in the harness's isolated world (a page that overrides
    innerWidth cannot change what the mapping uses)."""
    w = worlds(page)
    width, height = await w.call(await w.main(), "() => [innerWidth, innerHeight]")
    return float(width), float(height)


class VisionPort:
    """Implements `execution.context.Vision` over one model and the harness's capture."""

    def __init__(
        self,
        model: Model,
        *,
        label: str,
        separate: bool,
        capture: Callable[[], Awaitable[Shot]],
        viewport: Callable[[], Awaitable[tuple[float, float]]],
    ) -> None:
        self.model = model
        self.label = label  # the spec of the vision model, or "task model"
        self._separate = separate
        self._capture = capture
        self._viewport = viewport
        self.calls = 0

    @property
    def separate(self) -> bool:
        return self._separate

    async def view(self, grid: bool = False) -> tuple[Image.Image, Shot]:
        shot = await self._capture()
        return (draw_grid(shot.image) if grid else shot.image), shot

    async def viewport(self) -> tuple[float, float]:
        w, h = await self._viewport()
        return float(w), float(h)

    async def ask(
        self, purpose: str, system: str, prompt: str, image: Image.Image
    ) -> tuple[str, dict[str, Any]]:
        """One plain call: the question and the image; never raises (an error is recorded)."""
        inp = ModelInput(
            system=system,
            task=prompt,
            history=[],
            images=[image],
            feedback=None,
            step=self.calls,
            purpose=purpose,
            closing=CLOSING,
        )
        self.calls += 1
        t0 = time.monotonic()
        record: dict[str, Any] = {
            "purpose": purpose,
            "model": self.label,
            "separate": self._separate,
            "image_size": list(image.size),
        }
        text = ""
        try:
            reply = await self.model.next_reply(inp)
            text = reply.text or ""
            record["usage"] = reply.usage.to_json()
            record["call_usage"] = reply.usage  # the Usage object, for the totals (not written)
        except Exception as e:  # noqa: BLE001 - a failed look/locate is feedback, not the end of the task
            record["error"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
        record["raw_reply"] = text
        record["seconds"] = round(time.monotonic() - t0, 4)
        return text, record
