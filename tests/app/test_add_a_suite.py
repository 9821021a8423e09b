"""The "add a suite" recipe (docs/architecture.md), followed once: a suite module outside the
package (`orders_suite.py`), one `register` call, then `run_bench` and `run_replay` through the
Python API with the oracle — no CLI, no name of the suite anywhere in webfovea/."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.app import orders_suite
from webfovea.app import AppError, BenchOptions, ReplayOptions, run_bench, run_replay
from webfovea.suites import SUITES


@pytest.fixture
def registered():
    SUITES.register(orders_suite.SUITE)
    try:
        yield orders_suite.SUITE
    finally:
        SUITES.unregister(orders_suite.SUITE)
    assert "orders" not in SUITES.names()


def test_a_registered_suite_runs_scores_and_replays(tmp_path: Path, registered) -> None:
    run = tmp_path / "orders"
    result = run_bench(BenchOptions("orders", model="oracle", out_dir=run))
    assert (result.summary.tasks, result.summary.passed) == (2, 2)
    summary = json.loads((run / "summary.json").read_text())
    assert summary["meta"]["suite"] == "orders" and summary["passed"] == 2
    # Its post-run step ran on the finished run and its line came back.
    answers = json.loads((run / "orders.json").read_text())
    assert answers == {
        "orders-3-copies": orders_suite.ws_reference("3"),
        "orders-7-copies": orders_suite.ws_reference("7"),
    }
    assert result.after == [f"orders: 2 references -> {run / 'orders.json'}"]
    # The replay reloads the suite's tasks on new sites and passes on the recorded replies alone.
    replayed = run_replay(ReplayOptions(run, out_dir=tmp_path / "replayed"))
    assert replayed.summary.passed == 2 and (tmp_path / "replayed" / "orders.json").is_file()


def test_a_suite_refuses_options_it_does_not_take(registered) -> None:
    with pytest.raises(AppError, match="--paired applies to the breakingweb suite only"):
        run_bench(BenchOptions("orders", suite_options={"paired": True}))
    with pytest.raises(AppError, match=r"neither a built-in suite \((.*)\)") as refused:
        run_bench(BenchOptions("ordres"))
    listed = refused.value.args[0].split("(", 1)[1].split(")", 1)[0].split(", ")
    assert sorted(listed) == ["breakingweb", "builtin", "documents", "hostile", "orders"]
