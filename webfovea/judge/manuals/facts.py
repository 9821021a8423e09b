"""What a manual writer is given about one trajectory: per step, the executed action, the
element it hit as a reader sees it, the page it was on, what the harness saw happen, a line
the action's spec suggests, and the screenshot with the point acted on marked.

The element comes from the records, never from a guess: the structured mode's resolved target
(role and name of the ref), else the element the fingerprint found under the point before the
action (`fingerprint_before.*.target`: tag, role, name), named the way the feedback notes name
it ("the button 'Apply'"). A step whose element the records do not name says so, and its line
says what the spec says then ("the control at the marked point", "the drop-down list") — the
screenshot is then the writer's only way to name it. Repeated scrolls are one fact; rejected and failed steps and `finished` none.

Only facts: never the agent's thoughts, nor the proving ground's truth. Files are read inside
the task folder (record/confined.py), as the judge reads them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from webfovea.actions.catalog import BY_NAME
from webfovea.actions.spec import ActionSpec
from webfovea.feedback.change_notes import named_element
from webfovea.record.confined import UnsafeFile, read_image, read_text

_POINT_ARGS = ("start_box", "end_box", "points")
_FRAMES = ("iframe", "frame")
_CHANGES = re.compile(r"(?:^|\s)(?:The page changed:|No detectable change|Elsewhere )")


@dataclass
class StepFact:
    steps: list[int]  # 1-based step numbers this fact stands for (several: folded scrolls)
    action: str  # the call as the agent wrote it, coordinates left out
    suggested: str  # the line the action's spec suggests (ActionSpec.manual)
    element: str | None = None  # "the button 'Apply'"; None: the records do not name it
    page: str | None = None  # path and query of the page it was on (the host's port changes)
    saw: str = ""  # the first line of the harness's feedback
    screenshot: str | None = None  # the marked screenshot's file name
    pointer: bool = False  # it acted on the element at a point: a reader must be told which

    @property
    def unnamed(self) -> bool:
        """A point the records name nothing at: the manual's line cannot name it either."""
        return self.pointer and self.element is None

    def text(self) -> str:
        """The fact as the writer reads it: one `key: value` line each."""
        lines = [
            f"action: {self.action}",
            f"element: {self.element or 'not named in the records (see the screenshot)'}",
        ]
        if self.page:
            lines.append(f"page: {self.page}")
        if self.saw:
            lines.append(f"result: {self.saw}")
        lines.append(f"suggested line: {self.suggested}")
        if self.screenshot:
            lines.append(f"screenshot: {self.screenshot} (attached; the point acted on is marked)")
        return "\n".join(lines)


@dataclass
class Trajectory:
    """One task folder as a manual writer sees it."""

    task: str
    start: str  # the start page's path and query
    facts: list[StepFact] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def page_of(url: str | None) -> str | None:
    """`http://127.0.0.1:4321/stats?x=1` -> `/stats?x=1` (a URL without a host stays as it is)."""
    if not url:
        return None
    parts = urlsplit(url)
    if not parts.netloc:
        return url
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")


def element_of(step: dict[str, Any]) -> str | None:
    """The element the step hit, as a reader sees it, from what the records hold."""
    target = step.get("target")
    if isinstance(target, dict) and (target.get("role") or target.get("name")):
        return named_element({"role": target.get("role"), "name": target.get("name")})
    before = step.get("fingerprint_before")
    if not isinstance(before, dict):
        return None
    frames = [fp for fp in (before.get("main"), before.get("child")) if isinstance(fp, dict)]
    hits: list[dict[str, Any]] = [h for fp in frames if isinstance(h := fp.get("target"), dict)]
    if hits and str(hits[0].get("tag")) in _FRAMES:
        hits = hits[1:]  # the point is inside an embedded frame: its element, not the frame
    hit = hits[0] if hits else None
    # Unnamed (a bare cell, a shadow host, a see-through shield): nothing a reader could find.
    return named_element(hit) if hit and str(hit.get("name") or "").strip() else None


def _page(step: dict[str, Any]) -> str | None:
    before = step.get("fingerprint_before")
    main = before.get("main") if isinstance(before, dict) else None
    return page_of(main.get("url")) if isinstance(main, dict) else None


def _call(name: str, args: dict[str, Any]) -> str:
    shown = ", ".join(f"{k}={v!r}" for k, v in args.items() if k not in _POINT_ARGS)
    return f"{name}({shown})"


def _fact(step: dict[str, Any], spec: ActionSpec | None) -> StepFact:
    action = step["action"]
    name, args = str(action.get("name")), dict(action.get("args") or {})
    element = element_of(step)
    said = str(step.get("feedback") or "").strip().split("\n")[0]
    # The line keeps what the action itself reported (the option chosen, the value read back);
    # the notes' account of what else changed on the page stays in the fact's `result`.
    own = _CHANGES.split(said, maxsplit=1)[0].strip()
    given = {**args, "element": element} if element else args  # unnamed: the spec's own words
    line = spec.manual_line(given, f" ({own})" if own else "") if spec else None
    return StepFact(
        steps=[int(step.get("step", 0)) + 1],
        action=_call(name, args),
        suggested=line or _call(name, args) + ".",
        element=element,
        page=_page(step),
        saw=said,
        screenshot=step.get("screenshot_marked") or step.get("screenshot"),
        # Fingerprinted at its point: the records name the element there when it has a name.
        pointer=bool(spec and spec.pointer and spec.watch),
    )


def _scrolls(run: list[StepFact]) -> StepFact:
    n = len(run)
    last = run[-1]
    return StepFact(
        steps=[s for f in run for s in f.steps],
        action=last.action + (f" x{n}" if n > 1 else ""),
        suggested=f"Scroll down until the part you need is in view ({n} scroll{'s' * (n > 1)}).",
        element=last.element,
        page=last.page,
        saw=last.saw,
        screenshot=last.screenshot,
    )


def _steps(folder: Path, problems: list[str]) -> list[dict[str, Any]]:
    try:
        lines = read_text(folder, "trajectory.jsonl", errors="replace").splitlines()
    except (OSError, ValueError) as e:  # UnsafeFile is a ValueError
        problems.append(f"no readable trajectory.jsonl ({e})")
        return []
    steps = []
    for raw in lines:
        try:
            step = json.loads(raw)
        except ValueError:
            continue  # a torn last line
        if isinstance(step, dict) and isinstance(step.get("action"), dict):
            steps.append(step)
    return steps


def read_trajectory_facts(folder: Path) -> Trajectory:
    """The facts of one task folder of ours (result.json + trajectory.jsonl)."""
    folder = Path(folder)
    problems: list[str] = []
    try:
        result = json.loads(read_text(folder, "result.json"))
    except (OSError, ValueError) as e:
        raise ValueError(f"{folder} has no readable result.json ({e})") from None
    traj = Trajectory(task=str(result.get("task") or ""), start=page_of(result.get("website")) or "/")
    traj.problems = problems
    scrolls: list[StepFact] = []
    for step in _steps(folder, problems):
        spec = BY_NAME.get(str(step["action"].get("name", "")))
        if step.get("outcome") in ("rejected", "failed") or step.get("rejection"):
            continue
        if spec is not None and spec.ends_task:
            continue  # the answer is not a step of the manual
        fact = _fact(step, spec)
        if spec is not None and spec.counts_as_scroll:
            scrolls.append(fact)
            continue
        if scrolls:
            traj.facts.append(_scrolls(scrolls))
            scrolls = []
        traj.facts.append(fact)
    if scrolls:
        traj.facts.append(_scrolls(scrolls))
    return traj


def screenshot(folder: Path, name: str | None) -> bytes | None:
    """A step's screenshot, read inside the folder and checked (None: absent or refused)."""
    if not name:
        return None
    try:
        return read_image(Path(folder), Path(folder) / name)
    except (OSError, UnsafeFile):
        return None
