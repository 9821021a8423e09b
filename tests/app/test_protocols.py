"""WebRetriever's protocols as one `bench`: Protocol I's outcome is navigation success as the
rule judge decides it (a run whose filter was wrong fails it, whatever it answered), Protocol
III queues every answer for a person to verify, and options that do not go together are refused
before any browser starts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webfovea.app import BenchOptions, run_bench
from webfovea.app.errors import AppError
from webfovea.app.protocols import QUEUE_FILE, ProtocolJudge, finish_protocol
from webfovea.app.reporter import Reporter

TASK = "stats-select-03-nz"


class Lines(Reporter):
    def __init__(self) -> None:
        self.lines: list[str] = []

    def note(self, text: str) -> None:
        self.lines.append(text)


def test_protocol_one_judges_navigation_and_three_queues_the_answers(tmp_path: Path) -> None:
    run = tmp_path / "run"
    result = run_bench(BenchOptions("builtin", only=TASK, faults="wrong_filter", protocol="I", out_dir=run))
    outcome = json.loads((run / "summary.json").read_text())["protocol"]
    assert result.protocol == outcome
    # The clean run reached the qualifying table; the wrong filter did not (the rule judge).
    assert (outcome["protocol"], outcome["method"], outcome["judged"], outcome["passed"]) == (
        "I",
        "rule",
        2,
        1,
    )
    assert outcome["navigation_success"] == 0.5 and "navigation success 1/2" in outcome["line"]
    records = {p.stem for p in (run / "judge").glob("*.json") if p.stem != "summary"}
    assert TASK in records

    reporter = Lines()
    third = finish_protocol("III", run, ProtocolJudge(), reporter)
    queued = [json.loads(x) for x in (run / QUEUE_FILE).read_text().splitlines()]
    assert len(queued) == 2 and all(q["task_id"].startswith(TASK) for q in queued)
    clean = next(q for q in queued if q["task_id"] == TASK)
    assert clean["answer"] == clean["expected"] == "1.2" and clean["scored_correct"] is True
    assert third["queued"] == 2 and "webfovea view" in reporter.lines[-1]
    assert json.loads((run / "summary.json").read_text())["protocol"]["protocol"] == "III"


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"judge": "openai:gpt-4o"}, "--protocol I or II"),
        ({"protocol": "III", "judge": "openai:gpt-4o"}, "--protocol I or II"),
        ({"docs": Path("manuals")}, "add --protocol II"),
        ({"protocol": "IV"}, "unknown protocol 'IV'"),
    ],
)
def test_options_that_do_not_go_together_are_refused_before_a_run(
    tmp_path: Path, options: dict[str, object], says: str
) -> None:
    with pytest.raises(AppError, match=says):
        run_bench(BenchOptions("builtin", only=TASK, out_dir=tmp_path / "run", **options))  # type: ignore[arg-type]
    assert not (tmp_path / "run").exists()
