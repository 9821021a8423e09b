"""The site-notes writer: a model turns the facts of several successful trajectories on one
site (judge/manuals/facts.py, the same facts a manual is written from) into a short list of
operating notes for the site, as the WebFovea roadmap (seed 000 §6.3) asks: where its search
is, which filter traps, which banner to dismiss.

Asked through the `Model` protocol with `purpose="site_notes"`; the proving ground's oracle
answers it deterministically (webfovea_proving_ground/oracle/writer.py). The reply is checked:
notes are a bulleted list; a heading is added when the writer wrote none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from webfovea.judge.manuals.facts import Trajectory
from webfovea.models.base import Model, ModelInput, Usage

PURPOSE = "site_notes"
MAX_TRAJECTORIES = 8  # successful trajectories one request is written from (the first ones)

NOTES_SYSTEM = """You write operating notes for one website, for a web agent that will do other tasks on it.
You are given several tasks an agent completed successfully on the site, each with the steps it
executed as facts the harness recorded (action, element as the page names it, page, what happened).
Write what holds across tasks, not any one task's recipe:
- First line: "# Site notes: <site>". Then a bulleted list ("- ..."), at most 12 items.
- Where things are: the search box, the filters, the menus, the pages that hold tables or downloads.
- What to watch for: filters or controls that need a second step (an Apply button), banners or dialogs
  to dismiss, pages that load slowly, lists that paginate.
- Name every element by the text a reader sees on the page; no coordinates, no values of any one task."""

NOTES_CLOSING = "Write the notes now: the heading and the bulleted list, nothing else."

_BULLET = re.compile(r"^\s*[-*]\s+\S", re.MULTILINE)
_FENCE = re.compile(r"^```[a-z]*\n(.*?)\n```$", re.DOTALL)


class NotesError(ValueError):
    """The writer's reply is not a list of notes; str(e) says why."""


@dataclass
class WrittenNotes:
    text: str
    raw: str
    usage: dict[str, Any] = field(default_factory=dict)


def notes_input(site: str, trajectories: list[Trajectory]) -> ModelInput:
    history = []
    for i, traj in enumerate(trajectories[:MAX_TRAJECTORIES], start=1):
        steps = "\n".join(
            f"  Step {n}:\n    " + f.text().replace("\n", "\n    ") for n, f in enumerate(traj.facts, 1)
        )
        history.append(f"Task {i}: {traj.task.strip()}\n  Start page: {traj.start}\n{steps}")
    task = (
        f"Write the operating notes for the site {site}.\n"
        f"Below are {len(history)} tasks completed successfully on it, as 'Task N' with their steps (facts)."
    )
    return ModelInput(
        system=NOTES_SYSTEM,
        task=task,
        history=history,
        images=[],
        feedback=None,
        step=len(history),
        purpose=PURPOSE,
        closing=NOTES_CLOSING,
    )


def clean_notes(reply: str, site: str) -> str:
    text = (reply or "").strip()
    m = _FENCE.match(text)
    if m:
        text = m.group(1).strip()
    if not _BULLET.search(text):
        raise NotesError("the writer's reply has no bulleted notes")
    if not text.startswith("#"):
        text = f"# Site notes: {site}\n\n{text}"
    return text + "\n"


async def write_notes(model: Model, site: str, trajectories: list[Trajectory]) -> WrittenNotes:
    reply = await model.next_reply(notes_input(site, trajectories))
    usage = reply.usage.to_json() if isinstance(reply.usage, Usage) else {}
    return WrittenNotes(clean_notes(reply.text, site), reply.text, usage)
