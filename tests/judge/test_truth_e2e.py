"""End to end: the oracle runs a built-in task clean and with a fault plan in a real browser
against the proving ground; the truth comes from the sites' own request log into result.json;
the rule judge, reading only the task folders, agrees; the judge's evidence never shows the fault."""

from __future__ import annotations

import json
from pathlib import Path

from tests.models.fake_llm import fake_llm, openai_ok
from webfovea.browser.binding import SECRET_ENV
from webfovea.config import make_config
from webfovea.eval.truth import write_truths
from webfovea.judge.agree import agreement
from webfovea.judge.compare import JudgeSetup, compare
from webfovea.judge.evidence import build_evidence
from webfovea.judge.prompt import evidence_text
from webfovea.judge.run import JudgeOptions, judge_run
from webfovea.record import read_result
from webfovea.runner.api import RunOptions, run_tasks
from webfovea.runner.supervisor import Policy
from webfovea_proving_ground.oracle.faults import variant_id, with_faults
from webfovea_proving_ground.serve import start_sites
from webfovea_proving_ground.suites.builtin import load_builtin_suite


def test_fault_run_truth_and_rule_judge(tmp_path: Path, monkeypatch) -> None:
    with start_sites() as sites:
        monkeypatch.setenv(SECRET_ENV, sites.control_secret)
        base = [t for t in load_builtin_suite(sites) if t.task_id == "filings-open-01"]
        tasks = [t for t in with_faults(base, ["from_memory"])]
        memory = variant_id("filings-open-01", "from_memory")
        assert [t.task_id for t in tasks] == ["filings-open-01", memory] and "memory" not in memory
        outcome = run_tasks(
            tasks,
            tmp_path,
            RunOptions(
                model="oracle",
                config=make_config(max_seconds=120),
                workers=1,
                task_timeout_s=150.0,
                show_progress=False,
                policy=Policy(poll_s=0.3),
            ),
        )
        assert outcome.complete
        with sites.control() as control:
            counts = write_truths(tasks, tmp_path, control.requests)
    assert counts == {"valid": 2, "invalid": 0, "nav_ok": 1}
    clean, faulty = read_result(tmp_path / "filings-open-01"), read_result(tmp_path / memory)
    assert clean.truth["nav_ok"] is True and clean.truth["answer_ok"] is True and clean.fault is None
    assert (
        faulty.truth["nav_ok"] is False
        and faulty.truth["answer_ok"] is True
        and faulty.fault == "from_memory"
    )
    ev = build_evidence(tmp_path / memory)
    seen = json.dumps(ev.to_json()) + evidence_text(ev)
    assert "from_memory" not in seen and "nav_ok" not in seen and ev.screenshot and ev.actions == []
    judge_run(tmp_path, JudgeOptions(method="rule"))
    r = agreement(tmp_path, bootstrap=0)
    assert r["n"] == 2 and r["agreement"] == 1.0 and r["per_fault"]["from_memory"]["n"] == 1
    # The judge table on the same runs, site truth as labels: the rule judge's records are read
    # from RUN/judge; a loopback model that passes both runs makes the from_memory run a false accept.
    with fake_llm([openai_ok('Thoughts: done\nStatus: "success"')] * 2) as srv:
        setup = JudgeSetup(judge="openai:j", base_url=srv.base_url, workers=1)
        rule, auto = compare("site", [tmp_path], ["rule", "autonomous-eval"], setup)["methods"]
    assert (rule["n"], rule["ar"], rule["far"], rule["frr"], rule["kappa"]) == (2, 1.0, 0.0, 0.0, 1.0)
    assert (auto["n"], auto["ar"], auto["far"], auto["frr"], auto["kappa"]) == (2, 0.5, 1.0, 0.0, 0.0)
