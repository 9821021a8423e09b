"""The registered environments' names: `browsergym/breakingweb.<task>` and
`browsergym/breakingweb.<task>.<family>` (the official family's short name), the file that
lists them (`ids.json`, the public seed and the official pairing), and what a name stands for.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

IDS_FILE = Path(__file__).with_name("ids.json")
PREFIX = "breakingweb"
PAIRING = "official"


def gym_id(task_id: str, family_short: str | None = None) -> str:
    return f"browsergym/{PREFIX}.{task_id}" + (f".{family_short}" if family_short else "")


def live_ids(seed: int) -> dict[str, Any]:
    """{seed, pairing, tasks: {task id: official family's short name or null}} from the registries:
    every task clean; the official catalogue's base tasks also under their official family (as
    `--pairing official` pairs them), and the extension apps' tasks under theirs (the same rule
    over those apps alone, as `--pairing official --apps <them>` pairs them)."""
    from webfovea_breakingweb.environments import extensions
    from webfovea_breakingweb.pairing import official
    from webfovea_breakingweb.tasks import stateful_tasks

    paired = {**(official(seed, apps=extensions()) if extensions() else {}), **official(seed)}
    tasks = {tid: (paired[tid].short if tid in paired else None) for tid in stateful_tasks(seed)}
    return {"seed": seed, "pairing": PAIRING, "tasks": tasks}


def stored_ids() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(IDS_FILE.read_text(encoding="utf-8"))
    return data


def parse_name(name: str) -> tuple[str, str | None]:
    """`[browsergym/]breakingweb.<task>[.<family>]` -> (task id, family short name or None)."""
    bare = name.removeprefix("browsergym/")
    head, _, rest = bare.partition(".")
    task_id, _, family = rest.partition(".")
    if head != PREFIX or task_id not in stored_ids()["tasks"]:
        raise ValueError(f"{name!r} is not a registered BreakingWeb environment")
    return task_id, family or None


def plan_of(name: str) -> list[dict[str, Any]]:
    """The oracle's plan of a registered environment (the recovery plan under a family in plain
    sight), as its task carries it."""
    from webfovea_breakingweb.gym.sites import sites_for
    from webfovea_breakingweb.suite import breakingweb_task

    task_id, family = parse_name(name)
    seed = int(stored_ids()["seed"])
    task = breakingweb_task(sites_for(seed), seed, task_id, family)
    plan: list[dict[str, Any]] = (task.model_extra or {}).get("plan") or []
    return plan
