"""Instantiating an app's task templates from its seeded content (deterministic by seed).

A template is `make(state, rng, n) -> StatefulTask | None` (None: this draw does not fit, e.g.
a tie that would make the truth ambiguous). `instantiate` draws up to `per_template` distinct
instances of each (by instruction) with `rng("<app>-<template>", seed, None, "tasks")`, tries a
bounded number of times, and records the template's name in `targets["template"]`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from webfovea_breakingweb.engine.determinism import rng
from webfovea_breakingweb.engine.spec import AppSpec, StatefulTask

Template = Callable[[Any, Any, int], StatefulTask | None]


def instantiate(
    app: AppSpec, seed: int, templates: dict[str, Template], per_template: int
) -> list[StatefulTask]:
    state = app.initial(app.name, seed)
    out: list[StatefulTask] = []
    for name, make in templates.items():
        r = rng(f"{app.name}-{name}", seed, None, "tasks")
        seen: set[str] = set()
        for _ in range(per_template * 6):
            if len(seen) == per_template:
                break
            task = make(state, r, len(seen) + 1)
            if task is None or task.instruction in seen:
                continue
            seen.add(task.instruction)
            out.append(task.model_copy(update={"targets": {**task.targets, "template": name}}))
    return out
