"""The viewer's review pages: a run's generated manuals (accept, edit, reject) and a task's
request evidence, filtered as the judge sees it.

Manuals are RUN/manuals/<task_id>.md as `webfovea manual` wrote them, with its
needs_review.json; a review is appended to RUN/manuals/reviews.jsonl
(judge/manuals/reviews.py), the file `bench --protocol II --manuals` reads.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from webfovea.eval import html
from webfovea.judge.evidence import build_evidence
from webfovea.judge.manuals import NEEDS_REVIEW
from webfovea.judge.manuals.reviews import Review, ReviewFileError, manual_digest, read_reviews
from webfovea.record.confined import read_text
from webfovea.view.index import RunIndex
from webfovea.view.pages import layout, path_url

_e = html.text
MANUALS = "manuals"
MANUAL_LIMIT = 2 * 1024 * 1024


def manuals_dir(run: RunIndex) -> Path:
    return run.run_dir / MANUALS


def manual_names(run: RunIndex) -> list[str]:
    d = manuals_dir(run)
    return sorted(p.stem for p in d.glob("*.md") if p.is_file()) if d.is_dir() else []


def read_manual(run: RunIndex, name: str) -> str:
    """A manual's text, read inside the manuals folder (FileNotFoundError, UnsafeFile)."""
    return read_text(manuals_dir(run), f"{name}.md", limit=MANUAL_LIMIT)


def _needs_review(run: RunIndex) -> dict[str, str]:
    try:
        rows = json.loads(read_text(manuals_dir(run), NEEDS_REVIEW, limit=MANUAL_LIMIT * 8))
    except (OSError, ValueError):
        return {}
    if not isinstance(rows, list):
        return {}
    return {str(r.get("task_id")): str(r.get("why") or "") for r in rows if isinstance(r, dict)}


def _reviews(run: RunIndex) -> tuple[dict[str, Review], str]:
    try:
        return read_reviews(manuals_dir(run)), ""
    except ReviewFileError as e:
        return {}, str(e)


def _error(error: str) -> str:
    if not error:
        return ""
    return f'<div class="banner error" id="review-error">The review file cannot be read: {_e(error)}</div>'


def manuals_page(i: int, run: RunIndex) -> str:
    names = manual_names(run)
    reviews, error = _reviews(run)
    pending = _needs_review(run)
    rows = "".join(
        f'<tr data-manual="{_e(n)}"><td><a href="{path_url("run", str(i), "manual", n)}">{_e(n)}</a></td>'
        f"<td>{_e(reviews[n].decision if n in reviews else 'not reviewed')}</td><td>{_e(pending.get(n, ''))}</td></tr>"
        for n in names
    )
    without = "".join(
        f"<li><b>{_e(t)}</b>: {_e(why)}</li>" for t, why in sorted(pending.items()) if t not in names
    )
    body = (
        f'<div class="kv"><a href="{path_url("run", str(i))}/">← {_e(run.name)}</a></div>'
        f"<h1>Manuals of {_e(run.name)}</h1>{_error(error)}"
        + (
            '<table id="manuals"><tr><th>manual</th><th>review</th><th>needs review because</th></tr>'
            f"{rows}</table>"
            if names
            else f"<p>No manuals in <code>{_e(str(manuals_dir(run)))}</code> (write them with "
            "<code>webfovea manual RUN</code>).</p>"
        )
        + (f"<h2>Tasks without a manual</h2><ul>{without}</ul>" if without else "")
    )
    return layout(f"manuals of {run.name}", body)


def manual_page(i: int, run: RunIndex, name: str, text: str, token: str, saved: str) -> str:
    reviews, error = _reviews(run)
    review = reviews.get(name)
    shown = review.text if review is not None and review.decision == "edit" else text
    state = (
        f'<div class="kv" id="review-state"><b>review</b> {_e(review.decision)} by {_e(review.reviewer or "—")} '
        f"{_e(review.time)} — {_e(review.note)}"
        + (
            " (the manual changed since)"
            if review.manual_sha256 and review.manual_sha256 != manual_digest(text)
            else ""
        )
        + "</div>"
        if review
        else '<div class="kv" id="review-state">not reviewed yet</div>'
    )
    why = _needs_review(run).get(name)
    action = path_url("run", str(i), "manual", name)
    form = (
        ""
        if error
        else f'<form method="post" action="{action}" id="review-form">'
        f'<input type="hidden" name="token" value="{_e(token)}">'
        f'<input type="hidden" name="manual_sha256" value="{_e(manual_digest(text))}">'
        f'<div class="label">manual (edit it, then "save edit")</div>'
        f'<textarea class="manual" name="text">{_e(shown)}</textarea>'
        "<div class='label'>note</div><textarea name='note'></textarea>"
        "<div class='label'>reviewer</div><input name='reviewer' id='labeller' required> "
        '<button name="decision" value="accept" id="accept">accept as written</button>'
        '<button name="decision" value="edit" id="save-edit">save edit</button>'
        '<button name="decision" value="reject" id="reject">reject</button></form>'
    )
    source = (
        f'<div class="kv">written from the task <a id="source-task" href="{path_url("run", str(i), "task", name)}">'
        f"{_e(name)}</a> (its steps and marked screenshots)</div>"
        if name in run.folders
        else ""
    )
    body = (
        f'<div class="kv"><a href="{path_url("run", str(i), "manuals")}">← manuals</a></div>'
        f"<h1>Manual: {_e(name)}</h1>{source}"
        + (f'<div class="saved" id="saved">review saved: {_e(saved)}</div>' if saved else "")
        + (f'<div class="banner" id="needs-review">{_e(why)}</div>' if why else "")
        + _error(error)
        + state
        + f'<details><summary>as the writer wrote it</summary><pre id="written">{_e(text)}</pre></details>'
        + form
    )
    return layout(f"manual {name}", body, token)


def _json_block(value: Any) -> str:
    return f"<pre>{_e(json.dumps(value, ensure_ascii=False, indent=1))}</pre>"


def evidence_fragment(task_dir: Path) -> str:
    """The request evidence a judge is given for this task (webfovea's filter), as HTML."""
    ev = build_evidence(task_dir)
    parts = [
        f'<div class="kv"><b>{len(ev.requests)}</b> request(s) kept, {len(ev.dropped)} dropped '
        f"(filter {_e(ev.filter)}, {_e(ev.tokens)} tokens by {_e(ev.token_counter)})</div>",
        '<div class="label">URLs visited</div>' + _json_block(ev.urls),
        '<div class="label">requests kept</div>' + _json_block(ev.requests),
    ]
    if ev.dropped:
        parts.append("<details><summary>dropped</summary>" + _json_block(ev.dropped) + "</details>")
    if ev.problems:
        parts.append('<div class="kv error">' + _e("; ".join(ev.problems)) + "</div>")
    return "".join(parts)
