"""Every plan op the oracle follows (docs/contracts.md §1), by name.

The plan loop (`OracleModel`) looks the current step's `"op"` up here and hands the parsed
record to its handler; nothing else names an op. Adding a plan op is one module with its
record, its handler and `OPS = (PlanOp(name, Record, handler),)`, plus one line in `_MODULES`.
An op module kept outside this package joins the same catalogue with `register(module)` (in
code) or an entry point in the `webfovea.plan_ops` group naming the module.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from pydantic import ValidationError

from webfovea.plugins import BUILTIN, Origin, Registry
from webfovea_proving_ground.oracle.grounding import GroundingError
from webfovea_proving_ground.oracle.ops import forms, pointer, reading
from webfovea_proving_ground.oracle.ops.base import PlanOp, PlanStep
from webfovea_proving_ground.plan import Step

_MODULES = (pointer, forms, reading)


def _ops_of(obj: object, _ep_name: str) -> list[PlanOp[Any]] | None:
    ops = getattr(obj, "OPS", None)  # an entry point may name a module of ops (its OPS)
    return list(ops) if ops is not None else None


ENTRY_POINT_GROUP = "webfovea.plan_ops"
OPS: Registry[PlanOp[Any]] = Registry("plan op", ENTRY_POINT_GROUP, PlanOp, expand=_ops_of)
BY_NAME = OPS  # reads like the dict it was


def register(module: ModuleType) -> None:
    """Add an op module's `OPS` to the catalogue; plans may use them from then on. A name
    another op holds is refused before anything changes."""
    held = OPS.loaded()
    taken = [op.name for op in module.OPS if held.get(op.name, op) is not op]
    if taken:
        raise ValueError(f"plan op {taken[0]!r} is defined twice")
    for op in module.OPS:
        OPS.register(op)


def unregister(module: ModuleType) -> None:
    """Take a module added with `register` out again (the built-in ones stay)."""
    for op in module.OPS:
        OPS.unregister(op)


for _module in _MODULES:
    for _op in _module.OPS:
        OPS.register(_op, origin=Origin(BUILTIN))


def parse(step: Step) -> tuple[PlanOp[Any], PlanStep]:
    """The op of a plan step and the step as its typed record; a GroundingError (the oracle
    cannot follow the plan) names the known ops, or the op and what is wrong with its fields."""
    name = step.get("op")
    op = BY_NAME.get(name) if isinstance(name, str) else None
    if op is None:
        raise GroundingError(f"unknown plan op {name!r}; known: {', '.join(OPS.names())}")
    try:
        return op, op.parse(step)
    except ValidationError as e:
        problems = "; ".join(f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors())
        raise GroundingError(f"plan op {name!r}: {problems}") from None
