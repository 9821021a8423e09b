"""Protocol II's manuals: which trajectories may make one, and where a run finds them.

Seed 004: an agent explores each task, NavEval judges the trajectory, successful ones are
turned into manuals by an LLM, failed ones are retried up to a limit and then refined by people.
`webfovea manual RUN` (app/manuals.py) does that: the facts of a trajectory are
judge/manuals/facts.py, the writer judge/manuals/writer.py. Only a judge verdict makes a
trajectory successful here — never the proving ground's truth, which a real site does not have.

A manual folder holds `<task_id>.md` per task; `bench --protocol II --manuals DIR` adds each
task's manual to its instruction (`docs_for`: a fault variant `<task>--v…` takes its task's),
as people reviewed it (judge/manuals/reviews.py: edited text, rejected manuals left out).
"""

from __future__ import annotations

from pathlib import Path

from webfovea.judge.manuals.reviews import Review, read_reviews
from webfovea.judge.records import JudgeRecord, read_judge_records

NEEDS_REVIEW = "needs_review.json"  # the tasks left for a person to refine
SUMMARY = "manuals.json"  # what `webfovea manual` wrote, and from which folders


class ManualError(ValueError):
    """No manual can be made; the message says why and what to do."""


def verdicts(run_dir: Path) -> dict[str, JudgeRecord]:
    """The judge records of a run, by task id (empty when the run was never judged)."""
    folder = Path(run_dir) / "judge"
    return read_judge_records(folder) if folder.is_dir() else {}


def docs_for(task_id: str, docs_dir: Path, reviews: dict[str, Review] | None = None) -> str | None:
    """The manual for a task in a manuals folder (`<task_id>.md`; a fault variant uses its task's),
    as reviewed: an edit's text, nothing for a rejected manual. `reviews` defaults to the folder's
    review file (ReviewFileError when it is malformed)."""
    if reviews is None:
        reviews = read_reviews(docs_dir)
    for name in (task_id, task_id.split("--")[0]):
        path = Path(docs_dir) / f"{name}.md"
        if not path.is_file():
            continue
        review = reviews.get(name)
        if review is not None and review.decision == "reject":
            return None
        if review is not None and review.decision == "edit":
            return review.text
        return path.read_text(encoding="utf-8")
    return None


def manual_ids(docs_dir: Path) -> set[str]:
    """The task ids a manuals folder has a manual for."""
    return {p.stem for p in Path(docs_dir).glob("*.md")}
