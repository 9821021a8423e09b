"""Every plan op the oracle follows (docs/contracts.md §1), by name.

The plan loop (`OracleModel`) looks the current step's `"op"` up here and hands the parsed
record to its handler; nothing else names an op. Adding a plan op is one module with its
record, its handler and `OPS = (PlanOp(name, Record, handler),)`, plus one line in `_MODULES`.
An op module kept outside this package (a plug-in, a test) joins the same catalogue with
`register(module)` before the oracle runs, and leaves it with `unregister(module)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

from pydantic import ValidationError

from webfovea.proving_ground.oracle.grounding import GroundingError
from webfovea.proving_ground.oracle.ops import forms, pointer, reading
from webfovea.proving_ground.oracle.ops.base import PlanOp, PlanStep
from webfovea.proving_ground.plan import Step

_MODULES = (pointer, forms, reading)


def _by_name(modules: Sequence[ModuleType]) -> dict[str, PlanOp[Any]]:
    by_name: dict[str, PlanOp[Any]] = {}
    for module in modules:
        for op in module.OPS:
            if op.name in by_name:
                raise ValueError(f"plan op {op.name!r} is defined twice")
            by_name[op.name] = op
    return by_name


_modules: list[ModuleType] = list(_MODULES)  # the built-in modules, then the registered ones
BY_NAME: dict[str, PlanOp[Any]] = _by_name(_modules)


def _rebuild(modules: list[ModuleType]) -> None:
    by_name = _by_name(modules)  # checked before anything changes: a clash leaves it as it was
    _modules[:] = modules
    BY_NAME.clear()
    BY_NAME.update(by_name)


def register(module: ModuleType) -> None:
    """Add an op module's `OPS` to the catalogue; plans may use them from then on."""
    if module not in _modules:
        _rebuild([*_modules, module])


def unregister(module: ModuleType) -> None:
    """Take a module added with `register` out again (the built-in ones stay)."""
    if module in _modules and module not in _MODULES:
        _rebuild([m for m in _modules if m is not module])


def parse(step: Step) -> tuple[PlanOp[Any], PlanStep]:
    """The op of a plan step and the step as its typed record; a GroundingError (the oracle
    cannot follow the plan) names the known ops, or the op and what is wrong with its fields."""
    name = step.get("op")
    op = BY_NAME.get(name) if isinstance(name, str) else None
    if op is None:
        raise GroundingError(f"unknown plan op {name!r}; known: {', '.join(BY_NAME)}")
    try:
        return op, op.parse(step)
    except ValidationError as e:
        problems = "; ".join(f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors())
        raise GroundingError(f"plan op {name!r}: {problems}") from None
