"""BreakingWeb's tasks as gym environments, registered as browsergym-miniwob registers MiniWoB:
`browsergym/breakingweb.<task>` (clean) and `browsergym/breakingweb.<task>.<family>` (the task
under its official intervention family, short name: seed 003 §3's one variant per base task).

The ids are those of the public seed (42) and the official pairing, read from `ids.json` so
that importing the registration costs no task generation; `python -m webfovea_breakingweb.gym`
rewrites the file from the live registries and
tests/breakingweb/gym/test_registration.py fails when it is stale.

Options (task_kwargs, e.g. AgentLab's `EnvArgs(task_kwargs=...)` or
`gym.make(id, task_kwargs={...})`): `harness` (`text` | `gui`), `model_family` (gui: a Table 7
family, viewports.py).
"""

from __future__ import annotations

import json
import sys
from functools import partial
from pathlib import Path
from typing import Any

import gymnasium as gym

IDS_FILE = Path(__file__).with_name("ids.json")
PREFIX = "breakingweb"
PAIRING = "official"


def gym_id(task_id: str, family_short: str | None = None) -> str:
    return f"browsergym/{PREFIX}.{task_id}" + (f".{family_short}" if family_short else "")


def live_ids(seed: int) -> dict[str, Any]:
    """{seed, pairing, tasks: {task id: official family's short name or null}} from the registries."""
    from webfovea_breakingweb.interventions import FAMILIES
    from webfovea_breakingweb.pairing import official
    from webfovea_breakingweb.tasks import stateful_tasks

    paired = official(seed, list(FAMILIES.values()))
    tasks = {tid: (paired[tid].short if tid in paired else None) for tid in stateful_tasks(seed)}
    return {"seed": seed, "pairing": PAIRING, "tasks": tasks}


def stored_ids() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(IDS_FILE.read_text(encoding="utf-8"))
    return data


def _task_entry(frozen: dict[str, Any]) -> Any:
    """BrowserGym's task entry point (`seed=`, then task_kwargs); the frozen kwargs name the task
    and cannot be overridden (as `browsergym.core.registration.frozen_partial`)."""

    def build(**kwargs: Any) -> Any:
        if clash := set(frozen) & set(kwargs):
            raise ValueError(f"these task arguments are fixed by the environment id: {sorted(clash)}")
        from webfovea_breakingweb.gym.task import BreakingWebTask

        return BreakingWebTask(**kwargs, **frozen)

    return build


def _make_env(frozen: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
    # Imported here: registering ~1,200 ids must not load the apps, the servers and the browser.
    from webfovea_breakingweb.gym.env import BreakingWebEnv

    return BreakingWebEnv(_task_entry(frozen), *args, **kwargs)


def _register(env_id: str, frozen: dict[str, Any]) -> None:
    gym.register(id=env_id, entry_point=partial(_make_env, frozen), nondeterministic=False)


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


def register_all() -> list[str]:
    """Register every task and its official variant (idempotent); their ids."""
    data = stored_ids()
    out: list[str] = []
    for tid, short in data["tasks"].items():
        pairs = [(gym_id(tid), {"task_id": tid, "family": None, "bw_seed": data["seed"]})]
        if short:
            pairs.append((gym_id(tid, short), {"task_id": tid, "family": short, "bw_seed": data["seed"]}))
        for env_id, kwargs in pairs:
            if env_id not in gym.registry:
                _register(env_id, kwargs)
            out.append(env_id)
    return out


def main() -> None:
    from webfovea_breakingweb.pairing import DEFAULT_SEED

    data = live_ids(DEFAULT_SEED)
    IDS_FILE.write_text(json.dumps(data, indent=1, sort_keys=False) + "\n", encoding="utf-8")
    print(f"{IDS_FILE}: {len(data['tasks'])} tasks", file=sys.stderr)
