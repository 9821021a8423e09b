"""Turn a ModelInput into the request content of a chat API (OpenAI Chat Completions, Anthropic Messages).

The model sees: the generated system prompt; then one user message with the task,
the full text history of its earlier steps (numbered), the feedback note on its
last action, an image that action produced (zoom's magnified crop, labelled as such),
and the last N screenshots oldest first, each labelled with its step, the current one
last and labelled as current. The text and the labels are the same for every provider;
only the container shapes differ.
"""

from __future__ import annotations

import base64
import io
import weakref
from typing import Any

from PIL import Image

from webfovea.models.base import ModelInput

# A screenshot is re-sent at each of the next N steps; encoding a 1440x810 PNG costs
# tens of milliseconds, so the encodings of the last few images are kept. Keyed by
# id() and checked through a weak reference, because PIL images are unhashable and
# an id can be reused once an image is freed.
_PNG_CACHE: dict[int, tuple[weakref.ref[Image.Image], str]] = {}
_PNG_CACHE_SIZE = 16


def png_base64(image: Image.Image) -> str:
    """The image as base64 PNG text (cached for the image object)."""
    key = id(image)
    hit = _PNG_CACHE.get(key)
    if hit is not None and hit[0]() is image:
        return hit[1]
    buf = io.BytesIO()
    img = image if image.mode in ("RGB", "RGBA", "L") else image.convert("RGB")
    # Level 3 is about twice as fast as the default 6 for screenshots and only slightly larger.
    img.save(buf, format="PNG", compress_level=3)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    _remember(image, data)
    return data


def share_encoding(image: Image.Image, twin: Image.Image) -> None:
    """`twin` holds exactly `image`'s pixels (the history's copy of a screenshot): it gets the
    encoding already made for `image`, so it is neither decoded nor encoded again, and a
    provider's prompt cache sees the same bytes at every step."""
    hit = _PNG_CACHE.get(id(image))
    if hit is not None and hit[0]() is image:
        _remember(twin, hit[1])


def _remember(image: Image.Image, data: str) -> None:
    # An entry whose image is gone holds its text (~1 MB a screenshot) for nothing.
    for key in [k for k, (ref, _) in _PNG_CACHE.items() if ref() is None]:
        del _PNG_CACHE[key]
    if len(_PNG_CACHE) >= _PNG_CACHE_SIZE:
        _PNG_CACHE.pop(next(iter(_PNG_CACHE)))
    _PNG_CACHE[id(image)] = (weakref.ref(image), data)


def image_steps(inp: ModelInput) -> list[int]:
    """1-based step numbers of the screenshots: the last one is the current step."""
    current = inp.step + 1
    n = len(inp.images)
    return [current - (n - 1 - i) for i in range(n)]


SNAPSHOT_TITLE = "Accessibility snapshot of the page now (refs are valid until the next snapshot)"


def intro_text(inp: ModelInput) -> str:
    """Task, numbered history and feedback: everything the model reads before the images."""
    lines = ["## Task", inp.task.strip(), ""]
    if inp.summary:
        covered = f" (steps 1-{inp.history_start - 1})" if inp.history_start > 2 else ""
        lines += [f"## Summary of your earlier steps{covered}", inp.summary.strip(), ""]
    lines.append("## Your earlier steps" if not inp.summary else "## Your most recent steps")
    if inp.history:
        # History entries are the cleaned replies of steps k..n, oldest first (k = history_start).
        for i, entry in enumerate(inp.history, start=inp.history_start):
            lines.append(f"Step {i}:")
            lines.append(entry.strip() or "(empty reply)")
            if i - 1 < len(inp.snapshot_stubs) and inp.snapshot_stubs[i - 1]:
                lines.append(inp.snapshot_stubs[i - 1])
    else:
        lines.append("(none since the summary)" if inp.summary else "(none: this is the first step)")
    if inp.feedback:
        lines += ["", "## What happened after your last action", inp.feedback.strip()]
    if inp.snapshot is not None:
        lines += [
            "",
            f"## {inp.snapshot_title or SNAPSHOT_TITLE}",
            inp.snapshot,
        ]
    n = len(inp.images)
    if n:
        first = " First, the image your last action produced; then the" if inp.attachments else " The"
        lines += [
            "",
            "## Screenshots",
            f"{n} screenshot{'s' if n != 1 else ''} follow.{first} screenshots, oldest first; "
            "the last one is the current view.",
        ]
    return "\n".join(lines)


def image_label(step: int, is_current: bool) -> str:
    if is_current:
        return f"Current screenshot (step {step}), the page as it is now:"
    return f"Earlier screenshot (step {step}):"


def closing_text(inp: ModelInput) -> str:
    if inp.closing:
        return inp.closing
    return f"Decide step {inp.step + 1}: reply with one Thought and one Action."


def openai_messages(inp: ModelInput, *, image_detail: str | None = None) -> list[dict[str, Any]]:
    """Chat Completions `messages`: a system message and one user message with inline PNG data URLs."""
    parts: list[dict[str, Any]] = [{"type": "text", "text": intro_text(inp)}]
    for a in inp.attachments:  # before the screenshots, so the last image is still the current view
        parts += [
            {"type": "text", "text": a.label},
            {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{png_base64(a.image)}"}},
        ]
    steps = image_steps(inp)
    for i, (image, step) in enumerate(zip(inp.images, steps, strict=True)):
        parts.append({"type": "text", "text": image_label(step, i == len(steps) - 1)})
        image_url: dict[str, Any] = {"url": f"data:image/png;base64,{png_base64(image)}"}
        if image_detail:
            image_url["detail"] = image_detail
        parts.append({"type": "image_url", "image_url": image_url})
    parts.append({"type": "text", "text": closing_text(inp)})
    return [{"role": "system", "content": inp.system}, {"role": "user", "content": parts}]


def anthropic_image(image: Image.Image) -> dict[str, Any]:
    return {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": png_base64(image)},
    }


def anthropic_content(inp: ModelInput) -> list[dict[str, Any]]:
    """Messages API user `content` blocks (the system prompt goes in the top-level `system`)."""
    blocks: list[dict[str, Any]] = [{"type": "text", "text": intro_text(inp)}]
    for a in inp.attachments:  # before the screenshots, so the last image is still the current view
        blocks += [{"type": "text", "text": a.label}, anthropic_image(a.image)]
    steps = image_steps(inp)
    for i, (image, step) in enumerate(zip(inp.images, steps, strict=True)):
        blocks.append({"type": "text", "text": image_label(step, i == len(steps) - 1)})
        blocks.append(anthropic_image(image))
    blocks.append({"type": "text", "text": closing_text(inp)})
    return blocks


def anthropic_messages(inp: ModelInput) -> list[dict[str, Any]]:
    return [{"role": "user", "content": anthropic_content(inp)}]
