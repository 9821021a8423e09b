"""`webfovea ab`: arms built from profiles and switches, the exact McNemar test, and a real A/B of
two arms on the built-in suite with the oracle (real sites, real Chromium, the real runner)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from webfovea.config import HarnessConfig
from webfovea.eval.ab import mcnemar_exact
from webfovea.eval.arms import ArmError, arm_config, parse_arm, parse_arms

BUDGETS = {"max_steps": 33, "max_seconds": 99.0}


def test_exact_mcnemar_is_the_two_sided_binomial_test():
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(0, 4) == mcnemar_exact(4, 0) == 0.125  # 2 * (1/2)^4
    assert mcnemar_exact(3, 3) == 1.0
    assert mcnemar_exact(2, 10) == pytest.approx(2 * (1 + 12 + 66) / 4096, abs=1e-6)
    assert mcnemar_exact(0, 10) == pytest.approx(2 / 1024, abs=1e-6)
    assert 0 < mcnemar_exact(0, 52) == pytest.approx(2 / 2**52)  # never rounded to 0


def test_arms_are_profiles_or_switch_sets_with_the_same_budgets():
    arms = parse_arms(
        "webfovea,reference",
        ["lean=webfovea:disable=select,fill,screenshot_window=2", "w=winner:disable=evaluate"],
    )
    assert [a.name for a in arms] == ["webfovea", "reference", "lean", "w"]
    lean = arm_config(arms[2], model="oracle", budgets=BUDGETS)
    assert not lean.on("select") and not lean.on("fill") and lean.on("hover") and lean.screenshot_window == 2
    ref = arm_config(arms[1], model="oracle", budgets=BUDGETS)
    assert (ref.max_steps, ref.max_seconds) == (33, 99.0)  # the A/B's budgets, not the profile's 40 steps
    w = arm_config(arms[3], model="oracle", budgets=BUDGETS)
    assert w.outside_rules() == ["goto_seen_url"]
    own = arm_config(parse_arm("short=reference:max_steps=5"), model="oracle", budgets=BUDGETS)
    assert own.max_steps == 5  # an arm's own override wins


def test_bad_arms_fail_with_a_message_that_names_them():
    with pytest.raises(ArmError, match="at least two arms"):
        parse_arms("webfovea", None)
    with pytest.raises(ArmError, match="named twice"):
        parse_arms("webfovea,webfovea", None)
    with pytest.raises(ArmError, match="neither a profile"):
        parse_arm("x=fancy")
    with pytest.raises(ArmError, match="'x'.*no field 'colour'"):
        arm_config(parse_arm("x=webfovea:colour=red"), model="oracle", budgets=BUDGETS)
    with pytest.raises(ArmError, match="'x'.*unknown component 'nope'"):
        arm_config(parse_arm("x=webfovea:disable=nope"), model="oracle", budgets=BUDGETS)


def test_observation_mode_arms_need_the_mode_setting():
    structured = parse_arm("structured")
    if "observation" in HarnessConfig.model_fields:  # a build with observation modes
        assert arm_config(structured, model="oracle", budgets=BUDGETS).observation == "structured"
    else:
        with pytest.raises(ArmError, match="observation mode setting"):
            arm_config(structured, model="oracle", budgets=BUDGETS)
        assert arm_config(parse_arm("vision"), model="oracle", budgets=BUDGETS).profile == "webfovea"


def test_ab_command_runs_two_arms_on_the_same_tasks(tmp_path: Path):
    out = tmp_path / "ab"
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "webfovea.cli",
            "ab",
            "builtin",
            "--arms",
            "webfovea,reference",
            "--only",
            "stats-select-03-nz,stats-select-04-tr,stats-select-0[5-9]*",
            "--limit",
            "2",
            "--max-steps",
            "8",
            # One browser per arm: two workers would start a second worker and browser in each
            # arm for one task of their own (~2.5 CPU-s each; the suite is CPU-bound).
            "--workers",
            "1",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=580,
        env=dict(os.environ),
    )
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    data = json.loads((out / "ab.json").read_text())
    assert list(data["arms"]) == ["webfovea", "reference"] and data["budgets"]["max_steps"] == 8
    assert "ORACLE NUMBERS" in data["label"]
    web, ref = data["arms"]["webfovea"], data["arms"]["reference"]
    for arm in (web, ref):
        assert arm["tasks"] == 2 and arm["steps"] > 0 and arm["input_tokens_per_step"] > 0
        assert arm["observation_bytes_per_step"] > 0 and arm["seconds_per_step"] > 0
        assert arm["stale_ref_rate"] is None  # vision steps carry no reference fields
        assert arm["per_failure_class"]
    # Each arm ran the same two tasks (--only, then --limit), in its own run folder, with the same budget.
    for name in ("webfovea", "reference"):
        run = json.loads((out / name / "run.json").read_text())
        assert run["config"]["max_steps"] == 8 and run["profile"] == name
        assert sorted(p.name for p in (out / name).iterdir() if (p / "result.json").is_file()) == sorted(
            json.loads((out / "webfovea" / "summary.json").read_text())["per_task"]
        )
    assert sorted(json.loads((out / "webfovea" / "summary.json").read_text())["per_task"]) == [
        "stats-select-03-nz",
        "stats-select-04-tr",
    ]
    assert web["passed"] == 2 and ref["passed"] < web["passed"]  # the oracle: the switches decide
    (pair,) = data["pairs"]
    assert (pair["a"], pair["b"], pair["pairs"]) == ("webfovea", "reference", 2)
    assert len(pair["broken"]) == 2 - ref["passed"] and pair["fixed"] == []
    assert pair["mcnemar_p"] == mcnemar_exact(0, len(pair["broken"]))
    html = (out / "report.html").read_text()
    assert "<svg" in html and html.count('class="bar"') == 2 * (1 + len(web["per_failure_class"]))
    assert 'href="webfovea/report.html"' in html and (out / "webfovea" / "report.html").is_file()
    assert "<script" not in html and "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_snapshot_figures_of_structured_steps_are_counted():
    from webfovea.eval.ab import _count

    info = {"truncated": True, "guards": {"text": 2, "graphic": 1}, "shown_bytes": 4000}
    rec = {**info, **{"stale_ref": "e12 is no longer on the page", "screenshot": None}}
    assert _count(rec["truncated"]) == 1
    assert _count(rec["guards"]) == 3  # firings, summed over kinds
    assert _count(rec["stale_ref"]) == 1 and _count(None) == 0 and _count("") == 0
