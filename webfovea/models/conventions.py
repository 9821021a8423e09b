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

Sources for the limits (documented defaults; a run can override them in config):
- Claude: images with a long edge over 1568 px or over ~1,600 tokens (w*h/750,
  i.e. ~1.2 MP) are scaled down preserving aspect ratio (Anthropic vision docs,
  which recommend <= 1.15 MP). The WebFovea paper measured that 1440x810 reaches
  the model unscaled (correction factor 1.010/0.993) while 1920x1080 did not.
- OpenAI GPT-4o-class, detail=high: fit in 2048x2048, then the short side is
  scaled to 768 px (OpenAI vision guide).
- Qwen2.5-VL and UI-TARS-1.5: `smart_resize` to multiples of 28 px within
  max_pixels = 16384*28*28; coordinates are absolute pixels of that resized image,
  which for a <= 1440x810 image is within 1% of the sent image.
- Qwen2-VL, Qwen3-VL, UI-TARS 1.0 and Doubao/Seed UI-TARS, Gemini: relative
  coordinates on a 0-1000 grid.
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
    grammar: Grammar = "uitars"
    max_tokens_field: str = "max_tokens"  # OpenAI reasoning models want max_completion_tokens
    send_temperature: bool = True  # reasoning models reject any temperature but the default
    note: str = ""

    def provider_size(self, width: int, height: int) -> tuple[int, int]:
        """The size the provider shrinks a `width`x`height` image to before the model sees it.

        Never upscales. The harness keeps its own cap at or below this so the model
        answers in the space of the image we sent; the oracle uses it to look at the
        page the way a real API would.
        """
        if width <= 0 or height <= 0:
            raise ValueError(f"image size must be positive, got {width}x{height}")
        scale = 1.0
        long_edge, short_edge = max(width, height), min(width, height)
        if self.max_long_edge and long_edge > self.max_long_edge:
            scale = min(scale, self.max_long_edge / long_edge)
        if self.max_short_edge and short_edge * scale > self.max_short_edge:
            scale = min(scale, self.max_short_edge / short_edge)
        if self.max_pixels and width * height * scale * scale > self.max_pixels:
            scale = min(scale, math.sqrt(self.max_pixels / (width * height)))
        if scale >= 1.0:
            return width, height
        # The epsilon keeps 3000 * (1568 / 3000) at 1568 rather than 1567.999...
        return max(1, math.floor(width * scale + 1e-6)), max(1, math.floor(height * scale + 1e-6))

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
            "grammar": self.grammar,
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
            note="Qwen2.5-VL base: absolute pixels of the smart-resized image",
        ),
    ),
    (
        r"doubao|seed-?1\.5-?vl|ui-?tars",
        ModelConventions(
            family="ui-tars",
            coordinate_space="norm1000",
            max_pixels=2700 * 28 * 28,
            note="UI-TARS 1.0 / Doubao: relative coordinates on a 0-1000 grid",
        ),
    ),
    (
        r"qwen2\.5-?vl|qwen2_5_vl|qwen-?vl-?(max|plus)",
        ModelConventions(
            family="qwen2.5-vl",
            max_pixels=_QWEN_MAX_PIXELS,
            note="absolute pixels of the smart-resized image",
        ),
    ),
    (
        r"qwen3-?vl|qwen2-?vl",
        ModelConventions(
            family="qwen-vl-norm1000",
            coordinate_space="norm1000",
            max_pixels=_QWEN_MAX_PIXELS,
            note="Qwen2-VL and Qwen3-VL ground on a relative 0-1000 grid",
        ),
    ),
    (
        r"claude",
        ModelConventions(
            family="claude",
            max_long_edge=1568,
            max_pixels=1_200_000,
            note="Anthropic downscales beyond 1568 px long edge or ~1,600 image tokens (w*h/750)",
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
            note="reasoning models: max_completion_tokens, default temperature only",
        ),
    ),
    (
        r"gpt-4",
        ModelConventions(
            family="gpt-4o",
            max_long_edge=2048,
            max_short_edge=768,
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


def conventions_for(spec: str) -> ModelConventions:
    """The conventions row for a model spec or bare model name; the default row if none matches.

    `oracle` gets the default row (it reads the coordinate convention from the
    prompt). `replay:PATH` gets the row of the model that made the recording, read
    from the recorded result.json, because the replies are written in its space.
    """
    lowered = spec.strip().lower()
    if lowered.startswith("oracle"):
        return DEFAULT_CONVENTIONS
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
