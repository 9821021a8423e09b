"""WebRetriever's three protocols (seed 004) as what one `bench` does after its run.

- **I** (objective only): the outcome is *navigation success* — did the agent reach a qualifying
  page — as a judge decides it, not the answer: the rule judge where the tasks declare their
  navigation truth (the proving ground), NavEval with the judge model `--judge SPEC` elsewhere.
- **II**: Protocol I with the reviewed manuals attached to the instructions (`--manuals`,
  app/inputs.py `with_docs`), judged the same way.
- **III** (end-to-end retrieval): the extracted answer is scored (the suite's own scoring, as
  every run does) and the run is queued for people to verify: `verification.jsonl` lists each
  task with its answer, and `webfovea view RUN` is where a person records the verdict
  (RUN/labels.jsonl, judge/labels.py), which `judge compare` reads.

The outcome goes into summary.json under `protocol` and onto the terminal; the judge's own
records are the usual RUN/judge/ folder (`webfovea judge run` writes the same).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webfovea.app.errors import AppError
from webfovea.app.reporter import Reporter
from webfovea.judge.verification import QUEUE_FILE
from webfovea.record.atomic import write_json_atomic, write_text_atomic

RULE = "rule"
NAVEVAL = "naveval-webfovea"


@dataclass(frozen=True)
class ProtocolJudge:
    """Who judges navigation under Protocols I and II: None = the rule judge."""

    judge: str | None = None
    base_url: str | None = None
    workers: int = 4


def finish_protocol(protocol: str, out_dir: Path, how: ProtocolJudge, reporter: Reporter) -> dict[str, Any]:
    """The protocol's outcome for a finished run, recorded in its summary.json."""
    outcome = _queue(out_dir) if protocol == "III" else _navigation(protocol, out_dir, how)
    reporter.note(outcome["line"])
    summary_path = out_dir / "summary.json"
    if summary_path.exists():
        summary = json.loads(summary_path.read_text(encoding="utf-8"))
        summary["protocol"] = outcome
        write_json_atomic(summary_path, summary)
    return outcome


def _navigation(protocol: str, out_dir: Path, how: ProtocolJudge) -> dict[str, Any]:
    from webfovea.judge.run import JudgeOptions, judge_run

    method = RULE if how.judge is None else NAVEVAL
    opts = JudgeOptions(
        method=method, judge=how.judge, base_url=how.base_url, protocol=protocol, workers=how.workers
    )
    try:
        judged = judge_run(out_dir, opts)
    except (ValueError, OSError) as e:
        raise AppError(f"Protocol {protocol}: judging the run failed: {e}") from None
    if judged.judged == 0 and how.judge is None:
        line = (
            f"Protocol {protocol}: no task here declares its navigation truth, so the rule judge "
            "decided none; give --judge SPEC to judge navigation with NavEval"
        )
    else:
        line = (
            f"Protocol {protocol}: navigation success {judged.passed}/{judged.judged} judged "
            f"({method}{'' if how.judge is None else ', ' + how.judge}"
            f"{f', {judged.no_verdict} without a verdict' if judged.no_verdict else ''}); "
            "answers are not part of this protocol's outcome"
        )
    return {
        "protocol": protocol,
        "outcome": "navigation_success",
        "method": method,
        "judge_model": how.judge,
        "judged": judged.judged,
        "passed": judged.passed,
        "no_verdict": judged.no_verdict,
        "navigation_success": judged.judged_success_rate,
        "line": line,
    }


def _queue(out_dir: Path) -> dict[str, Any]:
    """Protocol III: every task's answer, queued for a person to verify in the viewer."""
    from webfovea.judge.run import task_folders

    summary_path = out_dir / "summary.json"
    per_task = (
        json.loads(summary_path.read_text(encoding="utf-8")).get("per_task", {})
        if summary_path.exists()
        else {}
    )
    rows = []
    for folder in task_folders(out_dir):
        result = json.loads((folder / "result.json").read_text(encoding="utf-8"))
        tid = result.get("task_id", folder.name)
        scored = per_task.get(tid, {})
        rows.append(
            {
                "task_id": tid,
                "task": result.get("task"),
                "answer": result.get("answer"),
                "expected": scored.get("expected"),
                "status": result.get("status"),
                "scored_correct": scored.get("passed"),
                "folder": folder.name,
            }
        )
    write_text_atomic(out_dir / QUEUE_FILE, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    scored = sum(1 for r in rows if r["scored_correct"])
    return {
        "protocol": "III",
        "outcome": "answers_scored_and_queued",
        "queued": len(rows),
        "scored_correct": scored,
        "queue": QUEUE_FILE,
        "line": (
            f"Protocol III: {scored}/{len(rows)} answers scored correct; all {len(rows)} queued for "
            f"people to verify ({out_dir / QUEUE_FILE}): webfovea view {out_dir}"
        ),
    }


__all__ = ["QUEUE_FILE", "ProtocolJudge", "finish_protocol"]
