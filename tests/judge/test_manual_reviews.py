"""People's reviews of manuals: the file format, and what Protocol II gives an agent after them."""

from __future__ import annotations

from pathlib import Path

import pytest

from webfovea.app.errors import AppError
from webfovea.app.inputs import with_docs
from webfovea.judge.manuals import docs_for
from webfovea.judge.manuals.reviews import Review, ReviewFileError, append_review, read_reviews
from webfovea.task import Task

MANUAL = "# How to: x\n1. Click Go.\n"


@pytest.fixture
def manuals(tmp_path: Path) -> Path:
    (tmp_path / "t1.md").write_text(MANUAL)
    (tmp_path / "t2.md").write_text(MANUAL)
    return tmp_path


def test_reviews_decide_what_protocol_ii_gives(manuals: Path) -> None:
    append_review(manuals, Review("t1", "edit", text="# How to: x\n1. Click Go, then OK.\n", reviewer="ana"))
    append_review(manuals, Review("t2", "reject", note="wrong site"))
    assert docs_for("t1", manuals) == "# How to: x\n1. Click Go, then OK.\n"
    assert docs_for("t2", manuals) is None
    append_review(manuals, Review("t2", "accept"))  # a later review overrides
    assert docs_for("t2", manuals) == MANUAL
    tasks = with_docs([Task(task_id="t1", task="Go", website="http://127.0.0.1:9/")], manuals)
    assert tasks[0].task.endswith("1. Click Go, then OK.")


@pytest.mark.parametrize(
    ("line", "wrong"),
    [
        (
            '{"task_id": "t1", "decision": "maybe"}',
            "decision 'maybe' of 't1' is not one of accept, edit, reject",
        ),
        ('{"task_id": "t1", "decision": "edit"}', "an edit of 't1' needs the edited manual in `text`"),
        ('{"task_id": "t1", "decision": "accept", "text": "x"}', "`text` belongs to an edit"),
        ('{"task_id": "t1", "label": "success"}', "unknown field(s) 'label'"),
        ('{"task_id": "../t1", "decision": "accept"}', "task_id must be a manual's file stem"),
        ("not json", "not JSON"),
    ],
)
def test_a_malformed_review_file_is_refused_with_its_line(manuals: Path, line: str, wrong: str) -> None:
    (manuals / "reviews.jsonl").write_text('{"task_id": "t2", "decision": "accept"}\n\n' + line + "\n")
    with pytest.raises(ReviewFileError) as e:
        read_reviews(manuals)
    assert f"reviews.jsonl line 3: {wrong}" in str(e.value)
    with pytest.raises(AppError, match="line 3"):
        with_docs([Task(task_id="t1", task="Go", website="http://127.0.0.1:9/")], manuals)


def test_a_bad_review_is_not_appended(manuals: Path) -> None:
    with pytest.raises(ReviewFileError):
        append_review(manuals, Review("t1", "edit", text=""))
    assert not (manuals / "reviews.jsonl").exists()
