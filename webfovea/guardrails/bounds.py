"""A model point must lie inside the image the model was sent.

A point outside it is not clamped to the edge (that would click something the model did
not aim at): the action is refused and the model is told the image's bounds.
"""

from __future__ import annotations

from typing import Any, Protocol


class OutOfBounds(ValueError):
    """A point outside the sent image; the message is what the model is told."""


class PointSpace(Protocol):
    """The coordinate space of the sent image (satisfied by `observation.capture.Shot`)."""

    def in_bounds(self, x: float, y: float) -> bool: ...

    def bounds_text(self) -> str: ...


def check_point(space: PointSpace, point: Any, what: str = "start_box") -> tuple[float, float]:
    """The point as floats, or OutOfBounds naming the argument and the image's bounds."""
    x, y = float(point[0]), float(point[1])
    if not space.in_bounds(x, y):
        raise OutOfBounds(
            f"{what} ({x:g}, {y:g}) is outside the screenshot ({space.bounds_text()}); "
            "give a point inside the image."
        )
    return x, y
