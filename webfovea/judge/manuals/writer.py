"""The manual writer: a model turns one successful trajectory's facts (judge/manuals/facts.py)
and its marked screenshots into a short numbered manual, as seed 004 has an LLM do.

The writer is any model the model factory builds (`--writer SPEC`: openai:…, anthropic:…, the
oracle, a plug-in kind), asked through the `Model` protocol with `purpose="manual"`: the task
and start page as the task, one entry per fact as the history, the marked screenshots as
labelled images. The proving ground's oracle answers such a request deterministically
(webfovea_proving_ground/oracle/writer.py), so tests need no key. The reply is checked: a manual has
numbered steps; a heading is added when the writer wrote none.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from webfovea.judge.manuals.facts import Trajectory, screenshot
from webfovea.models.base import Attachment, Model, ModelInput, Usage

MAX_IMAGES = 12  # screenshots sent with one request (the last ones when there are more)

WRITER_SYSTEM = """You write operational manuals for websites. You are given a task a web agent completed
on a site, the page it started on, and the steps it executed, as facts the harness recorded: each
step's action, the element it acted on as the page names it, the page it was on, what the harness
saw happen, a suggested line, and the screenshot with the point acted on marked. Write the manual a
person (or another agent) follows to do the same task:
- First line: "# How to: <the task>". Then "Start at the site's page <start page>." Then the steps as
  a numbered list ("1. ..."), one action per step, in order. End with the step that reads the result.
- Name every element by the text a reader sees on the page (its label, button text, link text,
  column or field name), never by coordinates, ids or "the marked point". When the facts do not name
  an element, read its name from the screenshot.
- Leave out steps that changed nothing the task needs; fold repeated scrolling into one step.
- No commentary, no guesses about values the steps did not show."""

WRITER_CLOSING = "Write the manual now: the heading, the start line and the numbered steps, nothing else."

_NUMBERED = re.compile(r"^\s*\d+[.)]\s+\S", re.MULTILINE)
_FENCE = re.compile(r"^```[a-z]*\n(.*?)\n```$", re.DOTALL)


class WriterError(ValueError):
    """The writer's reply is not a manual; str(e) says why."""


@dataclass
class Written:
    text: str  # the manual (Markdown)
    raw: str  # the writer's reply as it came
    usage: dict[str, Any] = field(default_factory=dict)


def writer_input(traj: Trajectory, folder: Path) -> ModelInput:
    """The writer's request for one trajectory."""
    history = [f.text() for f in traj.facts]
    shots: list[Attachment] = []
    for fact in traj.facts:
        data = screenshot(folder, fact.screenshot)
        if data is None:
            continue
        label = f"Screenshot of step {fact.steps[-1]} ({fact.screenshot}), the point acted on marked:"
        shots.append(Attachment(label=label, image=Image.open(io.BytesIO(data)), kind="manual"))
    task = (
        f"Write the manual for this task: {traj.task.split('### key points')[0].strip()}\n"
        f"Start page: {traj.start}\n"
        f"The {len(history)} steps the agent executed are listed below as 'Step N' (facts, not its reasoning)."
    )
    return ModelInput(
        system=WRITER_SYSTEM,
        task=task,
        history=history,
        images=[],
        feedback=None,
        step=len(history),
        purpose="manual",
        closing=WRITER_CLOSING,
        attachments=shots[-MAX_IMAGES:],
    )


def clean_manual(reply: str, task: str) -> str:
    """The manual in a writer's reply: fences stripped, a heading when it has none; WriterError
    when it holds no numbered step."""
    text = (reply or "").strip()
    m = _FENCE.match(text)
    if m:
        text = m.group(1).strip()
    if not _NUMBERED.search(text):
        raise WriterError("the writer's reply has no numbered steps")
    if not text.startswith("#"):
        text = f"# How to: {task.strip()}\n\n{text}"
    return text + "\n"


async def write_manual(model: Model, traj: Trajectory, folder: Path) -> Written:
    """Ask the writer for one trajectory's manual (WriterError: its reply is not one)."""
    reply = await model.next_reply(writer_input(traj, folder))
    usage = reply.usage.to_json() if isinstance(reply.usage, Usage) else {}
    return Written(clean_manual(reply.text, traj.task), reply.text, usage)
