"""Answer schemas: the model is told the schema, a `finished` that is not JSON or does not meet
it is answered with the validation error and asked again (bounded, counted), result.json keeps
the typed value, and the scorer compares typed fields (numbers as numbers)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import BaseModel

from tests.support.scripted import ScriptedModel
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.eval.summary import score_result
from webfovea.eval.typed import score_typed
from webfovea.guardrails.answer import MAX_INVALID
from webfovea.task import Task, answer_schema_of

pytestmark = pytest.mark.asyncio(loop_scope="session")


class Row(BaseModel):
    country: str
    cpi: float


class Table(BaseModel):
    rows: list[Row]


PAGE = "<table><tr><th>Country</th><th>CPI</th></tr><tr><td>Viet Nam</td><td>3.4</td></tr><tr><td>Peru</td><td>2.1</td></tr></table>"
EXPECTED = {"rows": [{"country": "Peru", "cpi": 2.1}, {"country": "Viet Nam", "cpi": 3.4}]}


def finished(value: str) -> str:
    return "Thought: the table\nAction: finished(content=" + json.dumps(value) + ")"


async def test_a_typed_table_is_validated_asked_again_and_scored(session, tmp_path: Path) -> None:
    good = json.dumps({"rows": [{"country": "Viet Nam", "cpi": "3.40"}, {"country": "Peru", "cpi": 2.1}]})
    model = ScriptedModel(
        [
            finished("Viet Nam 3.4, Peru 2.1"),  # prose
            finished(json.dumps({"rows": [{"country": "Viet Nam"}]})),  # a row without cpi
            finished(good.replace('"3.40"', "3.4")),
        ]
    )
    with serve_pages({"/": PAGE}) as srv:
        task = Task(
            task_id="t", task="List every country with its CPI.", website=srv.url("/"),
            answer_schema=answer_schema_of(Table), answer=EXPECTED,
        )  # fmt: skip
        result = await run_task(task, tmp_path / "t", model=model, config=make_config(), session=session)
    assert '"rows"' in model.seen[0].task and "JSON Schema" in model.seen[0].task  # the model is told
    assert "Not accepted as the answer: the answer is not JSON" in (model.seen[1].feedback or "")
    assert "rows/0: 'cpi' is a required property" in (model.seen[2].feedback or "")
    assert result.status == "finished" and result.answer_errors == 2
    assert result.answer_value == {
        "rows": [{"country": "Viet Nam", "cpi": 3.4}, {"country": "Peru", "cpi": 2.1}]
    }
    saved = json.loads((tmp_path / "t" / "result.json").read_text())
    assert saved["answer_value"]["rows"][1] == {"country": "Peru", "cpi": 2.1}
    assert score_result(task, result).passed  # rows in another order, 3.4 as a number


async def test_invalid_answers_are_bounded(session, tmp_path: Path) -> None:
    model = ScriptedModel([finished("nope")] * (MAX_INVALID + 1))
    with serve_pages({"/": PAGE}) as srv:
        task = Task(
            task_id="t",
            task="x",
            website=srv.url("/"),
            answer_schema=answer_schema_of(Table),
            answer=EXPECTED,
        )
        result = await run_task(task, tmp_path / "t", model=model, config=make_config(), session=session)
    assert result.status == "finished" and result.answer == "nope" and result.answer_value is None
    assert result.answer_errors == MAX_INVALID + 1 and result.steps == MAX_INVALID + 1
    assert not score_result(task, result).passed


async def test_typed_fields_are_compared_as_values() -> None:
    assert score_typed({"n": "1,234.0", "d": "2023-05-01"}, {"n": 1234, "d": "2023-05-01"}).passed
    assert not score_typed({"n": 1300}, {"n": 1234}).passed
    assert "missing" in score_typed({}, {"n": 1}).detail
    assert not score_typed([1, 2], {"value": [2, 1], "ordered": True}).passed
    assert score_typed([1, 2], [2, 1]).passed
    assert score_typed({"a": 1, "extra": "ignored"}, {"a": 1.0}).passed
    assert not score_typed({"ok": "true"}, {"ok": True}).passed
