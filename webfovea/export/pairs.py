"""DPO pairs: the same task passed in one trajectory and failed in another, at the first step
where their actions differ.

Tasks are matched by their instruction and start page path (a proving-ground site gets a new
port each run, and a fault variant a new task id, so neither the URL's host nor the id is
compared). Two actions are the same when their names and arguments are, points within
`POINT_TOLERANCE` pixels of the sent image (a model clicks the same button a few pixels apart).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

from webfovea.export.steps import StepSample
from webfovea.export.tasks import JudgedTask

POINT_TOLERANCE = 8.0


def _key(task: JudgedTask) -> tuple[str, str]:
    return " ".join(task.traj.task.split()), urlsplit(task.traj.website).path


def _point(v: Any) -> tuple[float, float] | None:
    if isinstance(v, list) and len(v) == 2 and all(isinstance(x, (int, float)) for x in v):
        return float(v[0]), float(v[1])
    return None


def same_action(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if a.get("name") != b.get("name"):
        return False
    args_a, args_b = a.get("args") or {}, b.get("args") or {}
    if set(args_a) != set(args_b):
        return False
    for k, va in args_a.items():
        pa, pb = _point(va), _point(args_b[k])
        if pa is not None and pb is not None:
            if max(abs(pa[0] - pb[0]), abs(pa[1] - pb[1])) > POINT_TOLERANCE:
                return False
        elif va != args_b[k]:
            return False
    return True


def first_divergence(good: list[StepSample], bad: list[StepSample]) -> int | None:
    """Index (into both sample lists) of the first step whose actions differ; None when one
    trajectory's steps are all the other's."""
    for k, (g, b) in enumerate(zip(good, bad, strict=False)):
        if g.step != b.step:
            return k  # a step left out of one of them: they no longer line up
        if not same_action(g.action, b.action):
            return k
    return None


def dpo_pairs(
    tasks: list[JudgedTask], samples: dict[int, list[StepSample]]
) -> Iterator[tuple[int, int, int]]:
    """(passed task, failed task, sample index) for every passed/failed pair of one task."""
    groups: dict[tuple[str, str], list[int]] = {}
    for i, task in enumerate(tasks):
        if i in samples and task.verdict.passed is not None:
            groups.setdefault(_key(task), []).append(i)
    for members in groups.values():
        passed = [i for i in members if tasks[i].verdict.passed]
        failed = [i for i in members if not tasks[i].verdict.passed]
        for good in passed:
            for bad in failed:
                k = first_divergence(samples[good], samples[bad])
                if k is not None:
                    yield good, bad, k
