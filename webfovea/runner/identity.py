"""What makes a run the same run: the resume check.

Resuming into an output folder mixes the earlier results with the new ones under one label,
so it is only allowed when the model, the harness configuration and every task's fields are
what they were. The queue stores this identity (meta `identity`) on the first run; a resume
with anything changed is refused with the list of what changed (or, with `fresh`, the earlier
run is set aside first: runner/api.py).

Loopback addresses a run is given per start (the proving ground's free ports) are not part of
a task's identity: the caller names them in `aliases` (actual prefix -> stable name), and they
are replaced before comparing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from webfovea.config import HarnessConfig
from webfovea.task import Task

_SHOWN = 60  # longest value quoted in a message


def _normalise(value: Any, aliases: Mapping[str, str]) -> Any:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    for actual, stable in sorted(aliases.items(), key=lambda kv: -len(kv[0])):
        # JSON-escaped prefix: aliases are URLs, whose '/' json.dumps leaves alone.
        text = text.replace(actual, stable)
    return json.loads(text)


def run_identity(
    model: str,
    config: HarnessConfig,
    tasks: Sequence[Task],
    aliases: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The model spec, the configuration and each task's fields, as plain JSON."""
    aliases = aliases or {}
    return {
        "model": model,
        "config": _normalise(config.model_dump(mode="json"), aliases),
        "tasks": {t.task_id: _normalise(t.model_dump(mode="json"), aliases) for t in tasks},
    }


def _show(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def differences(old: Mapping[str, Any], new: Mapping[str, Any], limit: int = 8) -> list[str]:
    """One short line per change between two identities (at most `limit`, then a count)."""
    out: list[str] = []
    if old.get("model") != new.get("model"):
        out.append(f"model {_show(old.get('model'))} -> {_show(new.get('model'))}")
    oc, nc = old.get("config") or {}, new.get("config") or {}
    for key in sorted(set(oc) | set(nc)):
        if oc.get(key) != nc.get(key):
            out.append(f"config {key} {_show(oc.get(key))} -> {_show(nc.get(key))}")
    ot, nt = old.get("tasks") or {}, new.get("tasks") or {}
    added, removed = sorted(set(nt) - set(ot)), sorted(set(ot) - set(nt))
    if added:
        out.append(f"task(s) added: {', '.join(added[:5])}" + (" …" if len(added) > 5 else ""))
    if removed:
        out.append(f"task(s) removed: {', '.join(removed[:5])}" + (" …" if len(removed) > 5 else ""))
    for tid in sorted(set(ot) & set(nt)):
        a, b = ot[tid], nt[tid]
        for key in sorted(set(a) | set(b)):
            if a.get(key) != b.get(key):
                out.append(f"task {tid} {key} {_show(a.get(key))} -> {_show(b.get(key))}")
    if len(out) > limit:
        out = out[:limit] + [f"and {len(out) - limit} more change(s)"]
    return out


def code_version() -> str:
    """The harness code a run used: the version and a digest of webfovea's own source files,
    so a resume can say the code changed since its finished tasks (they are not run again)."""
    import hashlib
    from pathlib import Path

    import webfovea

    root = Path(webfovea.__file__).parent
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return f"{webfovea.__version__}+{digest.hexdigest()[:12]}"
