"""The one scrub of everything a model is sent: act, verify, look/locate, summarise, manuals, judge.

Every call that leaves the process for a model passes one of two doors, and both scrub here:
the SDK transport every model client posts through (`sdk_transport.sdk_post`: act, the
verifier, look/locate, summaries, Protocol II's manual writer) and the plain httpx POST of the
judge (`retry.post_with_retry`). `outbound` replaces every known value (`webfovea/secrets.py`:
the task's secrets, the cookies and local storage of a `--storage-state`, API keys) by its
placeholder in every string of the request body, images excepted (base64 bytes are not text a
value can hide in, and rewriting them would break the image). `scrubbed` does the same to a
`ModelInput` before a model that never leaves the process (the oracle, a replay) reads it, so
a recorded input and a sent one say the same.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from webfovea.models.base import ModelInput
from webfovea.secrets import any_known, scrub_data, scrub_text

_BASE64 = re.compile(r"^[A-Za-z0-9+/=_-]{512,}$")


def _is_image(s: str) -> bool:
    return s.startswith("data:") or bool(_BASE64.match(s))


def outbound(body: Any) -> Any:
    """A request body (JSON-like) with every known value in its text replaced by its placeholder."""
    if not any_known():
        return body
    if isinstance(body, str):
        return body if _is_image(body) else scrub_text(body)
    if isinstance(body, dict):
        return {k: outbound(v) for k, v in body.items()}
    if isinstance(body, list | tuple):
        return [outbound(v) for v in body]
    return body


def scrubbed(inp: ModelInput) -> ModelInput:
    """The model input with every known secret value replaced by its placeholder."""
    if not any_known():
        return inp

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
        attachments=[dataclasses.replace(a, label=scrub_text(a.label)) for a in inp.attachments],
    )
