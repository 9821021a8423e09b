"""One test per conventions row: the image the harness sends is one the provider passes
unscaled, and a point at each corner and the centre maps back within one CSS pixel.

The "model" here answers the way the row says a model of that family answers: in the
space of the image it *sees* (the provider's resize of what we sent), written in the
row's coordinate space. The harness maps it back through `Shot.to_css`, the code the
executor uses.
"""

from __future__ import annotations

import pytest
from PIL import Image

from webfovea.models.conventions import (
    conventions_by_family,
    conventions_for,
    decode_point,
    encode_point,
    families,
)
from webfovea.observation.capture import Shot
from webfovea.observation.sizing import DEFAULT_CAP, derive_cap, fit_within

VIEWPORTS = [(1920, 1080), (1280, 720), (1366, 768), (1280, 800)]


def _points(w: int, h: int) -> list[tuple[float, float]]:
    # Centres of the corner CSS pixels and of the viewport.
    return [(0.5, 0.5), (w - 0.5, 0.5), (0.5, h - 0.5), (w - 0.5, h - 0.5), (w / 2, h / 2)]


@pytest.mark.parametrize("family", families())
@pytest.mark.parametrize("viewport", VIEWPORTS, ids=lambda v: f"{v[0]}x{v[1]}")
def test_row_sends_an_unresized_image_and_maps_corners_back(family, viewport):
    row = conventions_by_family(family)
    vw, vh = viewport
    sent = fit_within(viewport, derive_cap(row, viewport, DEFAULT_CAP))
    seen = row.provider_size(*sent)
    assert seen == sent, f"{family}: the provider would resize {sent} to {seen}"
    shot = Shot(
        image=Image.new("RGB", sent),
        css_width=vw,
        css_height=vh,
        dpr=1.0,
        raw_size=viewport,
        coordinate_convention=row.coordinate_space,
        aligned=True,
    )
    for css in _points(vw, vh):
        # What the model writes: the point in the image it sees, in the row's space.
        px = (css[0] * seen[0] / vw, css[1] * seen[1] / vh)
        written = encode_point(row.coordinate_space, *px, *seen)
        assert shot.in_bounds(*written), (family, css, written)
        back = shot.to_css(*written)
        assert abs(back[0] - css[0]) <= 1.0 and abs(back[1] - css[1]) <= 1.0, (
            family,
            viewport,
            css,
            written,
            back,
        )


def test_norm999_names_one_of_1000_cells():
    assert encode_point("norm999", 1439.9, 809.9, 1440, 810) == (999, 999)
    assert decode_point("norm999", 500, 500, 1000, 1000) == pytest.approx((500.5, 500.5))  # the cell centre
    assert encode_point("norm1000", 1440, 810, 1440, 810) == (1000, 1000)
    assert conventions_for("gemini-2.5-computer-use").coordinate_space == "norm999"


def test_smart_resize_replicates_qwen_rounding():
    qwen25 = conventions_by_family("qwen2.5-vl")
    qwen3 = conventions_by_family("qwen-vl-norm1000")
    assert qwen25.provider_size(1440, 810) == (1428, 812)  # 51.43 -> 51, 28.93 -> 29
    assert qwen3.provider_size(1440, 810) == (1440, 800)  # 45 -> 45, 25.3 -> 25
    # Python's round(): a half goes to the even multiple (50.5 -> 50), where a JavaScript
    # port rounding halves up would answer 1428 (UI-TARS-desktop#1730).
    assert qwen25.provider_size(1414, 700) == (1400, 700)
    assert qwen25.provider_size(1442, 700) == (1456, 700)  # 51.5 -> 52
    assert qwen3.provider_size(1040, 720) == (1024, 704)  # 32.5 -> 32, 22.5 -> 22
    # Sent sizes sit on the grid, so pixels of the sent image are pixels of the resized one.
    for row in (qwen25, qwen3, conventions_by_family("ui-tars-1.5")):
        w, h = fit_within((1920, 1080), derive_cap(row, (1920, 1080)))
        assert w % row.size_multiple == 0 and h % row.size_multiple == 0


def test_claude_rows_limits():
    claude = conventions_by_family("claude-sonnet-4.6")
    assert claude.fits(1440, 810) and not claude.fits(1920, 1080)
    assert claude.image_tokens(1440, 810) == 1556  # ceil(1440*810/750)
    opus47 = conventions_by_family("claude-opus-4.7")
    assert opus47.fits(1920, 1080) and opus47.fits(2576, 1449) and not opus47.fits(2600, 1400)
    assert conventions_for("anthropic:claude-opus-4-6").computer_tool == "computer_20251124"
    assert conventions_for("anthropic:claude-sonnet-4-5").computer_tool == "computer_20250124"
    assert conventions_for("anthropic:claude-sonnet-4-5").computer_beta == "computer-use-2025-01-24"
    assert conventions_for("openai:gpt-4o").reply_interface == "text"
