"""Model conventions: the ONE table where behaviour depends on a model's name.

Everything else in webfovea asks `conventions_for(spec)` instead of testing model
names, so supporting a new model family means adding one row here.

A row says
- which coordinate space the model answers in: `pixels` of the image it was sent,
  or `norm1000` (0-1000 on both axes, whatever the image size);
- how the provider downscales images before the model sees them (the cause of the
  paper's "every click at 3/4" bug: sending 1920x1080 to an endpoint that shrinks
  it to ~1440x810 means the model answers in a space the harness never saw);
- which reply grammar it speaks (only the UI-TARS style exists today);
- request quirks of the endpoint (reasoning models reject `max_tokens` and a
  temperature other than the default).

Sources for the limits (documented defaults):
- Claude: images with a long edge over 1568 px or over ~1,600 tokens (w*h/750,
  i.e. ~1.2 MP) are scaled down preserving aspect ratio (Anthropic vision docs,
  which recommend <= 1.15 MP). The WebFovea paper measured that 1440x810 reaches
  the model unscaled (correction factor 1.010/0.993) while 1920x1080 did not.
- OpenAI GPT-4o-class, detail=high: fit in 2048x2048, then the short side is
  scaled to 768 px (OpenAI vision guide).
- Qwen2.5-VL and UI-TARS-1.5: `smart_resize` to multiples of 28 px within
  max_pixels = 16384*28*28; coordinates are absolute pixels of that resized image,
  so the harness sends a size that is already on the grid (1344x756 at 16:9).
- Qwen2-VL, Qwen3-VL (grid of 32 px), UI-TARS 1.0 and Doubao/Seed UI-TARS, Gemini:
  relative coordinates on a 0-1000 grid.
- Context windows (`context_tokens`): Claude 200k, GPT-4o 128k, o-series 200k (provider
  docs); every other row keeps seed 002's 280,000-token budget.

The harness derives its screenshot cap from the row (`observation/sizing.py`): the
largest image within 1440x810 (or `--cap`) that the row's provider passes unscaled.
The oracle looks at images through a row too (`oracle:provider=FAMILY`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Literal

CoordinateSpace = Literal["pixels", "norm1000"]
Grammar = Literal["uitars"]


@dataclass(frozen=True)
class ModelConventions:
    family: str  # the row's name, recorded in runs so a reader knows which row applied
    coordinate_space: CoordinateSpace = "pixels"
    max_long_edge: int | None = None  # provider downscales beyond this long edge
    max_short_edge: int | None = None  # ... or beyond this short edge (OpenAI tiles)
    max_pixels: int | None = None  # ... or beyond this area
    # Where an area-triggered downscale lands: Anthropic resizes above ~1.2 MP (1,600
    # tokens) but aims below its recommended 1.15 MP, so 1920x1080 arrives as ~1430x804,
    # not the 1460x821 that the trigger alone would give. None: lands at max_pixels.
    resize_target_pixels: int | None = None
    # Qwen-style processors (`smart_resize`) always round both sides to a multiple of the
    # patch grid (28 px for Qwen2/2.5-VL, 32 px for Qwen3-VL), then shrink to max_pixels.
    # 1440x810 becomes 1428x812: a 0.8 % stretch, 16 CSS px at the right edge of 1920.
    size_multiple: int | None = None
    grammar: Grammar = "uitars"
    max_tokens_field: str = "max_tokens"  # OpenAI reasoning models want max_completion_tokens
    send_temperature: bool = True  # reasoning models reject any temperature but the default
    # The context budget history compression plans for (observation/compress.py starts at 75%
    # of it). 280,000 is seed 002's budget for its main model; rows lower it where the
    # provider's documented window is smaller.
    context_tokens: int = 280_000
    note: str = ""

    def provider_size(self, width: int, height: int) -> tuple[int, int]:
        """The size the provider shrinks a `width`x`height` image to before the model sees it.

        The one implementation of every provider's rule: the harness derives its
        screenshot cap from it (`webfovea.observation.sizing.derive_cap`) so that the
        model answers in the space of the image we sent, and the oracle uses it to look
        at the page the way a real API would. Never upscales, except for the rounding to
        the patch grid of `size_multiple` rows.
        """
        if width <= 0 or height <= 0:
            raise ValueError(f"image size must be positive, got {width}x{height}")
        if self.size_multiple:
            return self._smart_resize(width, height, self.size_multiple)
        long_edge, short_edge, area = max(width, height), min(width, height), width * height
        triggered = (
            (self.max_long_edge is not None and long_edge > self.max_long_edge)
            or (self.max_short_edge is not None and short_edge > self.max_short_edge)
            or (self.max_pixels is not None and area > self.max_pixels)
        )
        if not triggered:
            return width, height
        # Once a provider resizes, the result meets every limit, and the area lands at
        # the resize target (below the trigger) whichever limit fired.
        area_limit = self.resize_target_pixels or self.max_pixels
        scale = 1.0
        if self.max_long_edge:
            scale = min(scale, self.max_long_edge / long_edge)
        if self.max_short_edge:
            scale = min(scale, self.max_short_edge / short_edge)
        if area_limit:
            scale = min(scale, math.sqrt(area_limit / area))
        w, h = max(1, round(width * scale)), max(1, round(height * scale))
        # Rounding can land a pixel past a limit; step down along the aspect until inside.
        while self._exceeds(w, h, area_limit):
            if w >= h:
                w, h = w - 1, max(1, round((w - 1) * height / width))
            else:
                w, h = max(1, round((h - 1) * width / height)), h - 1
        return w, h

    def _exceeds(self, w: int, h: int, area_limit: int | None) -> bool:
        if w <= 1 and h <= 1:
            return False
        return bool(
            (self.max_long_edge and max(w, h) > self.max_long_edge)
            or (self.max_short_edge and min(w, h) > self.max_short_edge)
            or (area_limit and w * h > area_limit)
        )

    def _smart_resize(self, width: int, height: int, factor: int) -> tuple[int, int]:
        # Qwen2-VL's `smart_resize` (transformers' image processor), min_pixels left out:
        # it only matters for images smaller than a few patches.
        w, h = max(factor, round(width / factor) * factor), max(factor, round(height / factor) * factor)
        if self.max_pixels and w * h > self.max_pixels:
            beta = math.sqrt(width * height / self.max_pixels)
            w = max(factor, math.floor(width / beta / factor) * factor)
            h = max(factor, math.floor(height / beta / factor) * factor)
        return w, h

    def fits(self, width: int, height: int) -> bool:
        """True when the provider passes an image of this size to the model unscaled."""
        return self.provider_size(width, height) == (width, height)

    def to_json(self) -> dict[str, object]:
        return {
            "family": self.family,
            "coordinate_space": self.coordinate_space,
            "max_long_edge": self.max_long_edge,
            "max_short_edge": self.max_short_edge,
            "max_pixels": self.max_pixels,
            "resize_target_pixels": self.resize_target_pixels,
            "size_multiple": self.size_multiple,
            "grammar": self.grammar,
            "context_tokens": self.context_tokens,
        }


_QWEN_MAX_PIXELS = 16384 * 28 * 28

DEFAULT_CONVENTIONS = ModelConventions(
    family="default",
    note="unknown model: pixels of the sent image, no known provider downscaling",
)

# First match wins, so specific patterns come before general ones. Patterns are
# searched (not matched) in the lower-cased model name, so provider prefixes such
# as `anthropic/` (OpenRouter) or `openai:` do not matter.
CONVENTIONS_TABLE: tuple[tuple[str, ModelConventions], ...] = (
    (
        r"ui-?tars-?1\.5|ui-?tars-?1_5",
        ModelConventions(
            family="ui-tars-1.5",
            max_pixels=_QWEN_MAX_PIXELS,
            size_multiple=28,
            note="Qwen2.5-VL base: absolute pixels of the smart-resized image",
        ),
    ),
    (
        r"doubao|seed-?1\.5-?vl|ui-?tars",
        ModelConventions(
            family="ui-tars",
            coordinate_space="norm1000",
            max_pixels=2700 * 28 * 28,
            size_multiple=28,
            note="UI-TARS 1.0 / Doubao: relative coordinates on a 0-1000 grid",
        ),
    ),
    (
        r"qwen2\.5-?vl|qwen2_5_vl|qwen-?vl-?(max|plus)",
        ModelConventions(
            family="qwen2.5-vl",
            max_pixels=_QWEN_MAX_PIXELS,
            size_multiple=28,
            note="absolute pixels of the smart-resized image",
        ),
    ),
    (
        r"qwen3-?vl",
        ModelConventions(
            family="qwen-vl-norm1000",
            coordinate_space="norm1000",
            max_pixels=16384 * 32 * 32,
            size_multiple=32,
            note="Qwen3-VL grounds on a relative 0-1000 grid; 16 px patches merged 2x2",
        ),
    ),
    (
        r"qwen2-?vl",
        ModelConventions(
            family="qwen2-vl",
            coordinate_space="norm1000",
            max_pixels=_QWEN_MAX_PIXELS,
            size_multiple=28,
            note="Qwen2-VL grounds on a relative 0-1000 grid",
        ),
    ),
    (
        r"claude",
        ModelConventions(
            family="claude",
            max_long_edge=1568,
            max_pixels=1_200_000,
            resize_target_pixels=1_150_000,
            context_tokens=200_000,
            note="Anthropic downscales beyond 1568 px long edge or ~1,600 image tokens (w*h/750), "
            "to below 1.15 MP",
        ),
    ),
    (
        r"gemini",
        ModelConventions(
            family="gemini",
            coordinate_space="norm1000",
            note="Gemini grounds on a 0-1000 grid",
        ),
    ),
    (
        r"(^|[/:])(o[1-9](-|$)|gpt-5)",
        ModelConventions(
            family="openai-reasoning",
            max_long_edge=2048,
            max_short_edge=768,
            max_tokens_field="max_completion_tokens",
            send_temperature=False,
            context_tokens=200_000,
            note="reasoning models: max_completion_tokens, default temperature only",
        ),
    ),
    (
        r"gpt-4",
        ModelConventions(
            family="gpt-4o",
            max_long_edge=2048,
            max_short_edge=768,
            context_tokens=128_000,
            note="detail=high: fit 2048x2048, then short side 768 px",
        ),
    ),
)

_PROVIDERS = ("openai:", "anthropic:")


def model_name_of(spec: str) -> str:
    """The model name inside a spec string (`openai:gpt-4o` -> `gpt-4o`), lower-cased."""
    name = spec.strip()
    for prefix in _PROVIDERS:
        if name.lower().startswith(prefix):
            name = name[len(prefix) :]
            break
    return name.lower()


def families() -> list[str]:
    """The family names of the table's rows, the default row last."""
    return [row.family for _, row in CONVENTIONS_TABLE] + [DEFAULT_CONVENTIONS.family]


def conventions_by_family(family: str) -> ModelConventions:
    """The row named `family` (what a run records, what `oracle:provider=` takes)."""
    wanted = family.strip().lower()
    for row in (*(r for _, r in CONVENTIONS_TABLE), DEFAULT_CONVENTIONS):
        if row.family == wanted:
            return row
    raise ValueError(f"unknown conventions family {family!r}; known: {', '.join(families())}")


_ORACLE_PROVIDER = re.compile(r"^oracle:(?:.*,)?\s*provider\s*=\s*([^,]+)")


def conventions_for(spec: str) -> ModelConventions:
    """The conventions row for a model spec or bare model name; the default row if none matches.

    `oracle` gets the default row (it reads the coordinate convention from the
    prompt), or with `oracle:provider=FAMILY` the row of the provider it imitates, so
    the harness prepares the image for that provider as it would for the real model.
    `replay:PATH` gets the row of the model that made the recording, read from the
    recorded result.json, because the replies are written in its space.
    """
    lowered = spec.strip().lower()
    if lowered.startswith("oracle"):
        provider = _ORACLE_PROVIDER.match(lowered)
        return conventions_by_family(provider.group(1)) if provider else DEFAULT_CONVENTIONS
    if lowered.startswith("replay:"):
        from pathlib import Path

        from webfovea.models.replay import recorded_model_of

        recorded = recorded_model_of(Path(spec.strip()[len("replay:") :]))
        if recorded and not recorded.lower().startswith("replay:"):
            return conventions_for(recorded)
        return DEFAULT_CONVENTIONS
    name = model_name_of(spec)
    for pattern, row in CONVENTIONS_TABLE:
        if re.search(pattern, name):
            return row
    return DEFAULT_CONVENTIONS
