"""What the model is shown of a secret: its placeholder, never its value.

`scrubbed` is the text side (models/outbound.py, where every model call is scrubbed): every
string of a model input (prompt, task, history, feedback, snapshot, summary) reads
`<secret>NAME</secret>` where a value stood, so a note quoting a field's read-back, a URL
carrying the value or a snapshot line showing it never carries it. The pixel side is
`browser/secret_fields.py` (fields painted over in every capture).
"""

from __future__ import annotations

from webfovea.models.outbound import scrubbed

__all__ = ["scrubbed"]
