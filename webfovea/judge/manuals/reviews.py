"""People's reviews of Protocol II's manuals (docs/judge.md, "Manual reviews").

Seed 004's Protocol II gives agents manuals *reviewed by people*. A review is a line of
`MANUALS_DIR/reviews.jsonl`, beside the `<task_id>.md` files `webfovea manual` wrote:

    {"task_id": "stats-cpi-vn", "decision": "edit", "text": "# How to: ...", "note": "step 3 named",
     "reviewer": "ana", "time": "2026-12-07T14:03:00Z", "manual_sha256": "9f2c..."}

`task_id` (the manual's file stem) and `decision` (`accept`, `edit` or `reject`) are required;
`text` is required for `edit` (the manual as the person wrote it) and refused otherwise;
`note`, `reviewer`, `time` (ISO 8601) and `manual_sha256` (the digest of the `.md` reviewed)
are optional. A later line for the same manual overrides an earlier one; the `.md` file the
writer made is never changed, so a review can be undone by reviewing again. Any other field or
value refuses the whole file with the line that is wrong, as label files are refused
(judge/labels.py).

What `bench --protocol II --manuals DIR` then gives an agent (`manual.docs_for`): the edited text
for an edited manual, nothing for a rejected one, the file as written otherwise.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from webfovea.judge.labels import jsonl_rows

REVIEW_FILE = "reviews.jsonl"
DECISIONS = ("accept", "edit", "reject")
FIELDS = ("task_id", "decision", "text", "note", "reviewer", "time", "manual_sha256")
MAX_TEXT = 200_000  # characters of an edited manual: a manual is a page, not a book


class ReviewFileError(ValueError):
    """A review file that cannot be read; the message names the file and the wrong line."""


@dataclass(frozen=True)
class Review:
    task_id: str
    decision: str  # accept | edit | reject
    text: str = ""  # the edited manual (decision "edit" only)
    note: str = ""
    reviewer: str = ""
    time: str = ""
    manual_sha256: str = ""


def manual_digest(text: str) -> str:
    """The digest a review records of the manual it reviewed."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def review_of(row: Any, where: str) -> Review:
    """One review from a parsed row, or ReviewFileError saying what is wrong at `where`."""
    if not isinstance(row, dict):
        raise ReviewFileError(
            f"{where}: {type(row).__name__}, not a review object {{task_id, decision, ...}}"
        )
    unknown = sorted(str(k) for k in row if k not in FIELDS)
    if unknown:
        raise ReviewFileError(
            f"{where}: unknown field(s) {', '.join(repr(k) for k in unknown)}; "
            f"a review holds {', '.join(FIELDS)} (is this a review file?)"
        )
    tid = row.get("task_id")
    if not isinstance(tid, str) or not tid.strip() or "/" in tid or "\\" in tid or tid.startswith("."):
        raise ReviewFileError(f"{where}: task_id must be a manual's file stem, not {tid!r}")
    decision = row.get("decision")
    if decision not in DECISIONS:
        raise ReviewFileError(
            f"{where}: decision {decision!r} of {tid!r} is not one of {', '.join(DECISIONS)}"
        )
    texts: dict[str, str] = {}
    for key in ("text", "note", "reviewer", "time", "manual_sha256"):
        value = row.get(key)
        if value is not None and not isinstance(value, str):
            raise ReviewFileError(f"{where}: {key} of {tid!r} must be a string, not {value!r}")
        texts[key] = value or ""
    if decision == "edit" and not texts["text"].strip():
        raise ReviewFileError(f"{where}: an edit of {tid!r} needs the edited manual in `text`")
    if decision != "edit" and texts["text"]:
        raise ReviewFileError(f"{where}: `text` belongs to an edit, not to {decision!r} of {tid!r}")
    if len(texts["text"]) > MAX_TEXT:
        raise ReviewFileError(f"{where}: the edited manual of {tid!r} is over {MAX_TEXT} characters")
    if texts["time"]:
        try:
            datetime.fromisoformat(texts["time"])
        except ValueError:
            raise ReviewFileError(
                f"{where}: time {texts['time']!r} of {tid!r} is not an ISO 8601 date-time"
            ) from None
    return Review(task_id=tid.strip(), decision=str(decision), **texts)


def read_reviews(manuals_dir: Path) -> dict[str, Review]:
    """Manual (task id) -> its latest review; empty when the folder has no review file."""
    path = Path(manuals_dir) / REVIEW_FILE
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise ReviewFileError(f"cannot read the review file {path}: {e.strerror or e}") from None
    reviews: dict[str, Review] = {}
    for where, row in jsonl_rows(path, data, ReviewFileError):
        review = review_of(row, where)
        reviews[review.task_id] = review
    return reviews


def append_review(manuals_dir: Path, review: Review) -> None:
    """Add a review (a later line overrides), checked as `read_reviews` checks it, on a line of
    its own even when the file's last line lacks its newline."""
    row = {k: v for k, v in vars(review).items() if v or k in ("task_id", "decision")}
    line = json.dumps(row, ensure_ascii=False)
    review_of(json.loads(line), "the new review")
    path = Path(manuals_dir) / REVIEW_FILE
    with path.open("ab") as f:
        if f.tell() and path.read_bytes()[-1:] != b"\n":
            f.write(b"\n")
        f.write(line.encode("utf-8") + b"\n")
