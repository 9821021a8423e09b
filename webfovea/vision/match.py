"""What a template match is, apart from the search (matching.py, numpy): the action spec and
the templates file name matches and errors without importing numpy when no template is used."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_THRESHOLD = 0.75  # NCC a match must reach on the whole (and matching's tile minimum on every part)


class TemplateError(ValueError):
    """A template that cannot be searched for (too small, no contrast); the message says why."""


@dataclass(frozen=True)
class Match:
    """One place a template shows: its box in image pixels (x1, y1, x2, y2), the NCC score
    and the scale of the template that matched."""

    box: tuple[int, int, int, int]
    score: float
    scale: float

    def point(self, at: tuple[float, float] = (0.5, 0.5)) -> tuple[float, float]:
        """A point inside the box, as fractions of its width and height (the centre by default)."""
        x1, y1, x2, y2 = self.box
        return x1 + at[0] * (x2 - x1), y1 + at[1] * (y2 - y1)

    def to_json(self) -> dict[str, object]:
        return {"box": list(self.box), "score": round(self.score, 4), "scale": self.scale}
