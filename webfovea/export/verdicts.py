"""Whether each task of a run passed, for picking training data: a judge's records, the site's
own truth, or the run's own scoring.

- `--judge METHOD`: that method's records, RUN/judges/METHOD/ or RUN/judge/ when its summary
  names the method (as `judge compare` finds them). A record without a verdict is no verdict.
- default: the proving ground's truth (result.json `truth`, when valid: the navigation right
  and the answer right), else the run's own scoring (summary.json `per_task.passed`).

Every file is read through the confined reader: a judge record linked out of the run is not read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webfovea.judge.records import RESERVED, JudgeRecord
from webfovea.judge.run import JUDGE_DIR
from webfovea.record.confined import read_text

JUDGES_DIR = "judges"


@dataclass(frozen=True)
class Verdict:
    passed: bool | None  # None: nothing says
    source: str  # "site truth", "run summary", "judge:<method>", or "none"


def _json(root: Path, rel: str) -> Any:
    try:
        return json.loads(read_text(root, rel))
    except (OSError, ValueError):
        return None


def judge_dir(run: Path, method: str) -> Path | None:
    """Where the run keeps this method's records, if anywhere."""
    own = run / JUDGES_DIR / method
    if isinstance(_json(run, f"{JUDGES_DIR}/{method}/summary.json"), dict):
        return own
    summary = _json(run, f"{JUDGE_DIR}/summary.json")
    if isinstance(summary, dict) and summary.get("method") == method:
        return run / JUDGE_DIR
    return None


def judge_verdicts(run: Path, method: str) -> dict[str, bool | None] | None:
    """Task id -> the method's verdict; None when the run has no records of the method."""
    found = judge_dir(run, method)
    if found is None:
        return None
    out: dict[str, bool | None] = {}
    for f in sorted(found.glob("*.json")):
        if f.stem.lower() in RESERVED:
            continue
        try:
            rec = JudgeRecord.model_validate_json(read_text(run, f))
        except (OSError, ValueError):
            continue
        out[rec.task_id] = rec.verdict
    return out


def summary_verdicts(run: Path) -> dict[str, bool]:
    """The run's own scoring: task id -> passed (finished with a matching answer)."""
    for name in ("summary.json", "summary.partial.json"):
        summary = _json(run, name)
        if isinstance(summary, dict) and isinstance(summary.get("per_task"), dict):
            return {
                str(k): bool(v.get("passed"))
                for k, v in summary["per_task"].items()
                if isinstance(v, dict) and "passed" in v
            }
    return {}


def site_truth(result: dict[str, Any]) -> bool | None:
    """The proving ground's own request log: navigation and answer right; None: it cannot tell."""
    truth = result.get("truth")
    if not isinstance(truth, dict) or not truth.get("valid"):
        return None
    return bool(truth.get("nav_ok")) and bool(truth.get("answer_ok"))


class RunVerdicts:
    """The verdict of each task folder of one run, by the chosen source."""

    def __init__(self, run: Path, method: str | None) -> None:
        self.method = method
        self.judged: dict[str, bool | None] | None = None
        self.scored: dict[str, bool] = {}
        if method:
            self.judged = judge_verdicts(run, method)
            if self.judged is None:
                raise LookupError(
                    f"{run} has no verdicts of {method}: run `webfovea judge run {run} --method {method} "
                    f"--out {run / JUDGES_DIR / method}` first, or leave out --judge"
                )
        else:
            self.scored = summary_verdicts(run)

    def of(self, record_id: str, task_id: str, result: dict[str, Any]) -> Verdict:
        if self.judged is not None:
            v = self.judged.get(record_id)
            return Verdict(v, f"judge:{self.method}" if v is not None else "none")
        truth = site_truth(result)
        if truth is not None:
            return Verdict(truth, "site truth")
        if task_id in self.scored:
            return Verdict(self.scored[task_id], "run summary")
        return Verdict(None, "none")
