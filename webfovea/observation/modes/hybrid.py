"""Hybrid mode: the screenshot window of vision mode and the snapshot of structured mode;
a target is a point on the image or a reference, whichever the model finds surer."""

from webfovea.observation.modes.base import ObservationMode

MODE = ObservationMode(
    name="hybrid",
    summary="screenshots and the accessibility snapshot; targets are points or references",
    image=True,
    snapshot=True,
    refs=True,
    points=True,
    intro="You see screenshots of a browser page at a fixed size and its accessibility snapshot "
    "(one line per element, with [ref=…] references)",
)
