"""An answer schema cannot freeze the task: its patterns are matched with a deadline off the event
loop, and what cannot be bounded (a recursive `$ref`) is refused when the task starts."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest

from tests.support.scripted import ScriptedModel
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.guardrails.answer import AnswerGate
from webfovea.guardrails.answer_schema import SchemaRefused
from webfovea.task import Task

pytestmark = pytest.mark.asyncio(loop_scope="session")

# `re` backtracks on this for hours and holds the GIL while it does: the whole process stops.
EVIL = {
    "type": "object",
    "properties": {"code": {"type": "string", "pattern": "^(a|aa)+$"}},
    "required": ["code"],
}


def finished(value: object) -> str:
    return "Thought: done\nAction: finished(content=" + json.dumps(json.dumps(value)) + ")"


async def test_a_backtracking_pattern_is_cut_off_and_the_page_loop_keeps_running(session, tmp_path: Path):
    ticks: list[float] = []

    async def ticker() -> None:  # the event loop's pulse while the answer is checked
        while True:
            ticks.append(time.monotonic())
            await asyncio.sleep(0.05)

    model = ScriptedModel([finished({"code": "a" * 60 + "b"}), finished({"code": "aaaa"})])
    beat = asyncio.ensure_future(ticker())
    try:
        with serve_pages({"/": "<p>code: aaaa</p>"}) as srv:
            task = Task(task_id="t", task="The code?", website=srv.url("/"), answer_schema=EVIL)
            t0 = time.monotonic()
            result = await run_task(task, tmp_path / "t", model=model, config=make_config(), session=session)
            took = time.monotonic() - t0
    finally:
        beat.cancel()
    told = model.seen[1].feedback or ""
    assert "could not be checked against the schema within 2 s" in told, told
    assert result.status == "finished" and result.answer_value == {"code": "aaaa"}
    assert took < 30
    gaps = [b - a for a, b in zip(ticks, ticks[1:], strict=False)]
    assert max(gaps) < 1.0, max(gaps)  # the loop was never held while the pattern ran


@pytest.mark.parametrize(
    ("schema", "said"),
    [
        ({"$ref": "#"}, "$ref '#' is recursive"),
        (
            {"$defs": {"n": {"properties": {"kids": {"items": {"$ref": "#/$defs/n"}}}}}, "$ref": "#/$defs/n"},
            "$ref '#/$defs/n' is recursive",
        ),
        ({"$ref": "https://example.com/s.json"}, "only local $ref"),
        ({"properties": {"a": {"$dynamicRef": "#x"}}}, "$dynamicRef is not supported"),
    ],
)
def test_schemas_the_check_cannot_bound_are_refused_with_a_reason(schema, said):
    with pytest.raises(SchemaRefused) as e:
        AnswerGate.for_task(Task(task_id="t", task="x", website="http://127.0.0.1/", answer_schema=schema))
    assert said in str(e.value)


async def test_a_shared_definition_is_not_a_recursion():
    row = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    both = {"a": {"$ref": "#/$defs/row"}, "b": {"$ref": "#/$defs/row"}}
    schema = {"$defs": {"row": row}, "type": "object", "properties": both}
    gate = AnswerGate.for_task(Task(task_id="t", task="x", website="http://127.0.0.1/", answer_schema=schema))
    assert await gate.check('{"a": {"n": 1}}') == ({"a": {"n": 1}}, None)
    assert (await gate.check('{"a": {"n": 1}, "b": {"n": "x"}}'))[1] == "b/n: 'x' is not of type 'integer'"
