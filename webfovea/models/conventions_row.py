"""One row of the conventions table: how one model family sees images, points and replies.

The table itself (which model names get which row) is `webfovea/models/conventions.py`;
this module holds the shape of a row and the arithmetic every row shares: the provider's
resize rule (`provider_size`) and the coordinate space (`encode_point`/`decode_point`),
so the harness, the oracle and the tests use one implementation of each.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

# pixels: of the image the model was sent (after any smart_resize: rows with size_multiple
# send an image already on the grid, so the two are the same);
# norm1000: 0-1000 on both axes, x = u/1000*W (UI-TARS 1.0, Qwen2-VL, Qwen3-VL);
# norm999: a grid of 1000 cells whose indices run 0-999 (Gemini computer use). A value names
# a cell, so it maps to the cell's centre, (u + 0.5)/1000*W: Google's sample code maps to
# the cell's left edge (u/1000*W), half a cell (~1 CSS px at 1920) left of what was meant.
CoordinateSpace = Literal["pixels", "norm1000", "norm999"]
Grammar = Literal["uitars"]
# How replies come back: the text grammar (`Thought:`/`Action:`), Anthropic tool_use with
# our closed action set as tools, Claude's computer-use tool, OpenAI's computer tool, Gemini
# function calling with our closed action set as function declarations.
ReplyInterface = Literal["text", "anthropic_tools", "anthropic_computer", "openai_computer", "gemini_tools"]

# Normalised spaces: (denominator the value is divided by, largest value the model writes).
NORM_SPACES: dict[str, tuple[int, int]] = {"norm1000": (1000, 1000), "norm999": (1000, 999)}


def encode_point(space: str, x: float, y: float, width: float, height: float) -> tuple[int, int]:
    """A point in pixels of a `width`x`height` image -> what a model in `space` writes for it."""
    if space == "norm999":  # the index of the cell the point is in
        return (
            min(999, max(0, math.floor(x * 1000 / width))),
            min(999, max(0, math.floor(y * 1000 / height))),
        )
    if space in NORM_SPACES:
        den, top = NORM_SPACES[space]
        return (min(top, max(0, round(x * den / width))), min(top, max(0, round(y * den / height))))
    return round(x), round(y)


def decode_point(space: str, u: float, v: float, width: float, height: float) -> tuple[float, float]:
    """What a model in `space` wrote -> pixels of the `width`x`height` image (or CSS box) it meant."""
    if space == "norm999":
        return (u + 0.5) / 1000 * width, (v + 0.5) / 1000 * height
    if space in NORM_SPACES:
        den, _ = NORM_SPACES[space]
        return u / den * width, v / den * height
    return float(u), float(v)


def space_bounds(space: str) -> tuple[float, float] | None:
    """The largest value a normalised space allows (None: pixels, bounded by the image)."""
    if space in NORM_SPACES:
        top = NORM_SPACES[space][1]
        return float(top), float(top)
    return None


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
    # The reply interface the provider's native client uses for this family. The OpenAI
    # Chat Completions client always speaks the text grammar (OpenAI-compatible servers
    # have no computer tool); the Anthropic client honours the anthropic_* values, the
    # Gemini client `gemini_tools`.
    reply_interface: ReplyInterface = "text"
    # Claude's computer-use tool version for this family and the beta header it needs
    # (used when the spec asks for `interface=computer`); None: the model has none.
    computer_tool: str | None = None
    computer_beta: str | None = None
    context_tokens: int | None = None  # the model's context window, for the history budget
    # Prompt caching: whether the provider caches prefixes, and the shortest prefix it
    # caches. The harness never reads min_cacheable_tokens (sources disagree; it records a
    # flag when a call neither wrote nor read the cache); only the loopback fake provider
    # uses it, taking the strictest published figure.
    caches_prompts: bool = False
    min_cacheable_tokens: int | None = None
    max_tokens_field: str = "max_tokens"  # OpenAI reasoning models want max_completion_tokens
    send_temperature: bool = True  # reasoning models reject any temperature but the default
    note: str = ""
    # The model grounds in `coordinate_space` whatever its prompt says (Gemini's grid is
    # trained in, Google documents it for every Gemini model): a config in another space is
    # brought to the row's (`grounding_space`), else its clicks land at a fraction of the page.
    grid_fixed: bool = False

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
        # Qwen2-VL's `smart_resize` (transformers' image processor; UI-TARS action_parser.py),
        # with Python's round() as they use it: halves go to the even multiple (1414/28 =
        # 50.5 -> 50 -> 1400 px; a JavaScript port rounding up gets 1428, UI-TARS-desktop
        # #1730). min_pixels is left out: it only matters below a few patches.
        w, h = max(factor, round(width / factor) * factor), max(factor, round(height / factor) * factor)
        if self.max_pixels and w * h > self.max_pixels:
            beta = math.sqrt(width * height / self.max_pixels)
            w = max(factor, math.floor(width / beta / factor) * factor)
            h = max(factor, math.floor(height / beta / factor) * factor)
        return w, h

    def fits(self, width: int, height: int) -> bool:
        """True when the provider passes an image of this size to the model unscaled."""
        return self.provider_size(width, height) == (width, height)

    def image_tokens(self, width: int, height: int) -> int:
        """Claude's published estimate for an image as the model sees it: w*h/750, rounded up."""
        w, h = self.provider_size(width, height)
        return math.ceil(w * h / 750)

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
            "reply_interface": self.reply_interface,
            "computer_tool": self.computer_tool,
            "context_tokens": self.context_tokens,
            "caches_prompts": self.caches_prompts,
            "grid_fixed": self.grid_fixed,
        }
