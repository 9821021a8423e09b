"""Protocol II: an operational manual from a successful, judged trajectory.

`webfovea manual TASK_DIR` turns the executed actions of a task folder into short numbered
steps — deterministic: the same folder, the same manual. Each step says what was done and
what the harness saw (a select's chosen option, a filled value read back, the page a click
opened); repeated scrolls become one line. `bench --docs DIR` gives each task the manual
`DIR/<task_id>.md` in its instruction. Only trajectories judged successful (a judge verdict,
else the proving ground's truth) make manuals, unless forced.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from webfovea.actions.catalog import BY_NAME
from webfovea.actions.spec import ActionSpec
from webfovea.record import read_result, read_trajectory


class ManualError(ValueError):
    """No manual can be made from this folder; the message says why and what to do."""


def _success(task_dir: Path) -> tuple[bool | None, str]:
    judge = task_dir.parent / "judge" / f"{task_dir.name}.json"
    try:
        rec = json.loads(judge.read_text(encoding="utf-8")) if judge.is_file() else None
    except (OSError, ValueError):
        rec = None
    if isinstance(rec, dict) and rec.get("verdict") is not None:
        return bool(rec["verdict"]), f"judged by {rec.get('method')}"
    result = read_result(task_dir)
    truth = result.truth if result else None
    if isinstance(truth, dict) and truth.get("valid"):
        return bool(truth.get("nav_ok")), "the sites' request log"
    return None, "no verdict and no truth"


def _spec(action: dict[str, Any]) -> ActionSpec | None:
    """The spec of a recorded action (None: an action this version does not know)."""
    return BY_NAME.get(str(action.get("name", "")))


def _line(action: dict[str, Any], feedback: str) -> str:
    """The step's line, as its spec says (`ActionSpec.manual`); else the call as written."""
    name, args = action.get("name", "?"), action.get("args") or {}
    said = feedback.strip().split("\n")[0]
    spec = _spec(action)
    line = spec.manual_line(args, f" ({said})" if said else "") if spec is not None else None
    if line is not None:
        return line
    return f"{name}({', '.join(f'{k}={v!r}' for k, v in args.items() if k not in ('start_box', 'points'))})"


def build_manual(task_dir: Path, *, force: bool = False) -> str:
    """The manual for one task folder (Markdown)."""
    task_dir = Path(task_dir)
    result = read_result(task_dir)
    if result is None:
        raise ManualError(f"{task_dir} has no readable result.json; give a task folder of a run")
    ok, source = _success(task_dir)
    if not force and ok is not True:
        why = "was judged unsuccessful" if ok is False else "has no judge verdict and no truth"
        raise ManualError(
            f"{task_dir.name} {why} ({source}); judge the run first (`webfovea judge run`) or pass --force"
        )
    lines: list[str] = []
    scrolls = 0
    for step in read_trajectory(task_dir, strict=False):
        action = step.action or {}
        spec = _spec(action)
        if spec is not None and spec.counts_as_scroll:  # repeated scrolls become one line
            scrolls += 1
            continue
        if scrolls:
            lines.append(
                f"Scroll down until the row you need is in view ({scrolls} scroll{'s' * (scrolls > 1)})."
            )
            scrolls = 0
        if not action or step.outcome in ("rejected", "failed"):
            continue
        if spec is not None and spec.ends_task:
            continue  # finished: the manual ends with reading the value
        lines.append(_line(action, step.feedback))
    if scrolls:
        lines.append("Scroll down until the value is in view.")
    lines.append("Read the value and report it.")
    # The path, not the host: the proving ground's port changes from run to run.
    parts = urlsplit(result.website or "")
    start = (
        parts.path + (f"?{parts.query}" if parts.query else "") if parts.netloc else (result.website or "")
    )
    head = [f"# How to: {result.task or task_dir.name}", "", f"Start at the site's page {start or '/'}.", ""]
    return "\n".join(head + [f"{i}. {text}" for i, text in enumerate(lines, start=1)]) + "\n"


def docs_for(task_id: str, docs_dir: Path) -> str | None:
    """The manual for a task in a --docs folder (`<task_id>.md`; a fault variant uses its task's)."""
    for name in (task_id, task_id.split("--")[0]):
        path = Path(docs_dir) / f"{name}.md"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return None
