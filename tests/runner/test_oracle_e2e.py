"""End to end with the real agent (webfovea.agent.run_task), the oracle model and the
proving-ground sites: two workers, every task recorded once, the capture holds the filter
request the task required (query parameters with the chosen values) and no secrets."""

from __future__ import annotations

import json
from pathlib import Path

from webfovea.config import make_config
from webfovea.eval.scoring import score_answer
from webfovea.runner.api import RunOptions, run_tasks
from webfovea.runner.supervisor import Policy
from webfovea_proving_ground.serve import start_sites
from webfovea_proving_ground.suites.builtin import load_builtin_suite

PICK = ("stats-select-01-vn", "stats-select-02-ci", "stats-scroll-01")


def test_oracle_suite_two_workers(tmp_path: Path) -> None:
    with start_sites() as sites:
        tasks = [t for t in load_builtin_suite(sites) if t.task_id in PICK]
        assert len(tasks) == len(PICK)
        outcome = run_tasks(
            tasks,
            tmp_path,
            RunOptions(
                model="oracle",
                config=make_config(max_seconds=150),
                workers=2,
                task_timeout_s=180.0,
                show_progress=False,
                policy=Policy(poll_s=0.3),
            ),
        )
    assert outcome.complete and set(outcome.results) == set(PICK)
    by_id = {t.task_id: t for t in tasks}
    for tid, res in outcome.results.items():
        assert res.status == "finished", (tid, res.status, res.error)
        assert score_answer(res.answer, by_id[tid].answer).passed, (tid, res.answer, by_id[tid].answer)
        assert (tmp_path / tid / "trajectory.jsonl").exists()
        assert len((tmp_path / tid / ".runner_starts").read_text().splitlines()) == 1
    cap = json.loads((tmp_path / "stats-select-01-vn" / "capture.json").read_text())
    table = [r for r in cap["requests"] if "/stats/api/table?" in r["url"]]
    assert any(["country", "VN"] in r["query_params"] for r in table), table
    assert cap["navigations"] and cap["navigations"][0]["url"].startswith(
        by_id["stats-select-01-vn"].website[:20]
    )
