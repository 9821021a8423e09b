"""The recipe "add a judge method" (docs/architecture.md), followed once: a throwaway method,
one record registered at runtime, judges a finished run folder through `judge run` (the API
and the command line), and its verdict is written like any built-in method's."""

from __future__ import annotations

import dataclasses
import json

import pytest
from typer.testing import CliRunner

from tests.judge import folders
from webfovea.cli.main import app
from webfovea.judge import catalog
from webfovea.judge.method import JudgeCall, Judged, JudgeMethod
from webfovea.judge.records import read_judge_records
from webfovea.judge.run import JudgeOptions, judge_run
from webfovea.judge.verdict import Verdict

SEEN: list[JudgeCall] = []


async def _requests_sent(call: JudgeCall) -> Judged:
    """Passes when the site received at least one request the evidence kept."""
    SEEN.append(call)
    ok = bool(call.evidence.requests)
    return Judged(
        verdict=Verdict(
            all_passed=ok,
            score=1.0 if ok else 0.1,
            reasoning=f"{len(call.evidence.requests)} request(s), {len(call.images)} screenshot(s)",
        )
    )


THROWAWAY = JudgeMethod(
    name="requests_sent",
    help="passes when the site received a request",
    prompt="requests_sent v1",
    judge=_requests_sent,
    model=False,
    images=True,
)


@pytest.fixture
def registered():
    SEEN.clear()
    catalog.register(THROWAWAY)
    yield THROWAWAY
    catalog.unregister(THROWAWAY.name)


def test_a_registered_method_judges_a_run_folder(tmp_path, registered) -> None:
    run = tmp_path / "run"
    folders.ours(run / "with-request", steps=3)
    folders.ours(run / "no-request", requests=[], steps=2)
    summary = judge_run(run, JudgeOptions(method="requests_sent"))  # no --judge: it asks no model
    records = read_judge_records(run / "judge")
    assert records["with-request"].verdict is True and records["no-request"].verdict is False
    assert (
        records["with-request"].method == "requests_sent"
        and records["with-request"].judge_model == "requests_sent"
    )
    assert "3 screenshot(s)" in records["with-request"].reasoning  # images=True: every step's screenshot
    assert summary.passed == 1 and summary.judged == 2
    on_disk = json.loads((run / "judge" / "summary.json").read_text())
    assert on_disk["method"] == "requests_sent" and on_disk["per_task"] == {
        "no-request": False,
        "with-request": True,
    }
    assert {c.protocol for c in SEEN} == {"I"} and all(c.model is None for c in SEEN)


def test_the_command_line_takes_it_and_lists_the_catalogue(tmp_path, registered) -> None:
    run = tmp_path / "run"
    folders.ours(run / "t1")
    r = CliRunner().invoke(app, ["judge", "run", str(run), "--method", "requests_sent"])
    assert r.exit_code == 0, r.output
    assert read_judge_records(run / "judge")["t1"].verdict is True
    shown = CliRunner().invoke(app, ["judge", "run", "--help"]).output
    help_text = " ".join(shown.replace("│", " ").split())  # rich's box, unwrapped
    for method in ("naveval", "webjudge", "naveval-webfovea", "webjudge-webfovea", "rule"):
        assert f"{method}: {catalog.get(method).help}" in help_text


def test_names_are_unique_and_built_ins_stay(registered) -> None:
    catalog.register(THROWAWAY)  # the same method again: nothing changes
    with pytest.raises(ValueError, match="already registered"):
        catalog.register(dataclasses.replace(THROWAWAY, help="another method under the same name"))
    catalog.unregister("rule")
    assert "rule" in catalog.names()
    with pytest.raises(
        ValueError,
        match="unknown method 'nope'; use naveval, webjudge, autonomous-eval, agenttrek-eval, webvoyager, naveval-webfovea, webjudge-webfovea, rule, requests_sent",
    ):
        catalog.get("nope")


def test_nothing_that_runs_methods_tests_a_method_name() -> None:
    """run.py, records.py and the command line read the catalogue's fields, never a name."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "webfovea"
    names = set(catalog.names())
    offenders = []
    for rel in ("judge/run.py", "judge/records.py", "judge/agree.py", "cli/judge.py"):
        for node in ast.walk(ast.parse((root / rel).read_text())):
            if isinstance(node, ast.Compare):
                found = {c.value for c in ast.walk(node) if isinstance(c, ast.Constant) and c.value in names}
                if found:
                    offenders.append(f"{rel}:{node.lineno} compares with {sorted(found)}")
    assert not offenders, "\n".join(offenders)
