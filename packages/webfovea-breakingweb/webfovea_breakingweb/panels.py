"""Panels: fixed subsets of the official catalogue a study runs (`--panel NAME`).

`human-140` is seed 003's Human-140 (§5: "a balanced fractional panel of 140 base tasks (4 per
environment x difficulty cell)"): in each (official environment, tier) cell, the 4 official
base tasks that come first by sha256(task|seed|human-140). A task's place depends only on its
own id and the seed, so adding tasks to other cells never changes a cell, and adding one to a
cell changes that cell by at most the one it displaces. Each panel task runs clean and under its
official variant, as in the official pairing. A cell with fewer than 4 official tasks gives what
it has (`cells` says how many), and the environments not registered yet are missing from it.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.environments import OFFICIAL_ENVIRONMENTS
from webfovea_breakingweb.selection import tier_of
from webfovea_breakingweb.tiers import TIERS

PER_CELL = 4  # seed 003 §5
PANELS = ("human-140",)


class UnknownPanel(ValueError):
    pass


def check_panel(name: str) -> str:
    if name not in PANELS:
        raise UnknownPanel(f"unknown panel {name!r}; panels: {', '.join(PANELS)}")
    return name


def _rank(task_id: str, seed: int) -> str:
    return hashlib.sha256(f"{task_id}|{seed}|human-140".encode()).hexdigest()


def human_140(official_ids: Iterable[str], tasks: dict[str, StatefulTask], seed: int) -> dict[str, list[str]]:
    """{"<environment>/<tier>": the cell's panel task ids} over the official environments x the
    five tiers (every cell listed, an empty one too)."""
    cells: dict[str, list[str]] = defaultdict(list)
    for tid in official_ids:
        task = tasks[tid]
        if task.app in OFFICIAL_ENVIRONMENTS and tier_of(task) in TIERS:
            cells[f"{task.app}/{tier_of(task)}"].append(tid)
    return {
        f"{env}/{tier}": sorted(sorted(cells[f"{env}/{tier}"], key=lambda t: _rank(t, seed))[:PER_CELL])
        for env in OFFICIAL_ENVIRONMENTS
        for tier in TIERS
    }


def panel_ids(name: str, official_ids: Iterable[str], tasks: dict[str, StatefulTask], seed: int) -> list[str]:
    check_panel(name)
    return sorted(tid for ids in human_140(official_ids, tasks, seed).values() for tid in ids)
