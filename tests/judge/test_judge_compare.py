"""`webfovea judge compare`: verdicts of a loopback judge model flow into the judge table, whose
numbers are checked by hand on a small case; label files that are not label files are refused
with the line that is wrong."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tests.judge import folders
from tests.models.fake_llm import fake_llm, openai_ok
from webfovea.cli.main import app
from webfovea.judge.compare import CompareError, JudgeSetup, compare, row_of
from webfovea.judge.labels import Label, LabelFileError, append_label, read_labels
from webfovea.judge.run import JudgeOptions, judge_run

# Task -> (label, the judge's reply). t1..t5 are the hand-checked case; t6 is unsure, t7 has no
# label, t8's reply cannot be read: all three are left out, each counted.
CASE = {
    "t1": ("success", 'Thoughts: ok\nStatus: "success"'),
    "t2": ("success", 'Thoughts: no\nStatus: "failure"'),
    "t3": ("failure", 'Thoughts: ok\nStatus: "success"'),
    "t4": ("failure", "Status: failure"),
    "t5": ("failure", "Status: failure"),
    "t6": ("unsure", "Status: success"),
    "t7": (None, "Status: success"),
    "t8": ("failure", "The agent did what it could."),
}


def _run(tmp_path):
    run = tmp_path / "run"
    for tid in CASE:
        folders.ours(run / tid, steps=2)
    return run


def _labels(tmp_path) -> str:
    path = tmp_path / "labels.jsonl"
    lines = [
        json.dumps(
            {
                "task_id": t,
                "label": lab,
                "note": f"seen {t}",
                "labeller": "ana",
                "time": "2026-12-07T14:00:00Z",
            }
        )
        for t, (lab, _) in CASE.items()
        if lab
    ]
    path.write_text("\n".join(lines) + "\n\n")
    return str(path)


def test_loopback_verdicts_flow_into_the_table_and_its_numbers_are_right(tmp_path) -> None:
    run = _run(tmp_path)
    labels = _labels(tmp_path)
    with fake_llm([openai_ok(reply) for _, reply in CASE.values()]) as srv:
        # One worker: the folders are judged in name order, so the script answers t1..t8.
        setup = JudgeSetup(judge="openai:judge-1", base_url=srv.base_url, workers=1)
        report = compare(labels, [run], ["autonomous-eval"], setup)
        assert len(srv.received) == len(CASE)
    (row,) = report["methods"]
    # By hand, t1..t5 as (verdict, label): (S,S) (F,S) (S,F) (F,F) (F,F): tp 1, fn 1, fp 1, tn 2.
    assert row["confusion"] == {"tp": 1, "fp": 1, "tn": 2, "fn": 1}
    assert row["n"] == 5 and row["ar"] == 0.6  # (1 + 2) / 5
    assert row["far"] == 0.3333 and row["frr"] == 0.5  # fp/(fp+tn) = 1/3, fn/(fn+tp) = 1/2
    # kappa: po 0.6; judge says success 2/5, labels 2/5: pe = .4*.4 + .6*.6 = .52; (.6-.52)/.48
    assert row["kappa"] == round((0.6 - 0.52) / 0.48, 4) == 0.1667
    assert row["excluded"] == {"unsure": 1, "no_label": 1, "unparsed": 1, "no_verdict": 0}
    lo, hi = row["ar_ci95"]
    assert 0.0 <= lo <= 0.6 <= hi <= 1.0
    assert row["judge_model"] == "openai:judge-1" and row["avg_ar"] == 0.6
    assert (run / "judges" / "autonomous-eval" / "t8.json").is_file()  # judged beside the run

    # The CLI reads the recorded verdicts (no model now) and writes the table three ways.
    out = tmp_path / "table"
    r = CliRunner().invoke(
        app, ["judge", "compare", labels, str(run), "--methods", "autonomous-eval", "--out", str(out)]
    )
    assert r.exit_code == 0, r.output
    assert "autonomous-eval" in r.output and "60.0" in r.output and "33.3" in r.output
    assert "1 unparsed replies, 0 other records without a verdict" in " ".join(r.output.split())
    assert json.loads(out.with_suffix(".json").read_text())["methods"][0]["ar"] == 0.6
    md = out.with_suffix(".md").read_text()
    assert (
        "| autonomous-eval | openai:judge-1 | 5 | 60.0 |" in md
        and "| 33.3 | 50.0 | 0.167 | 60.0 | 1 | 0 | 1 | 1 |" in md
    )


def test_site_truth_and_per_run_average_over_two_runs(tmp_path) -> None:
    """`site` labels are result.json's truth, read as `judge agree` reads it; with two runs the
    pooled AR and the mean of the per-run ARs differ."""
    runs = []
    for name, truths in (("a", [True, False]), ("b", [True, True, False, False])):
        run = tmp_path / name
        for i, ok in enumerate(truths):
            f = folders.ours(run / f"{name}{i}", steps=2)
            data = json.loads((f / "result.json").read_text())
            data["truth"] = {"valid": True, "nav_ok": ok, "answer_ok": ok}
            (f / "result.json").write_text(json.dumps(data))
        runs.append(run)
    (runs[0] / "a1" / "result.json").write_text(
        (runs[0] / "a1" / "result.json").read_text().replace('"valid": true', '"valid": false')
    )  # the site could not tell: no label
    replies = ["Status: success"] * 2 + ["Status: success"] * 4  # always success
    with fake_llm([openai_ok(x) for x in replies]) as srv:
        setup = JudgeSetup(judge="openai:j", base_url=srv.base_url, workers=1)
        (row,) = compare("site", runs, ["agenttrek-eval"], setup)["methods"]
    # a: (S,S) -> 1.0 over 1; b: (S,S) (S,S) (S,F) (S,F) -> 0.5; pooled 3/5.
    assert row["ar"] == 0.6 and row["avg_ar"] == 0.75 and row["far"] == 1.0 and row["frr"] == 0.0
    assert row["kappa"] == 0.0  # a judge that always says success agrees no better than chance
    assert row["excluded"]["no_label"] == 1


def test_a_method_without_verdicts_needs_a_judge_and_unsure_counts_apart(tmp_path) -> None:
    run = _run(tmp_path)
    with pytest.raises(CompareError, match="has no verdicts of webvoyager: give --judge"):
        compare(_labels(tmp_path), [run], ["webvoyager"])
    with pytest.raises(ValueError, match="unknown method 'nope'"):
        compare(_labels(tmp_path), [run], ["nope"])


def test_records_in_run_judge_are_read_when_their_summary_names_the_method(tmp_path) -> None:
    run = _run(tmp_path)
    with fake_llm([openai_ok(reply) for _, reply in CASE.values()]) as srv:
        judge_run(run, JudgeOptions(method="webvoyager", judge="openai:j", base_url=srv.base_url, workers=1))
    (row,) = compare(_labels(tmp_path), [run], ["webvoyager"])["methods"]
    # WebVoyager reads SUCCESS / NOT SUCCESS: none of these replies says either, so none is a verdict.
    assert row["n"] == 0 and row["excluded"]["unparsed"] == 6 and row["ar"] is None


@pytest.mark.parametrize(
    ("content", "line", "says"),
    [
        ('{"task_id": "t1", "label": "success"}\n{"task_id": "t2", "label": "yes"}\n', 2, "label 'yes'"),
        ('{"task_id": "t1", "label": "success"}\n\n{"task_id": "t2"\n', 3, "not JSON"),
        ('[{"task_id": "t1", "label": "success"}]\n', 1, "a JSON array"),
        (
            '{"task_id": "t1", "method": "naveval", "verdict": true}\n',
            1,
            "unknown field(s) 'method', 'verdict'",
        ),
        ('{"task_id": "", "label": "failure"}\n', 1, "task_id must be a non-empty string"),
        ('{"task_id": "t1", "label": "unsure", "time": "yesterday"}\n', 1, "not an ISO 8601"),
        ('{"task_id": 7, "label": "success"}\n', 1, "task_id must be a non-empty string, not 7"),
    ],
)
def test_a_malformed_or_foreign_label_file_is_refused_with_its_line(tmp_path, content, line, says) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_text(content)
    with pytest.raises(LabelFileError) as e:
        read_labels(path)
    assert f"{path} line {line}:" in str(e.value) and says in str(e.value)
    run = _run(tmp_path)
    r = CliRunner().invoke(app, ["judge", "compare", str(path), str(run), "--methods", "rule"])
    assert r.exit_code == 2 and f"line {line}:" in " ".join(r.output.split())


def test_csv_labels_and_a_later_line_relabels(tmp_path) -> None:
    path = tmp_path / "labels.csv"
    path.write_text('task_id,label,note\nt1,success,"a, b"\nt2,failure,\nt1,unsure,changed my mind\n')
    labels = read_labels(path)
    assert (
        labels["t1"].label == "unsure" and labels["t1"].note == "changed my mind" and labels["t2"].note == ""
    )
    path.write_text("task_id,label,verdict\nt1,success,true\n")
    with pytest.raises(LabelFileError, match="line 1: unknown column"):
        read_labels(path)


def test_row_of_by_hand_on_four_tasks() -> None:
    # (verdict, label): tp 2, fp 1, tn 1, fn 0 -> AR 3/4, FAR 1/2, FRR 0; pj .75, pt .5:
    # pe = .75*.5 + .25*.5 = .5, kappa = (.75-.5)/.5 = .5
    row = row_of("m", [(True, True), (True, True), (True, False), (False, False)], seed=0)
    assert (row["ar"], row["far"], row["frr"], row["kappa"]) == (0.75, 0.5, 0.0, 0.5)


def test_labels_beside_each_run_and_one_file_for_runs_sharing_ids_is_refused(tmp_path) -> None:
    """Two agents' runs of the same tasks: each run's own labels.jsonl says which run it labels."""
    runs = []
    for name, label in (("agent-a", "success"), ("agent-b", "failure")):
        run = tmp_path / name
        folders.ours(run / "t1", steps=2)
        append_label(run / "labels.jsonl", Label("t1", "unsure", labeller="bo"))
        (run / "labels.jsonl").write_bytes((run / "labels.jsonl").read_bytes().rstrip(b"\n"))
        append_label(
            run / "labels.jsonl", Label("t1", label, note="relabelled", time="2026-12-07T14:00:00+00:00")
        )
        runs.append(run)
    assert read_labels(runs[0] / "labels.jsonl")["t1"].note == "relabelled"
    with fake_llm([openai_ok("Status: success")] * 2) as srv:
        setup = JudgeSetup(judge="openai:j", base_url=srv.base_url, workers=1)
        (row,) = compare("beside", runs, ["autonomous-eval"], setup)["methods"]
    assert (row["n"], row["ar"], row["far"], row["frr"]) == (2, 0.5, 1.0, 0.0)
    assert row["per_run"] == {str(runs[0]): {"n": 1, "ar": 1.0}, str(runs[1]): {"n": 1, "ar": 0.0}}
    with pytest.raises(CompareError, match="t1 are in more than one run"):
        compare(str(runs[0] / "labels.jsonl"), runs, ["autonomous-eval"])
    with pytest.raises(LabelFileError, match="label 'maybe'"):
        append_label(runs[0] / "labels.jsonl", Label("t1", "maybe"))
