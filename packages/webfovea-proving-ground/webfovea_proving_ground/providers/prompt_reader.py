"""Read a request's prompt back into what a model sees: the inverse of models/messages.py.

The loopback providers (webfovea_proving_ground/providers/anthropic_api.py, webfovea_proving_ground/providers/openai_api.py) receive only what a
real API would: a system prompt, text parts and images. The oracle behind them is handed a
ModelInput rebuilt from that text alone — task, summary, earlier steps, the feedback note,
the snapshot — so it decides from exactly what the model was shown, and a section the
harness failed to send is a section the oracle does not get. The verifier's request is read
the same way: its closing line marks it, and the oracle checks the candidate in its Task.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from webfovea.guardrails.verifier import CLOSING as VERIFY_CLOSING
from webfovea.guardrails.verifier import PURPOSE as VERIFY_PURPOSE

_STEP = re.compile(r"^Step (\d+):$")
_DECIDE = re.compile(r"^Decide step \d+: ")


@dataclass
class ReadPrompt:
    task: str = ""
    summary: str | None = None
    history: list[str] = field(default_factory=list)
    history_start: int = 1
    feedback: str | None = None
    snapshot: str | None = None
    purpose: str = "act"
    closing: str | None = None


def _sections(text: str) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for line in text.split("\n"):
        # Inside the snapshot only the next section of the prompt ends it: a page's own text
        # could begin with "## ".
        in_snapshot = bool(out) and out[-1][0].startswith("Accessibility snapshot")
        if line.startswith("## ") and (not in_snapshot or line == "## Screenshots"):
            out.append((line[3:].strip(), []))
        elif out:
            out[-1][1].append(line)
    return out


def _steps(lines: list[str]) -> tuple[list[str], int]:
    entries: list[list[str]] = []
    start = 1
    for line in lines:
        m = _STEP.match(line)
        if m:
            if not entries:
                start = int(m.group(1))
            entries.append([])
        elif entries:
            entries[-1].append(line)
    texts = ["\n".join(e).strip() for e in entries]
    return ["" if t == "(empty reply)" else t for t in texts], start


def read_prompt(intro: str, closing: str = "") -> ReadPrompt:
    """`intro`: the user text before the images (models/messages.intro_text); `closing`: the
    last text part (models/messages.closing_text)."""
    got = ReadPrompt()
    for head, lines in _sections(intro):
        body = "\n".join(lines).strip()
        if head == "Task":
            got.task = body
        elif head.startswith("Summary of your earlier steps"):
            got.summary = body
        elif head.startswith(("Your earlier steps", "Your most recent steps")):
            got.history, got.history_start = _steps(lines)
        elif head == "What happened after your last action":
            got.feedback = body or None
        elif head.startswith("Accessibility snapshot"):
            got.snapshot = "\n".join(lines).strip("\n")
    closing = closing.strip()
    if closing == VERIFY_CLOSING:  # the verifier's question (guardrails/verifier.py), not a step
        got.purpose, got.closing = VERIFY_PURPOSE, closing
    elif closing and not _DECIDE.match(closing):
        # The compression call replaces "Decide step N" with its own request for a summary.
        got.purpose, got.closing = "summary", closing
    return got
