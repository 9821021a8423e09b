"""Plan ops are typed records in one catalogue: every step of every shipped plan parses into its
op's record (redo steps and detours included), and a step that does not fit says why."""

from __future__ import annotations

from typing import Any

import pytest

from webfovea_breakingweb.suite import load_breakingweb_suite
from webfovea_proving_ground.oracle.grounding import GroundingError
from webfovea_proving_ground.oracle.ops import catalog
from webfovea_proving_ground.oracle.ops.forms import Fill
from webfovea_proving_ground.oracle.ops.reading import Answer
from webfovea_proving_ground.plan import PlannedTask, Step
from webfovea_proving_ground.serve import SitesHandle
from webfovea_proving_ground.suites.builtin import load_builtin_suite
from webfovea_proving_ground.suites.hostile import load_hostile_suite


def steps(plan: list[Step]) -> list[Step]:
    """A plan's steps with the steps nested in them (a redo, a detour's replacement)."""
    out: list[Step] = []
    for step in plan:
        out.append(step)
        verify = step.get("verify") or {}
        out.extend(steps(list(verify.get("redo", []))))
        if isinstance(step.get("instead"), dict):
            out.append(step["instead"])
    return out


def test_every_shipped_plan_step_parses_into_its_record(sites: SitesHandle) -> None:
    tasks = [
        *load_builtin_suite(sites),
        *load_hostile_suite(sites),
        *load_breakingweb_suite(sites, paired=True),
    ]
    seen: set[str] = set()
    for task in tasks:
        for step in steps(PlannedTask.of(task).plan):
            op, record = catalog.parse(step)
            assert isinstance(record, op.record), (task.task_id, step)
            seen.add(op.name)
    assert len(tasks) > 66 and {"click", "select", "fill", "answer"} <= seen


def test_records_are_typed_and_bad_steps_say_what_is_wrong() -> None:
    _, fill = catalog.parse({"op": "fill", "target": {"selector": "#q"}, "content": 2021, "submit": True})
    assert isinstance(fill, Fill) and (fill.content, fill.submit) == ("2021", True)
    _, value = catalog.parse({"op": "answer", "value": "", "expect": {"url_contains": "x"}})
    assert isinstance(value, Answer) and value.value == "" and value.source is None
    bad: list[tuple[dict[str, Any], str]] = [
        ({"op": "teleport"}, "unknown plan op 'teleport'; known: click, hover, click_many"),
        ({"target": {"selector": "#a"}}, "unknown plan op None"),
        ({"op": "select", "target": {"selector": "#a"}}, "plan op 'select': option: Field required"),
        ({"op": "answer"}, "an answer step needs a source or a value"),
    ]
    for step, message in bad:
        with pytest.raises(GroundingError, match=message):
            catalog.parse(step)


def test_a_clash_leaves_the_catalogue_as_it_was() -> None:
    import dataclasses
    import types

    clash = types.ModuleType("clash")
    # another op under a held name (the same op again would change nothing)
    clash.OPS = (dataclasses.replace(catalog.BY_NAME["click"]),)  # type: ignore[attr-defined]
    before = dict(catalog.BY_NAME)
    with pytest.raises(ValueError, match="plan op 'click' is defined twice"):
        catalog.register(clash)
    assert catalog.BY_NAME == before
