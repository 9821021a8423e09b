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
from typing import Any

import gymnasium as gym

from webfovea_breakingweb.gym.ids import IDS_FILE, gym_id, live_ids, stored_ids


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
