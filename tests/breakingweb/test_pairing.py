"""Pairing (official: one variant per base task by seed; sweep: every applicable family), the
catalogue `--list` prints, and the paired statistics of summary.json — without a browser."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

from typer.testing import CliRunner

from webfovea.cli.main import app
from webfovea.record import TaskRow
from webfovea.task import Task
from webfovea_breakingweb.environments import OFFICIAL_ENVIRONMENTS
from webfovea_breakingweb.interventions import FAMILIES, LAYERS
from webfovea_breakingweb.paired import paired_summary
from webfovea_breakingweb.pairing import catalogue, official, variants
from webfovea_breakingweb.suite import load_breakingweb_suite
from webfovea_breakingweb.tasks import stateful_tasks


class _Handle:
    seed = 42
    control_url = None

    def url(self, path: str) -> str:
        return "http://proving-ground" + path


def test_official_is_one_variant_per_task_deterministic_and_spread() -> None:
    first, again = official(42), official(42)
    assert {t: f.name for t, f in first.items()} == {t: f.name for t, f in again.items()}
    tasks = stateful_tasks(42)
    # Only the official environments' tasks (test_official_catalogue.py: quotas, tiers, purity).
    assert first and {tasks[t].app for t in first} <= set(OFFICIAL_ENVIRONMENTS)
    sweep = {tid: fams for tid, fams in variants(42, "sweep").items() if tid in first}
    for tid, fam in first.items():
        assert fam in sweep[tid]  # it applies there
    uses = Counter(f.name for f in first.values())
    fits = Counter(f.name for fams in sweep.values() for f in fams)
    for name in set(fits) - set(uses):
        # Unused only when every task it fits went to a family that fits no more tasks than it.
        mine = [tid for tid, fams in sweep.items() if name in {f.name for f in fams}]
        assert all(fits[first[tid].name] <= fits[name] for tid in mine), name
    # Spread: a family that could have been given as often as the most used is never far below
    # it (least-used-first picks).
    top = max(uses.values())
    broad = [name for name, n in fits.items() if n >= top]
    assert top - min(uses[name] for name in broad) <= 2


def test_suite_tasks_per_pairing() -> None:
    off = load_breakingweb_suite(_Handle(), 42, pairing="official")
    sweep = load_breakingweb_suite(_Handle(), 42, pairing="sweep")
    clean = [t for t in off if not (t.model_extra or {}).get("pair_of")]
    assert len(clean) == len(official(42)) and len(off) == 2 * len(clean)
    assert len(sweep) == len(stateful_tasks(42)) + sum(len(v) for v in variants(42, "sweep").values())
    assert [t.task_id for t in load_breakingweb_suite(_Handle(), 42, paired=True)] == [
        t.task_id for t in sweep
    ]


def test_catalogue_counts_come_from_the_registries() -> None:
    data = catalogue(42)
    counts = data["counts"]
    assert counts["families"] == len(FAMILIES) >= 29 and counts["base_tasks"] == len(stateful_tasks(42))
    assert set(counts["families_per_layer"]) == set(LAYERS) and all(counts["families_per_layer"].values())
    assert counts["pairs"]["official"] == len(official(42))
    assert {f["name"] for f in data["families"]} == set(FAMILIES)
    assert all(f["counterpart"] and f["layer"] and f["primitive"] for f in data["families"])


def test_list_json_on_the_command_line() -> None:
    res = subprocess.run(
        [sys.executable, "-m", "webfovea.cli", "bench", "breakingweb", "--list", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    listed = json.loads(res.stdout)
    assert listed["extensions"]["breakingweb"]["counts"]["families"] == len(FAMILIES)
    assert listed["counts"]["tasks"] == len(stateful_tasks(42))
    # The table, in this process (Typer's runner; the JSON above came from the command line).
    table = CliRunner().invoke(app, ["bench", "breakingweb", "--list"], env={"COLUMNS": "200"})
    assert table.exit_code == 0 and "network/conflict_409" in table.output, table.output[-2000:]
    # The view is the plug-in's own (its families), after the tasks every listing shows.
    assert "req-create-01" in table.output


def _row(passed: bool, score: float, status: str = "finished", taxonomy: str | None = None) -> TaskRow:
    return TaskRow(status=status, passed=passed, score=score, taxonomy=taxonomy)


def _task(tid: str, fam: str | None = None, layer: str = "", prim: str = "") -> Task:
    extra = {"family": fam, "pair_of": tid.split("--")[0], "layer": layer, "primitive": prim} if fam else {}
    return Task(task_id=tid, task="t", website="http://x", **extra)


def test_paired_summary_groups_scores_and_intervals() -> None:
    rows = {
        "a": _row(True, 1.0),
        "a--f": _row(False, 0.5, taxonomy="misleading_success_taken"),
        "b": _row(True, 1.0),
        "b--g": _row(True, 1.0),
        "c": _row(False, 0.0, status="max_steps"),
        "c--f": _row(False, 0.0, status="max_steps"),
    }
    tasks = [
        _task("a"),
        _task("a--f", "network/f", "network", "verification"),
        _task("b"),
        _task("b--g", "client/g", "client", "exploration"),
        _task("c"),
        _task("c--f", "network/f", "network", "verification"),
    ]
    out = paired_summary(rows, tasks)
    f = out["per_family"]["network/f"]
    assert (f.pairs, f.clean_pass, f.intervention_pass, f.delta) == (2, 0.5, 0.0, 0.5)
    assert (f.clean_score, f.intervention_score, f.score_delta) == (0.5, 0.25, 0.25)
    assert f.overturn_rate == 1.0 and f.done_fpr == 1.0  # the one finished intervention run failed
    assert out["primitive_layer"]["verification"]["network"].pairs == 2
    assert set(out["per_layer"]) == {"network", "client"} and out["paired"].pairs == 3
    assert out["overturned_share"] == 0.5 and out["done_signal_fpr"] == 0.5
    assert out["failures_per_primitive"] == {
        "exploration": {},
        "verification": {"misleading_success_taken": 1, "unlabelled": 1},
    }
    lo, hi = out["paired"].delta_ci
    assert lo <= out["paired"].delta <= hi
    assert paired_summary(rows, tasks)["paired"].delta_ci == [lo, hi]  # seeded: the same interval


def test_ab_compares_the_arms_per_primitive() -> None:
    from webfovea.eval.ab import Outcome, per_primitive_pairs

    def arm(under: list[bool]) -> dict[tuple[int, str], Outcome]:
        out = {}
        for i, ok in enumerate(under):
            out[(42, f"t{i}")] = Outcome(True, [], "finished")
            out[(42, f"t{i}--f")] = Outcome(ok, [], "finished", "verification", f"t{i}")
        return out

    got = per_primitive_pairs(arm([False, False, True]), arm([True, False, True]))["verification"]
    assert (got["pairs"], got["a_delta"], got["b_delta"], got["fixed"], got["broken"]) == (
        3,
        0.6667,
        0.3333,
        1,
        0,
    )
    assert got["delta_difference"] == -0.3333 and len(got["delta_difference_ci"]) == 2
