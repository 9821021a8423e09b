"""A webfovea run in WebRetriever's folder layout, for WebRetriever's own NavEval evaluator.

What that evaluator reads (docs/export.md, written down from reading its code; its repository
has no licence, so nothing of it is copied here): one folder per task under the run folder,
each with `result.json` (`task`, `website`, `urls`, `status`), `capture.json` (a list of
requests or `{"all_requests": [...]}` whose entries carry `url`, `method`, `resource_type`,
`headers`, `post_data`, `raw_post_data`, `json_data`), `trajectory/<step>.png` and, after its
filter stage, `filtered_requests.json`. Its filter stage takes only folders whose status is
one of `SUCCESS`, `FAIL_CALL_USER`, `FAIL_SCROLLDOWN` or `""`, and its eval stage judges every
folder that has a `filtered_requests.json`.

The status is mapped from how the task ended, never from whether its answer was right:
WebRetriever's `SUCCESS` means the agent declared it was done. Mapping by the truth would hand
the judge the answer.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from webfovea.judge.evidence import build_evidence
from webfovea.judge.folder import ordered_screenshots, step_number
from webfovea.judge.run import task_folders
from webfovea.parsing.tool_call import action_text
from webfovea.record.confined import UnsafeFile, read_image, read_text
from webfovea.types import Action

# Our status -> WebRetriever's. Its agent writes SUCCESS on its Finish action, FAIL_SCROLLDOWN
# when its scroll breaker stops the task, "" when the step budget ran out, FAIL otherwise.
STATUS_MAP: dict[str, str] = {
    "finished": "SUCCESS",
    "scroll_breaker": "FAIL_SCROLLDOWN",
    "max_steps": "",
    "budget_exceeded": "",  # a budget ran out without an answer, as the step budget does
}
# The statuses WebRetriever's filter stage takes (a plain FAIL is never judged).
JUDGED_STATUSES = frozenset({"SUCCESS", "FAIL_CALL_USER", "FAIL_SCROLLDOWN", ""})
FILTERS = ("webfovea", "naveval", "none")


class ExportError(Exception):
    """The run cannot be exported (no such folder, no task folders, the target is not empty)."""


@dataclass
class ExportSummary:
    out_dir: Path
    tasks: int = 0
    statuses: dict[str, int] = field(default_factory=dict)  # WebRetriever status -> tasks
    filtered: int = 0  # folders given a filtered_requests.json
    problems: dict[str, list[str]] = field(default_factory=dict)  # task id -> what was missing


def webretriever_status(status: str | None) -> str:
    return STATUS_MAP.get(status or "", "FAIL")


def _read(folder: Path, name: str) -> Any:
    # Through the confined reader: a link out of the run, a FIFO or an oversized file is not read.
    try:
        return json.loads(read_text(folder, name))
    except (OSError, ValueError):  # UnsafeFile is a ValueError
        return None


def _steps(folder: Path) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    try:
        lines = read_text(folder, "trajectory.jsonl", errors="replace").splitlines()
    except (OSError, ValueError):
        return out
    for raw in lines:
        try:
            step = json.loads(raw)
        except ValueError:
            continue  # a torn last line
        if isinstance(step, dict):
            out.append(step)
    return out


def _point_or(value: Any) -> Any:
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, (int, float)) for v in value):
        return (value[0], value[1])  # a point, as the text grammar writes it
    if isinstance(value, list):
        return [_point_or(v) for v in value]
    return value


def recorded_action_text(step: dict[str, Any]) -> str:
    """The action in the UI-TARS text grammar WebRetriever's agent records its actions in."""
    action = step.get("action")
    if not isinstance(action, dict) or not action.get("name"):
        return ""
    args = {str(k): _point_or(v) for k, v in (action.get("args") or {}).items()}
    return action_text(Action(str(action["name"]), args))


def _request(entry: dict[str, Any]) -> dict[str, Any]:
    """One of our capture entries as WebRetriever's request collector shapes it."""
    body_json = entry.get("body_json")
    params = entry.get("body_params")
    post: str | None = None
    if body_json is not None:
        post = json.dumps(body_json, ensure_ascii=False)
    elif params:
        post = urlencode([(str(k), str(v)) for k, v in params])
    return {
        "url": entry.get("url") or "",
        "method": entry.get("method") or "GET",
        "headers": entry.get("headers") or {},
        "resource_type": entry.get("resource_type") or "",
        "post_data": post,
        "raw_post_data": post,
        "json_data": body_json,
    }


def _urls(result: dict[str, Any], capture: Any) -> list[str]:
    urls = [str(result["website"])] if result.get("website") else []
    if isinstance(capture, dict):
        for nav in capture.get("navigations") or []:
            url = nav.get("url") if isinstance(nav, dict) else None
            if url and (not urls or urls[-1] != url):
                urls.append(str(url))
    return urls


def _export_task(src: Path, dst: Path, index: int, flt: str) -> tuple[str, bool, list[str]]:
    """One task folder; returns its WebRetriever status, whether it was filtered, what was missing."""
    problems: list[str] = []
    result = _read(src, "result.json")
    if not isinstance(result, dict):
        result = {}
        problems.append("result.json unreadable")
    capture = _read(src, "capture.json")
    if capture is None:
        problems.append("no capture.json")
    steps = _steps(src)
    status = webretriever_status(result.get("status"))
    dst.mkdir(parents=True)
    (dst / "trajectory").mkdir()
    for shot in ordered_screenshots(src):
        n = step_number(shot.name)
        if n is None:
            continue
        try:  # read inside the task folder and checked again: never a file from outside the run
            data = read_image(src, shot)
        except (OSError, UnsafeFile) as e:
            problems.append(str(e))
            continue
        (dst / "trajectory" / f"{n}{shot.suffix.lower()}").write_bytes(data)
    if not any((dst / "trajectory").iterdir()):
        problems.append("no screenshots")
    actions = [a for s in steps if (a := recorded_action_text(s))]
    out = {
        "task_idx": index,
        "task_id": str(result.get("task_id") or src.name),
        "task": result.get("task") or "",
        "key_points": "",
        "website": result.get("website") or "",
        "status": status,
        "reference_length": None,
        "predict_length": len(actions),
        "final_result_response": result.get("answer") or "",
        "actions": actions,
        "thoughts": [str(s.get("thought") or "") for s in steps if s.get("action")],
        "history_resps": [str(s.get("raw_reply") or "") for s in steps],
        "urls": _urls(result, capture),
        # ours, beside its fields: how the task really ended
        "webfovea_status": result.get("status"),
    }
    (dst / "result.json").write_text(json.dumps(out, indent=2, ensure_ascii=False), encoding="utf-8")
    requests = capture.get("requests") if isinstance(capture, dict) else None
    all_requests = [_request(r) for r in requests or [] if isinstance(r, dict)]
    (dst / "capture.json").write_text(
        json.dumps({"all_requests": all_requests}, indent=2, ensure_ascii=False), encoding="utf-8"
    )
    filtered = flt != "none" and status in JUDGED_STATUSES
    if filtered:  # its eval stage judges every folder with this file: only the ones it would judge
        evidence = build_evidence(src, flt=flt)
        (dst / "filtered_requests.json").write_text(
            json.dumps(evidence.requests, indent=2, ensure_ascii=False), encoding="utf-8"
        )
    return status, filtered, problems


def export_webretriever(run_dir: Path, out_dir: Path, *, flt: str = "webfovea") -> ExportSummary:
    """Write every task folder of `run_dir` in WebRetriever's layout under `out_dir`.

    `flt`: which request filter writes `filtered_requests.json` (ours, NavEval's as we
    reimplement it, or none — then WebRetriever's own filter stage writes it)."""
    # Absolute from here: every path the readers build is then read once, wherever the cwd is.
    run_dir, out_dir = Path(run_dir).absolute(), Path(out_dir)
    if flt not in FILTERS:
        raise ExportError(f"unknown filter {flt!r}: use one of {', '.join(FILTERS)}")
    if not run_dir.is_dir():
        raise ExportError(f"{run_dir} is not a run folder")
    folders = task_folders(run_dir)
    if not folders:
        raise ExportError(f"{run_dir} holds no task folders (sub-folders with a result.json)")
    if out_dir.exists() and (not out_dir.is_dir() or any(out_dir.iterdir())):
        raise ExportError(f"{out_dir} is not empty: export into a new folder")
    # Written into a hidden sibling and renamed into place at the end: an interrupted export leaves
    # no half-written OUT that a re-run would refuse as "not empty".
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.partial-", dir=out_dir.parent))
    umask = os.umask(0)
    os.umask(umask)
    work.chmod(0o777 & ~umask)  # mkdtemp's 0700 is for the work in progress, not the export
    summary = ExportSummary(out_dir=out_dir)
    try:
        for index, src in enumerate(folders):
            status, filtered, problems = _export_task(src, work / f"{index}_{src.name}", index, flt)
            summary.tasks += 1
            summary.statuses[status] = summary.statuses.get(status, 0) + 1
            summary.filtered += filtered
            if problems:
                summary.problems[src.name] = problems
        if out_dir.exists():
            out_dir.rmdir()  # empty, checked above
        work.rename(out_dir)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return summary
