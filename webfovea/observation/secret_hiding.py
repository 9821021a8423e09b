"""What the model is shown of a secret: its placeholder, never its value.

`scrubbed` is the text side: every string of a model input (prompt, task, history, feedback,
snapshot, summary) goes through the scrub of `webfovea/secrets.py`, so a note quoting a
field's read-back, a URL carrying the value or a snapshot line showing it reads
`<secret>NAME</secret>`. The pixel side is `browser/secret_fields.py` (fields painted over in
every capture).
"""

from __future__ import annotations

import dataclasses

from webfovea.models.base import ModelInput
from webfovea.secrets import scrub_data, scrub_text


def scrubbed(inp: ModelInput) -> ModelInput:
    """The model input with every known secret value replaced by its placeholder."""

    def text(s: str | None) -> str | None:
        return scrub_text(s) if s else s

    return dataclasses.replace(
        inp,
        system=scrub_text(inp.system),
        task=scrub_text(inp.task),
        history=scrub_data(inp.history),
        feedback=text(inp.feedback),
        summary=text(inp.summary),
        closing=text(inp.closing),
        snapshot=text(inp.snapshot),
        snapshot_stubs=scrub_data(inp.snapshot_stubs),
        system_tools=scrub_text(inp.system_tools),
    )
