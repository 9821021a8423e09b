"""Loading task files: the WebRetriever JSON list, JSONL, and YAML (when PyYAML is installed).

Every problem becomes one `TaskFileError` whose message is a single line naming the file, the
task (by position and id) and the field, so the CLI can print it as is and exit non-zero.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from pydantic import ValidationError

from webfovea.task import Task, TaskIdError, check_task_id

REQUIRED = ("task_id", "task", "website")


class TaskFileError(ValueError):
    """A task file we cannot use; str(e) is one line meant for the user."""


def load_task_file(path: str | Path, known_sites: Iterable[str] | None = None) -> list[Task]:
    """Read and validate a task file. `known_sites`, when given, are the valid `site` names."""
    p = Path(path)
    if not p.is_file():
        raise TaskFileError(f"{p}: no such task file")
    try:
        text = p.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as e:
        raise TaskFileError(f"{p}: cannot read the file ({_one_line(e)})") from None
    suffix = p.suffix.lower()
    if suffix in (".yaml", ".yml"):
        raw = _parse_yaml(p, text)
    elif suffix == ".jsonl":
        raw = _parse_jsonl(p, text)
    else:
        raw = _parse_json(p, text)
    return validate_tasks(raw, source=str(p), known_sites=known_sites)


def _one_line(e: BaseException) -> str:
    return " ".join(str(e).split())


def _parse_json(p: Path, text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise TaskFileError(f"{p}: invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None


def _parse_jsonl(p: Path, text: str) -> list[Any]:
    out = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError as e:
            raise TaskFileError(f"{p}: invalid JSON on line {lineno}, column {e.colno}: {e.msg}") from None
    return out


def _parse_yaml(p: Path, text: str) -> Any:
    try:
        import yaml
    except ImportError:
        raise TaskFileError(
            f"{p}: YAML task files need PyYAML (pip install pyyaml); or write the tasks as JSON or JSONL"
        ) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(e, "problem", None) or _one_line(e)
        raise TaskFileError(f"{p}: invalid YAML{where}: {problem}") from None


def _is_http_url(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    u = urlparse(value.strip())
    return u.scheme in ("http", "https") and bool(u.netloc)


def _non_finite(value: Any, path: str = "") -> str | None:
    """The dotted path of the first NaN/Infinity inside `value`, or None."""
    if isinstance(value, float) and not math.isfinite(value):
        return path or "(value)"
    if isinstance(value, dict):
        items: Iterable[tuple[Any, Any]] = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for k, v in items:
        found = _non_finite(v, f"{path}.{k}" if path else str(k))
        if found is not None:
            return found
    return None


def validate_tasks(raw: Any, *, source: str, known_sites: Iterable[str] | None = None) -> list[Task]:
    """Turn parsed task data into Tasks, or raise a one-line TaskFileError."""
    if not isinstance(raw, list):
        kind = type(raw).__name__ if raw is not None else "nothing"
        raise TaskFileError(f"{source}: expected a list of tasks, found {kind}")
    if not raw:
        raise TaskFileError(f"{source}: the task list is empty")
    sites = set(known_sites) if known_sites is not None else None
    tasks: list[Task] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(raw):
        where = f"{source}: task #{i}"
        if not isinstance(item, dict):
            raise TaskFileError(
                f"{where} is a {type(item).__name__}, not an object with task_id, task, website"
            )
        if item.get("task_id") not in (None, ""):
            where += f" (task_id {item['task_id']!r})"
        for field in REQUIRED:
            if item.get(field) in (None, ""):
                raise TaskFileError(f"{where}: missing field {field!r}")
        bad = _non_finite(item)
        if bad is not None:
            # JSON's NaN/Infinity (and YAML's .nan/.inf) load as floats that no result or
            # summary can be written with: refuse them here, not after the whole run.
            raise TaskFileError(
                f"{where}: field {bad!r} is not a finite number (NaN and Infinity are not allowed)"
            )
        data = dict(item)
        data["task_id"] = str(data["task_id"])  # WebRetriever ids may be numbers
        try:
            check_task_id(data["task_id"])  # each task gets a folder named by its id
        except TaskIdError as e:
            raise TaskFileError(f"{where}: {e}") from None
        if not _is_http_url(data["website"]):
            raise TaskFileError(f"{where}: website {data['website']!r} is not an http(s) URL")
        site = data.get("site")
        if site is not None and sites is not None and site not in sites:
            known = ", ".join(sorted(sites)) or "none"
            raise TaskFileError(f"{where}: unknown site {site!r} (known sites: {known})")
        try:
            task = Task.model_validate(data)
        except ValidationError as e:
            err = e.errors()[0]
            loc = ".".join(str(x) for x in err["loc"])
            raise TaskFileError(f"{where}: field {loc!r}: {err['msg']}") from None
        if task.task_id in seen:
            raise TaskFileError(
                f"{where}: duplicate task_id {task.task_id!r} (first used by task #{seen[task.task_id]})"
            )
        seen[task.task_id] = i
        tasks.append(task)
    return tasks
