"""Structured mode (the winner's way, seed 002: docs/glossary.md): the model reads Playwright's AI snapshot and
names targets by reference (`ref='e12'`); visual tools (`look`, `read_text`, `hover`) are
used when the text is not enough. Points stay accepted for targets found visually."""

from webfovea.observation.modes.base import ObservationMode

MODE = ObservationMode(
    name="structured",
    summary="Playwright's accessibility snapshot; targets are references like ref='e12'",
    image=False,
    snapshot=True,
    refs=True,
    points=False,
    intro="You read an accessibility snapshot of a browser page (one line per element, with [ref=…] references)",
)
