"""How big the screenshot the model is sent may be: the cap, derived from the model's conventions row.

The paper measured 1440x810 as the size that reaches Claude unscaled; it is the default
cap and the upper bound of every derived cap. A model's provider may shrink less than
that (GPT-4o: short side 768; Qwen: a 28 px grid), and an image the provider resizes
arrives in a coordinate space the harness never saw: every click lands a few percent
off. So the cap is the largest image within the bound, at the viewport's aspect, that
the row's provider passes unscaled (`ModelConventions.fits`). A row can only lower the
bound; sending more to a model that accepts more is the explicit `cap=` / `--cap`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from webfovea.config import HarnessConfig, make_config
from webfovea.models.conventions import (
    DEFAULT_CONVENTIONS,
    ModelConventions,
    conventions_by_family,
    conventions_for,
)
from webfovea.observation.modes import get as get_mode

DEFAULT_CAP = (1440, 810)
DEFAULT_CONTEXT_TOKENS = 280_000
# Device pixel ratios the derived cap must hold for: the capture is in device pixels,
# and a cap larger than a small viewport is only reached on a HiDPI screen.
_DPRS = (1.0, 2.0)
_CAP_RE = re.compile(r"^\s*(\d+)\s*[x×X*,]\s*(\d+)\s*$")


def fit_within(size: tuple[int, int], cap: tuple[int, int]) -> tuple[int, int]:
    """The size the harness resizes a `size` capture to: aspect kept, never upscaled, rounded."""
    w, h = size
    scale = min(1.0, cap[0] / w, cap[1] / h)
    return max(1, round(w * scale)), max(1, round(h * scale))


def parse_cap(text: str) -> tuple[int, int]:
    """`1920x1080` (or `1920×1080`) -> (1920, 1080)."""
    m = _CAP_RE.match(text)
    if not m or int(m.group(1)) < 1 or int(m.group(2)) < 1:
        raise ValueError(f"cap {text!r} is not WIDTHxHEIGHT (e.g. 1920x1080)")
    return int(m.group(1)), int(m.group(2))


@lru_cache(maxsize=256)
def derive_cap(
    row: ModelConventions, viewport: tuple[int, int], bound: tuple[int, int] = DEFAULT_CAP
) -> tuple[int, int]:
    """The largest cap within `bound` whose resized capture the row's provider passes unscaled.

    The check runs through the harness's own resize (`fit_within`, with its rounding) for
    a capture of the viewport at each device pixel ratio in `_DPRS`, so what is proven
    is the image the harness really sends. Candidates are the sizes `fit_within` can
    produce at the viewport's aspect (one per width and one per height) plus the bound.
    Ranking: the largest image sent at DPR 1, then at DPR 2; then the bound itself (a row
    that does not need to lower it leaves it as it is), then a cap equal to what is sent.
    """
    vw, vh = viewport
    if vw < 1 or vh < 1 or bound[0] < 1 or bound[1] < 1:
        raise ValueError(f"viewport {viewport} and cap {bound} must be positive")
    candidates = {bound}
    candidates.update((w, max(1, round(vh * w / vw))) for w in range(1, bound[0] + 1))
    candidates.update((max(1, round(vw * h / vh)), h) for h in range(1, bound[1] + 1))
    best: tuple[tuple[int, ...], tuple[int, int]] | None = None
    fallback: tuple[tuple[float, ...], tuple[int, int]] | None = None
    for cap in candidates:
        if cap[0] > bound[0] or cap[1] > bound[1]:
            continue
        sent = [fit_within((round(vw * d), round(vh * d)), cap) for d in _DPRS]
        areas = tuple(w * h for w, h in sent)
        if all(row.fits(*s) for s in sent):
            key = (*areas, cap == bound, cap == sent[0], cap[0] * cap[1])
            if best is None or key > best[0]:
                best = (key, cap)
        elif best is None:
            # No exact fit (an aspect the provider's grid cannot meet): keep the cap whose
            # image the provider distorts least, so the error is as small as it can be.
            worst = max(
                abs(p / s - 1) for s0 in sent for p, s in zip(row.provider_size(*s0), s0, strict=True)
            )
            fkey = (-round(worst, 4), *areas)
            if fallback is None or fkey > fallback[0]:
                fallback = (fkey, cap)
    if best is not None:
        return best[1]
    assert fallback is not None
    return fallback[1]


def harness_config(
    profile: str = "webfovea",
    disable: list[str] | None = None,
    *,
    model: str | None = None,
    cap: tuple[int, int] | str | None = None,
    viewport: tuple[int, int] | None = None,
    **overrides: Any,
) -> HarnessConfig:
    """A HarnessConfig for a model spec: its conventions row picks the coordinate convention
    and the screenshot cap, and the run records the row's family.

    What the caller states wins: `coordinate_convention=` (the CLI's `--coords`) over the
    row's space; `screenshot_cap_width/height=` are taken as they are (no derivation);
    `cap=` raises the bound the row may lower (the CLI's `--cap`).

    The cap is derived for the config's viewport (`viewport=(w, h)`): a harness put on a
    page of another aspect (`Harness.on_page`) must be given a config made for that page.
    """
    if viewport is not None:
        overrides["viewport_width"], overrides["viewport_height"] = viewport
    if overrides.get("observation") is not None:
        get_mode(str(overrides["observation"]))  # an unknown mode: ValueError naming the known ones
    if overrides.get("conventions"):  # a row named outright (a recorded config) wins over the spec
        row = conventions_by_family(str(overrides["conventions"]))
    else:
        row = conventions_for(model) if model else DEFAULT_CONVENTIONS
    if overrides.get("coordinate_convention") is None:
        overrides["coordinate_convention"] = row.coordinate_space
    if overrides["coordinate_convention"] not in ("pixels", "norm1000", "norm999"):
        raise ValueError(
            f"unknown coordinate convention {overrides['coordinate_convention']!r}; "
            "use pixels, norm1000 or norm999"
        )
    overrides["conventions"] = row.family
    # The row's context window (rows that do not know theirs: the winner's 280,000-token budget, docs/profiles.md).
    overrides.setdefault("context_tokens", row.context_tokens or DEFAULT_CONTEXT_TOKENS)
    explicit = "screenshot_cap_width" in overrides or "screenshot_cap_height" in overrides
    if explicit and cap is not None:
        raise ValueError("give either cap= or screenshot_cap_width/height, not both")
    config = make_config(profile, disable, **overrides)
    if explicit:
        return config
    bound = parse_cap(cap) if isinstance(cap, str) else (cap or DEFAULT_CAP)
    width, height = derive_cap(
        row, (config.viewport_width, config.viewport_height), (int(bound[0]), int(bound[1]))
    )
    return config.model_copy(update={"screenshot_cap_width": width, "screenshot_cap_height": height})
