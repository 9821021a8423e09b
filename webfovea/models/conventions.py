"""Model conventions: the ONE table where behaviour depends on a model's name.

Everything else in webfovea asks `conventions_for(spec)` instead of testing model
names, so supporting a new model family means adding one row here.

A row says
- which coordinate space the model answers in: `pixels` of the image it was sent,
  `norm1000` (0-1000 on both axes, whatever the image size) or `norm999` (Gemini's
  1000-cell grid, values 0-999);
- how the provider downscales images before the model sees them (the cause of the
  paper's "every click at 3/4" bug: sending 1920x1080 to an endpoint that shrinks
  it to ~1440x810 means the model answers in a space the harness never saw);
- which reply interface the native client uses: the text grammar (UI-TARS style, the
  default for OpenAI-compatible endpoints and local servers), Anthropic tool_use with our
  closed action set as tools (or Claude's computer tool, with its version and beta
  header), OpenAI's computer tool, Gemini function calling with our actions as
  function declarations (`gemini:MODEL`);
- the context window, and whether the provider caches prompt prefixes;
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
- Claude Opus 4.7: pixels 1:1 up to a 2576 px long edge and ~3.75 MP.
- Qwen2-VL, Qwen3-VL (grid of 32 px), UI-TARS 1.0 and Doubao/Seed UI-TARS:
  relative coordinates on a 0-1000 grid; Gemini: a 1000-cell grid, values 0-999.
- Computer tools: `computer_20251124` (beta `computer-use-2025-11-24`) for Opus 4.5+
  and Sonnet 4.6, `computer_20250124` (beta `computer-use-2025-01-24`) for earlier
  Claude 4 models and Haiku 4.5 (Anthropic computer-use tool docs).
Sources and their disagreements: docs/models.md.

The harness derives its screenshot cap from the row (`observation/sizing.py`): the
largest image within 1440x810 (or `--cap`) that the row's provider passes unscaled.
The oracle looks at images through a row too (`oracle:provider=FAMILY`).
"""

from __future__ import annotations

import re
from typing import TypedDict

from webfovea.models.conventions_row import (
    NORM_SPACES,
    CoordinateSpace,
    Grammar,
    ModelConventions,
    ReplyInterface,
    decode_point,
    encode_point,
)

__all__ = [
    "CONVENTIONS_TABLE", "DEFAULT_CONVENTIONS", "NORM_SPACES", "CoordinateSpace", "Grammar", "ModelConventions",
    "ReplyInterface", "conventions_by_family", "conventions_for", "decode_point", "encode_point", "families",
    "grounding_space", "model_name_of",
]  # fmt: skip

_QWEN_MAX_PIXELS = 16384 * 28 * 28


# Claude <= 4.6: resized beyond a 1568 px long edge or ~1,600 tokens (w*h/750, ~1.2 MP),
# landing below the recommended 1.15 MP.
class _ImageLimits(TypedDict):
    """Fields shared by the Claude rows (typed, so `**` keeps each field's type)."""

    max_long_edge: int
    max_pixels: int
    resize_target_pixels: int


class _ComputerTool(TypedDict):
    computer_tool: str
    computer_beta: str


_CLAUDE_IMAGE = _ImageLimits(max_long_edge=1568, max_pixels=1_200_000, resize_target_pixels=1_150_000)
_CLAUDE_NOTE = (
    "Anthropic downscales beyond 1568 px long edge or ~1,600 image tokens (w*h/750), to below 1.15 MP"
)
_COMPUTER_NEW = _ComputerTool(computer_tool="computer_20251124", computer_beta="computer-use-2025-11-24")
_COMPUTER_OLD = _ComputerTool(computer_tool="computer_20250124", computer_beta="computer-use-2025-01-24")

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
            context_tokens=32_768,
            note="Qwen2.5-VL base: absolute pixels of the smart-resized image (factor 28)",
        ),
    ),
    (
        r"doubao|seed-?1\.5-?vl|ui-?tars",
        ModelConventions(
            family="ui-tars",
            coordinate_space="norm1000",
            max_pixels=2700 * 28 * 28,
            size_multiple=28,
            context_tokens=32_768,
            note="UI-TARS 1.0 / Doubao: relative coordinates on a 0-1000 grid",
        ),
    ),
    (
        r"qwen2\.5-?vl|qwen2_5_vl|qwen-?vl-?(max|plus)",
        ModelConventions(
            family="qwen2.5-vl",
            max_pixels=_QWEN_MAX_PIXELS,
            size_multiple=28,
            context_tokens=32_768,
            note="absolute pixels of the smart-resized image (factor 28)",
        ),
    ),
    (
        r"qwen3-?vl",
        ModelConventions(
            family="qwen-vl-norm1000",
            coordinate_space="norm1000",
            max_pixels=16384 * 32 * 32,
            size_multiple=32,
            context_tokens=262_144,
            note="Qwen3-VL grounds on a relative 0-1000 grid; 16 px patches merged 2x2 (factor 32)",
        ),
    ),
    (
        r"qwen2-?vl",
        ModelConventions(
            family="qwen2-vl",
            coordinate_space="norm1000",
            max_pixels=_QWEN_MAX_PIXELS,
            size_multiple=28,
            context_tokens=32_768,
            note="Qwen2-VL grounds on a relative 0-1000 grid",
        ),
    ),
    (
        r"claude-opus-4[-.]7",
        ModelConventions(
            family="claude-opus-4.7",
            max_long_edge=2576,
            max_pixels=3_750_000,
            reply_interface="anthropic_tools",
            context_tokens=1_000_000,
            caches_prompts=True,
            min_cacheable_tokens=4096,
            **_COMPUTER_NEW,
            note="Opus 4.7: pixels 1:1 up to a 2576 px long edge and ~3.75 MP",
        ),
    ),
    (
        r"claude-opus-4[-.][56]",
        ModelConventions(
            family="claude-opus-4.5",
            **_CLAUDE_IMAGE,
            reply_interface="anthropic_tools",
            context_tokens=200_000,
            caches_prompts=True,
            min_cacheable_tokens=4096,
            **_COMPUTER_NEW,
            note=_CLAUDE_NOTE,
        ),
    ),
    (
        r"claude-sonnet-4[-.]6",
        ModelConventions(
            family="claude-sonnet-4.6",
            **_CLAUDE_IMAGE,
            reply_interface="anthropic_tools",
            context_tokens=200_000,
            caches_prompts=True,
            min_cacheable_tokens=2048,  # docs say 1,024; users measured ~2,048: the stricter
            **_COMPUTER_NEW,
            note=_CLAUDE_NOTE,
        ),
    ),
    (
        r"claude-haiku-4[-.]5",
        ModelConventions(
            family="claude-haiku-4.5",
            **_CLAUDE_IMAGE,
            reply_interface="anthropic_tools",
            context_tokens=200_000,
            caches_prompts=True,
            min_cacheable_tokens=4096,
            **_COMPUTER_OLD,
            note=_CLAUDE_NOTE,
        ),
    ),
    (
        r"claude",
        ModelConventions(
            family="claude",
            **_CLAUDE_IMAGE,
            reply_interface="anthropic_tools",
            context_tokens=200_000,
            caches_prompts=True,
            min_cacheable_tokens=2048,  # 1,024 in the docs for Sonnet 4.5/Opus 4.1; take the stricter
            **_COMPUTER_OLD,
            note=_CLAUDE_NOTE,
        ),
    ),
    (
        r"gemini",
        ModelConventions(
            family="gemini",
            coordinate_space="norm999",
            reply_interface="gemini_tools",
            context_tokens=1_000_000,
            grid_fixed=True,  # told "pixels", Gemini still answers on its grid
            note="Gemini grounds on a 1000-cell grid, values 0-999 (x = u/1000*W)",
        ),
    ),
    (
        r"computer-use-preview",
        ModelConventions(
            family="openai-computer-use",
            max_long_edge=2048,
            max_short_edge=768,
            reply_interface="openai_computer",
            computer_tool="computer_use_preview",
            context_tokens=8_192,
            note="OpenAI computer_use_preview (Responses API, one action per call): pixels of the declared display",
        ),
    ),
    (
        r"gpt-5\.([4-9]|\d\d)",
        ModelConventions(
            family="openai-computer",
            max_long_edge=2048,
            max_short_edge=768,
            reply_interface="openai_computer",
            computer_tool="computer",
            max_tokens_field="max_completion_tokens",
            send_temperature=False,
            context_tokens=400_000,
            note="GPT-5.4+: the GA computer tool (Responses API, batched actions[]); pixels of the screenshot",
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
            context_tokens=400_000,
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

_PROVIDERS = ("openai:", "anthropic:", "gemini:")


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
    recorded result.json, because the replies are written in its space. `script:FILE` gets the
    default row whatever the file is called: its replies are written by hand, in the pixels of
    the image as sent.
    """
    lowered = spec.strip().lower()
    if lowered.startswith("script:"):
        return DEFAULT_CONVENTIONS
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


def grounding_space(model: object, configured: str) -> str:
    """The coordinate space to read `model`'s points in, given the config's: the row's own when
    the row fixes its grid (Gemini answers on its 0-999 grid even when told "pixels"), else the
    config's. `model` is a spec string or a client carrying its row (`.conventions`)."""
    if isinstance(model, str):
        row: ModelConventions | None = conventions_for(model)
    else:
        row = getattr(model, "conventions", None)
    if isinstance(row, ModelConventions) and row.grid_fixed:
        return row.coordinate_space
    return configured
