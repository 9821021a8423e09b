"""What the model was sent at each step of a recorded task, rebuilt from its records.

trajectory.jsonl keeps each step's reply, parsed action, feedback and the screenshot as sent,
not the request itself. The input is rebuilt the way the harness built it (observation/history.py,
models/messages.py): the system prompt from the task's recorded configuration, the task, the
cleaned replies of the earlier steps (the history), the feedback on the last action, the image
the last action attached (zoom's crop) and the last `screenshot_window` screenshots, the
current one last. What cannot be rebuilt exactly is named in `APPROXIMATED` (docs/export.md).

Every file is read through the confined reader: nothing outside the task folder is read.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from webfovea.actions import catalog
from webfovea.config import HarnessConfig
from webfovea.export.webretriever import recorded_action_text
from webfovea.models.base import Attachment, ModelInput
from webfovea.models.messages import closing_text, image_label, image_steps, intro_text
from webfovea.observation.modes import get as get_mode
from webfovea.observation.prompt import system_prompt
from webfovea.record.confined import read_text

# Said once in metadata.json: where the rebuilt input may differ from the request as sent.
APPROXIMATED = (
    "feedback: the step record's `feedback` of the previous step (a refusal note the driver wrote "
    "in its place is not recorded apart)",
    "history compression: the summary recorded in `compression`, keeping the last `kept` replies",
    "zoom's label: written again from the crop's record (region, scale, size); a region clipped to "
    "the screenshot is named as the model wrote it, not as clipped",
    "a native tool call (`tool_calls` recorded): the reply is its text-grammar form, the input the "
    "text-grammar request with the sliding screenshot window (the provider's own transcript, "
    "append_history, is not rebuilt)",
    "an unchanged view held back (unchanged_view_text): the window is rebuilt as if it was sent",
)

_PLACEHOLDER = Image.new("L", (1, 1))  # intro_text counts images; it never reads their pixels


class TaskSkipped(Exception):
    """A task whose inputs cannot be rebuilt (the message says why)."""


@dataclass
class Part:
    """One piece of a user message: text, or an image file of the task folder."""

    text: str | None = None
    image: str | None = None


@dataclass
class StepSample:
    step: int
    system: str
    parts: list[Part]
    reply: str  # the cleaned reply: the Thought and the Action the harness read
    thought: str
    action: dict[str, Any]
    feedback: str  # what the model was told after this step (the next step's input)


@dataclass
class Trajectory:
    run: Path
    folder: Path
    task_id: str
    task: str
    website: str
    result: dict[str, Any]
    steps: list[dict[str, Any]] = field(default_factory=list)


def read_json(root: Path, name: str) -> Any:
    try:
        return json.loads(read_text(root, name))
    except (OSError, ValueError):  # UnsafeFile is a ValueError
        return None


def read_trajectory(run: Path, folder: Path) -> Trajectory:
    result = read_json(folder, "result.json")
    if not isinstance(result, dict):
        raise TaskSkipped("result.json unreadable")
    steps: list[dict[str, Any]] = []
    try:
        lines = read_text(folder, "trajectory.jsonl", errors="replace").splitlines()
    except (OSError, ValueError) as e:
        raise TaskSkipped(f"trajectory.jsonl unreadable ({e})") from None
    for raw in lines:
        try:
            step = json.loads(raw)
        except ValueError:
            continue  # a torn last line
        if isinstance(step, dict):
            steps.append(step)
    return Trajectory(
        run=run,
        folder=folder,
        task_id=str(result.get("task_id") or folder.name),
        task=str(result.get("task") or ""),
        website=str(result.get("website") or ""),
        result=result,
        steps=steps,
    )


def _config(traj: Trajectory) -> HarnessConfig:
    raw = traj.result.get("config")
    if not isinstance(raw, dict):
        raise TaskSkipped("result.json records no configuration: the system prompt cannot be rebuilt")
    try:
        return HarnessConfig.model_validate(raw)
    except ValueError as e:
        raise TaskSkipped(f"its recorded configuration does not load ({str(e).splitlines()[0]})") from None


def _attachments(prev: dict[str, Any] | None) -> list[tuple[str, str]]:
    """(label, file) of the images the previous step's action attached to this step's input."""
    if prev is None:
        return []
    out: list[tuple[str, str]] = []
    zoom = prev.get("zoom")
    if isinstance(zoom, dict) and zoom.get("file"):
        out.append((_zoom_label(zoom), str(zoom["file"])))
    for a in prev.get("attachments") or []:
        if isinstance(a, dict) and a.get("file"):
            out.append((str(a.get("label") or ""), str(a["file"])))
    return out


def _zoom_label(zoom: dict[str, Any]) -> str:
    # Zoom's label is not recorded; it is written again from the crop's record (actions/zoom.py).
    region = ",".join(f"{float(v):g}" for v in zoom.get("region") or [])
    w, h = (zoom.get("image_size") or [0, 0])[:2]
    return (
        f"Zoomed region ({region}) of the screenshot, magnified {float(zoom.get('scale') or 1):.3g}x "
        f"({w}x{h} px). Point in the screenshot, not in this image, to act."
    )


def step_samples(
    traj: Trajectory, rewrite: Callable[[str, dict[str, Any]], str | None] | None = None
) -> tuple[list[StepSample], int]:
    """One sample per step the model decided and the harness executed; and how many steps
    were left out (rejected replies, cached steps, steps without a screenshot).

    `rewrite(thought, action)`: a step's reply in another grammar (uitars), used for the
    history the later steps show; a step it cannot write keeps its reply as recorded."""
    config = _config(traj)
    mode = get_mode(config.observation)
    if mode.name != "vision":
        raise TaskSkipped(
            f"observation mode {mode.name!r}: the snapshot text the model was shown is not recorded whole"
        )
    specs = catalog.offered(config, snapshot=mode.snapshot, refs=mode.refs, points=mode.points)
    system = system_prompt(specs, config, mode)
    window = max(config.screenshot_window, 1)
    history: list[str] = []
    history_start = 1
    summary: str | None = None
    shots: list[str] = []  # screenshot files of the earlier steps, oldest first
    samples: list[StepSample] = []
    skipped = 0
    prev: dict[str, Any] | None = None
    for rec in traj.steps:
        k = int(rec.get("step", len(history)))
        comp = rec.get("compression")
        if isinstance(comp, dict) and comp.get("summary"):
            kept = int(comp.get("kept") or 0)
            dropped = max(0, len(history) - kept)
            history, history_start, summary = history[dropped:], history_start + dropped, str(comp["summary"])
        shot = rec.get("screenshot")
        images = [*shots[-(window - 1) :], shot] if shot and window > 1 else [shot] if shot else []
        attached = _attachments(prev)
        inp = ModelInput(
            system=system,
            task=traj.task,
            history=list(history),
            images=[_PLACEHOLDER] * len(images),
            feedback=(str(prev.get("feedback") or "") or None) if prev else None,
            step=k,
            summary=summary,
            history_start=history_start,
            attachments=[Attachment(label, _PLACEHOLDER) for label, _ in attached],
        )
        reply = str(rec.get("cleaned_reply") or "")
        if rec.get("tool_calls") and rec.get("action"):
            # A native tool call: its text-grammar form, the grammar the rebuilt system prompt teaches.
            thought = str(rec.get("thought") or "").strip()
            line = f"Action: {recorded_action_text(rec)}"
            reply = f"Thought: {thought}\n{line}" if thought else line
        raw_action = rec.get("action")
        action: dict[str, Any] = raw_action if isinstance(raw_action, dict) else {}
        usable = (
            shot and reply and action.get("name") and rec.get("rejection") is None and not rec.get("cached")
        )
        if usable:
            parts = [Part(text=intro_text(inp))]
            for label, file in attached:
                parts += [Part(text=label), Part(image=file)]
            steps = image_steps(inp)
            for i, (file, n) in enumerate(zip(images, steps, strict=True)):
                parts += [Part(text=image_label(n, i == len(images) - 1)), Part(image=str(file))]
            parts.append(Part(text=closing_text(inp)))
            samples.append(
                StepSample(
                    step=k,
                    system=system,
                    parts=parts,
                    reply=reply,
                    thought=str(rec.get("thought") or ""),
                    action=action,
                    feedback=str(rec.get("feedback") or ""),
                )
            )
        else:
            skipped += 1
        rewritten = rewrite(str(rec.get("thought") or ""), action) if rewrite and action else None
        history.append(rewritten or reply)
        if shot:
            shots.append(str(shot))
        prev = rec
    return samples, skipped
