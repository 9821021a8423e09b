"""The proving ground once per module, and a harness step aimed at an element by selector."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.frames import site  # noqa: F401 - the page in every kind of iframe
from webfovea.config import make_config
from webfovea.harness import Harness, StepResult
from webfovea_proving_ground.serve import SitesHandle, start_sites


@pytest.fixture(scope="module")
def sites() -> Iterator[SitesHandle]:
    with start_sites() as handle:
        yield handle


async def open_lab(session, sites: SitesHandle, path: str, **cfg) -> Harness:  # noqa: ANN001
    page = await session.fresh_page()
    h = await Harness.on_page(page, make_config(**cfg))
    await h.goto(sites.url(path))
    return h


async def centre(
    h: Harness, selector: str, frame: str | None = None, dx: float = 0, dy: float = 0
) -> tuple[float, float]:
    loc = h.page.frame_locator(frame).locator(selector) if frame else h.page.locator(selector)
    box = await loc.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2 + dx, box["y"] + box["height"] / 2 + dy


def at(h: Harness, css: tuple[float, float]) -> str:
    assert h.last is not None
    sx = h.last.image.size[0] / h.last.shot.css_width
    sy = h.last.image.size[1] / h.last.shot.css_height
    return f"'<|box_start|>({css[0] * sx:.0f},{css[1] * sy:.0f})<|box_end|>'"


async def act(
    h: Harness, action: str, selector: str | None = None, frame: str | None = None, **kw
) -> StepResult:
    """observe(), then one step: `action` with start_box at the element's centre (if a selector)."""
    await h.observe()
    args = [f"start_box={at(h, await centre(h, selector, frame))}"] if selector else []
    args += [f"{k}='{v}'" for k, v in kw.items()]
    return await h.step(f"Thought: t\nAction: {action}({', '.join(args)})")
