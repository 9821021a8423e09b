"""The GUI-only contract's viewport per model family (seed 003, Appendix A.2.2, Table 7).

The one place a model family changes anything: the viewport the page is rendered at (so the
screenshot's size) and whether the model's points are on a 0–1000 grid that is rescaled to
pixels when the action runs. A run picks its family by option (`model_family=`), never from a
model's name; an unknown family is refused with the list of known ones.

| family | viewport (w × h) | points |
|---|---|---|
| gemini, qwen | 1280 × 720 | 0–1000 grid, rescaled to pixels |
| claude | 1024 × 768 | pixels |
| gpt | 1600 × 900 | pixels |
"""

from __future__ import annotations

from dataclasses import dataclass

GRID = 1000  # Table 7's note: Gemini and Qwen are prompted on a 0–1000 normalised grid


@dataclass(frozen=True)
class Viewport:
    width: int
    height: int
    grid: int | None = None  # None: the model's points are pixels of the screenshot

    def as_dict(self) -> dict[str, int]:
        return {"width": self.width, "height": self.height}

    def to_pixels(self, x: float, y: float) -> tuple[float, float]:
        """A model's point in the page's CSS pixels (the screenshot is taken at scale 1)."""
        if self.grid is None:
            return x, y
        return round(x * self.width / self.grid, 1), round(y * self.height / self.grid, 1)


# Table 7, as the paper prints it (providers' documented sweet spots).
VIEWPORTS: dict[str, Viewport] = {
    "gemini": Viewport(1280, 720, grid=GRID),
    "qwen": Viewport(1280, 720, grid=GRID),
    "claude": Viewport(1024, 768),
    "gpt": Viewport(1600, 900),
}
# The text contract shows no screenshot; its page keeps BrowserGym's default size.
TEXT_VIEWPORT = Viewport(1280, 720)


class UnknownFamily(ValueError):
    """A model family Table 7 does not list."""


def viewport_of(family: str) -> Viewport:
    try:
        return VIEWPORTS[family.lower()]
    except KeyError:
        raise UnknownFamily(
            f"unknown model family {family!r} for the GUI-only contract; one of: {', '.join(VIEWPORTS)}"
        ) from None
