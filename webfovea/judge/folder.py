"""Read one task folder — ours, WebRetriever's or Online-Mind2Web's — into the agent-side facts
a judge may see.

Ours: result.json (task, website, status, answer), trajectory.jsonl (executed actions),
step_NNN.png (the images as sent), capture.json (`requests`, `navigations`).
WebRetriever's: result.json (`task`, `status`, `urls`, `actions`), trajectory/<step>.png,
capture.json (`all_requests` with url, method, headers, resource_type, post_data,
raw_post_data, json_data).
Online-Mind2Web's (the folders its auto-eval reads, one per task id; judge/online_mind2web.py):
result.json with `action_history` and trajectory/<n>.png, no capture.

Nothing outside the task folder is read: every file goes through `record/confined.py` (a
symlink out of the folder, a FIFO, an oversized file or a "screenshot" that is not the image its
name says is refused and listed in `problems`), so a hostile folder cannot make the judge send
another file to its endpoint.

Only facts travel into the evidence: never the agent's thoughts (they make judges say yes;
they are read into `thoughts` for the one published judge that sends them, AgentTrek Eval), never the
proving ground's `truth`/`fault`/`session_id` fields, never the expected answer. What is missing
or unreadable is listed in `problems`, so a judge record can say why it saw less.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webfovea.actions.catalog import BY_NAME
from webfovea.judge.online_mind2web import LAYOUT as ONLINE_MIND2WEB
from webfovea.judge.online_mind2web import is_online_mind2web, read_facts
from webfovea.record.confined import UnsafeFile, check_image, read_image, read_text

_STEP_PNG = re.compile(r"^(?:step_)?(\d+)\.(?:png|jpe?g)$", re.IGNORECASE)
_PLAIN_STEP = re.compile(r"(\d+)")


@dataclass
class AgentRecord:
    """What the agent's own folder says happened."""

    task_id: str
    layout: str  # "webfovea" | "webretriever" | "online-mind2web"
    task: str = ""
    start_url: str = ""
    status: str = ""
    answer: str | None = None
    urls: list[str] = field(default_factory=list)  # in order, may repeat (de-duplicated later)
    actions: list[str] = field(default_factory=list)  # factual, one line each
    # The agent's thought for each action above, "" when it gave none. Only a method that
    # declares it reads them (AgentTrek Eval) is given them: they make judges say yes.
    thoughts: list[str] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)  # raw capture entries
    request_format: str = "webfovea"  # how the entries are shaped
    screenshots: list[Path] = field(default_factory=list)  # ordered by step number
    problems: list[str] = field(default_factory=list)
    root: Path | None = None  # the task folder: nothing outside it is read

    @property
    def last_screenshot(self) -> Path | None:
        return self.screenshots[-1] if self.screenshots else None

    def image(self, path: Path) -> bytes | None:
        """A screenshot's bytes, read inside the folder and checked again (None: refused, and said)."""
        try:
            return read_image(self.root or path.parent, path)
        except (OSError, UnsafeFile) as e:
            self.problems.append(_why(path.name, e))
            return None

    def images(self) -> list[tuple[str, bytes]]:
        """(file name, bytes) of every screenshot, in step order."""
        return [(p.name, data) for p in self.screenshots if (data := self.image(p)) is not None]


def _why(name: str, e: BaseException) -> str:
    if isinstance(e, UnsafeFile):
        return str(e)
    return f"unreadable {name}: {' '.join(str(e).split())[:200]}"


def _read_json(root: Path, name: str, problems: list[str]) -> Any:
    try:
        return json.loads(read_text(root, name))
    except FileNotFoundError:
        problems.append(f"no {name}")
    except (OSError, ValueError) as e:  # UnsafeFile is a ValueError
        problems.append(_why(name, e))
    return None


def step_number(name: str) -> int | None:
    """The step a screenshot file belongs to: `step_012.png`, `12.png`; odd names: the first
    number in them; None when there is none. Marked copies are not screenshots as sent."""
    if "_marked" in name:
        return None
    m = _STEP_PNG.match(name)
    if m:
        return int(m.group(1))
    if not name.lower().endswith((".png", ".jpg", ".jpeg")):
        return None
    m2 = _PLAIN_STEP.search(name)
    return int(m2.group(1)) if m2 else None


def ordered_screenshots(
    folder: Path, root: Path | None = None, problems: list[str] | None = None
) -> list[Path]:
    """Images of a folder by step number (numeric, so step 10 comes after step 9), never by name.

    Only files inside `root` (default: `folder`) whose first bytes are the image their name
    says; the others are left out and listed in `problems`."""
    root = root or folder
    try:
        if not confined_dir(root, folder):
            return []
        entries = list(folder.iterdir())
    except OSError:
        return []
    numbered = []
    for p in entries:
        n = step_number(p.name)
        if n is None:
            continue
        try:
            check_image(root, p)
        except (OSError, UnsafeFile) as e:
            if problems is not None and not (isinstance(e, FileNotFoundError) or p.is_dir()):
                problems.append(_why(p.name, e))
            continue
        numbered.append((n, p.name, p))
    return [p for _, _, p in sorted(numbered)]


def confined_dir(root: Path, folder: Path) -> bool:
    """Whether `folder` is a directory inside `root` once links are resolved."""
    return folder.is_dir() and folder.resolve().is_relative_to(Path(root).resolve())


def _action_line(step: dict[str, Any]) -> str | None:
    """One executed action as a fact: name, arguments, what the harness saw happen."""
    action = step.get("action")
    if not isinstance(action, dict) or action.get("name") is None:
        return None
    spec = BY_NAME.get(str(action["name"]))
    if spec is not None and spec.ends_task:
        return None  # finished: the answer is evidence of its own
    args = ", ".join(f"{k}={v!r}" for k, v in (action.get("args") or {}).items())
    line = f"step {int(step.get('step', 0)) + 1}: {action['name']}({args})"
    if step.get("outcome"):
        line += f" -> {step['outcome']}"
    return line


_THOUGHT_KEYS = ("thought", "thoughts", "reasoning", "reflection")


def _thought(step: dict[str, Any]) -> str:
    """The agent's own words for a step (its `thought`, else `thoughts`/`reasoning`), one string."""
    for key in _THOUGHT_KEYS[:3]:
        value = step.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _list(value: Any, what: str, problems: list[str]) -> list[Any]:
    """A field that must be a list: anything else is said and read as empty."""
    if value is None or isinstance(value, list):
        return value or []
    problems.append(f"{what} is not a list ({type(value).__name__}); ignored")
    return []


def _webfovea(folder: Path, result: dict[str, Any], rec: AgentRecord) -> None:
    rec.task = str(result.get("task") or "")
    rec.start_url = str(result.get("website") or "")
    rec.status = str(result.get("status") or "")
    rec.answer = result.get("answer")
    try:
        lines = read_text(folder, "trajectory.jsonl", errors="replace").splitlines()
    except FileNotFoundError:
        lines = None
        rec.problems.append("no trajectory.jsonl")
    except (OSError, ValueError) as e:
        lines = None
        rec.problems.append(_why("trajectory.jsonl", e))
    if lines is not None:
        for raw in lines:
            try:
                step = json.loads(raw)
            except ValueError:
                continue  # a torn last line
            if isinstance(step, dict) and (line := _action_line(step)):
                rec.actions.append(line)
                rec.thoughts.append(_thought(step))
    capture = _read_json(folder, "capture.json", rec.problems)
    if isinstance(capture, dict):
        rec.requests = [
            r
            for r in _list(capture.get("requests"), "capture.json requests", rec.problems)
            if isinstance(r, dict)
        ]
        navigations = _list(capture.get("navigations"), "capture.json navigations", rec.problems)
        rec.urls = [str(n["url"]) for n in navigations if isinstance(n, dict) and n.get("url")]
    rec.screenshots = ordered_screenshots(folder, folder, rec.problems)


def _webretriever(folder: Path, result: dict[str, Any], rec: AgentRecord) -> None:
    rec.task = str(result.get("task") or "")
    urls = [str(u) for u in _list(result.get("urls"), "result.json urls", rec.problems) if u]
    rec.urls = urls
    rec.start_url = str(result.get("website") or result.get("start_url") or (urls[0] if urls else ""))
    rec.status = str(result.get("status") or "")
    answer = result.get("answer") or result.get("final_answer")
    rec.answer = None if answer is None else str(answer)
    for i, a in enumerate(_list(result.get("actions"), "result.json actions", rec.problems)):
        rec.thoughts.append(_thought(a) if isinstance(a, dict) else "")
        if isinstance(a, dict):  # keep the factual fields, drop thoughts
            a = {k: v for k, v in a.items() if k not in _THOUGHT_KEYS}
            a = json.dumps(a, ensure_ascii=False, sort_keys=True)
        rec.actions.append(f"step {i + 1}: {a}")
    capture = _read_json(folder, "capture.json", rec.problems)
    if isinstance(capture, dict):
        all_requests = _list(capture.get("all_requests"), "capture.json all_requests", rec.problems)
        rec.requests = [r for r in all_requests if isinstance(r, dict)]
        rec.request_format = "webretriever"
    rec.screenshots = ordered_screenshots(folder / "trajectory", folder, rec.problems)


def read_online_mind2web(folder: Path, result: dict[str, Any], rec: AgentRecord) -> None:
    facts = read_facts(result)
    rec.task, rec.answer, rec.actions, rec.thoughts = facts.task, facts.answer, facts.actions, facts.thoughts
    rec.problems += facts.problems
    shots = folder / "trajectory"
    if facts.screenshots is None:
        rec.screenshots = ordered_screenshots(shots, folder, rec.problems)
        return
    for name in facts.screenshots:  # v2 names each step's file: inside trajectory/ only
        try:
            if Path(name).name != name:
                raise UnsafeFile(f"{name}: a screenshot name with a folder in it; not read")
            check_image(folder, shots / name)
        except (OSError, UnsafeFile) as e:
            rec.problems.append(_why(name, e))
            continue
        rec.screenshots.append(shots / name)


def folder_task_id(folder: Path) -> str:
    """The task id a folder's result.json gives (read inside the folder), else the folder's name."""
    result = _read_json(Path(folder), "result.json", [])
    tid = result.get("task_id") if isinstance(result, dict) else None
    return str(tid) if tid else Path(folder).name


def read_task_folder(folder: Path) -> AgentRecord:
    """The agent-side record of one task folder. Never raises for a damaged folder: what is
    missing goes to `problems`."""
    folder = Path(folder).absolute()  # every path below is then absolute, whatever the cwd
    problems: list[str] = []
    result = _read_json(folder, "result.json", problems)
    layout = (
        "webretriever"
        if (folder / "trajectory").is_dir()
        or (
            isinstance(result, dict)
            and "urls" in result
            and "trajectory_file" not in result
            and not (folder / "trajectory.jsonl").exists()
        )
        else "webfovea"
    )
    if isinstance(result, dict) and is_online_mind2web(result):
        layout = ONLINE_MIND2WEB
    rec = AgentRecord(task_id=folder.name, layout=layout, problems=problems, root=folder.resolve())
    if not isinstance(result, dict):
        if result is not None:
            problems.append("result.json is not a JSON object")
        shots = folder / "trajectory" if layout == "webretriever" else folder
        rec.screenshots = ordered_screenshots(shots, folder, problems)
        return rec
    rec.task_id = str(result.get("task_id") or folder.name)
    readers = {"webretriever": _webretriever, ONLINE_MIND2WEB: read_online_mind2web}
    readers.get(layout, _webfovea)(folder, result, rec)
    if not rec.screenshots:
        problems.append("no screenshots")
    if not rec.task:
        problems.append("result.json names no task")
    return rec
