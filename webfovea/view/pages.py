"""The viewer's pages, rendered on the server: the run list, a run's task list, one task.

Every string from a run (task text, answers, the model's words, judge reasons, label notes) goes
through `eval/html.py`; a task's steps are the run report's own section (`eval/report/tasks.py`),
given the URL each screenshot is served at instead of an inlined thumbnail. The pages hold no
inline script (the server's Content-Security-Policy forbids it): `/static/view.js` loads the
request evidence when asked and remembers the labeller's name.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from webfovea.eval import html
from webfovea.eval.report.images import Thumb, step_image
from webfovea.eval.report.style import CSS
from webfovea.eval.report.tasks import read_steps, task_section
from webfovea.judge.folder import ordered_screenshots
from webfovea.judge.labels import LABELS, Label
from webfovea.judge.verification import Queue
from webfovea.record.confined import read_text
from webfovea.view.index import RESULT_LIMIT, RunIndex, TaskRow, disagree, in_queue

_e = html.text
PAGE_SIZE = 50

VIEW_CSS = """
nav.top{background:#1d2330;color:#fff;padding:8px 24px}nav.top a{color:#cfe0ff;margin-right:16px}
.verdict-pass{color:#1a7f37;font-weight:600}.verdict-fail{color:#c62828;font-weight:600}
.verdict-none{color:#888}form.inline{display:inline}.pager a,.pager span{margin-right:12px}
fieldset{border:1px solid #e3e6eb;border-radius:6px;background:#fff;margin:12px 0;padding:12px}
textarea{width:100%;min-height:80px;font:13px/1.4 ui-monospace,monospace}
textarea.manual{min-height:360px}.saved{background:#e6f4ea;border:1px solid #1a7f37;padding:8px 12px;
border-radius:6px;margin:12px 0}button{font:inherit;padding:4px 14px;margin-right:8px;cursor:pointer}
"""


def path_url(*parts: str) -> str:
    """A URL path from segments, each percent-encoded (safe inside a quoted attribute)."""
    return "/" + "/".join(quote(p, safe="") for p in parts)


def layout(title: str, body: str, token: str = "") -> str:
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f'<meta name="csrf" content="{_e(token)}">'
        f"<title>{_e(title)} · webfovea view</title><style>{CSS}{VIEW_CSS}</style>"
        '<script src="/static/view.js" defer></script></head><body>'
        '<nav class="top"><a href="/">runs</a></nav>'
        f"<main>{body}</main></body></html>"
    )


def error_page(status: int, message: str) -> str:
    return layout(f"{status}", f'<h1>{status}</h1><div class="banner error" id="error">{_e(message)}</div>')


def runs_page(runs: list[RunIndex]) -> str:
    items = "".join(
        f'<li><a href="{path_url("run", str(i))}/">{_e(r.name)}</a> — {len(r.folders)} task(s) · '
        f'<a href="{path_url("run", str(i), "manuals")}">manuals</a> · <code>{_e(str(r.run_dir))}</code></li>'
        for i, r in enumerate(runs)
    )
    return layout("runs", f"<h1>Runs</h1><ul>{items}</ul>")


def _verdict(v: bool | None, known: bool) -> str:
    if not known:
        return '<span class="verdict-none">—</span>'
    if v is None:
        return '<span class="verdict-none">no verdict</span>'
    return '<span class="verdict-pass">pass</span>' if v else '<span class="verdict-fail">fail</span>'


def _label_cell(label: Label | None) -> str:
    if label is None:
        return '<span class="verdict-none">—</span>'
    cls = {"success": "verdict-pass", "failure": "verdict-fail"}.get(label.label, "verdict-none")
    return f'<span class="{cls}" title="{_e(label.note)}">{_e(label.label)}</span>'


def _short(value: Any, limit: int = 80) -> str:
    text = value if isinstance(value, str) else "" if value is None else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _label_banner(error: str) -> str:
    if not error:
        return ""
    return (
        '<div class="banner error" id="label-error">The label file cannot be read, so no label is shown '
        f"and none can be added until it is fixed: {_e(error)}</div>"
    )


def list_page(
    i: int,
    run: RunIndex,
    *,
    page: int,
    status: str,
    only_disagree: bool,
    rows: list[TaskRow] | None,
    total: int,
    verify: str = "",
) -> str:
    """A page of the run's tasks; `rows` None: the index is still being read (filters wait)."""
    judges = run.judges()
    labels, label_error = run.labels()
    queue = run.queue()
    base = path_url("run", str(i)) + "/"
    options = "".join(
        f'<option value="{_e(s)}"{" selected" if s == status else ""}>{_e(s or "any status")}</option>'
        for s in dict.fromkeys(["", *run.statuses(), status])
    )
    checked = " checked" if only_disagree else ""
    filters = (
        f'<form method="get" action="{base}" id="filters">status <select name="status">{options}</select> '
        f'<label><input type="checkbox" name="disagree" value="1"{checked}> judges disagree '
        "(with each other or with the label)</label> "
        f"{_queue_select(queue, verify)}<button>filter</button></form>"
    )
    head = (
        f"<h1>{_e(run.name)}</h1><div class='kv'><code>{_e(str(run.run_dir))}</code> · "
        f'<a href="{path_url("run", str(i), "manuals")}">manuals</a></div>'
    )
    if rows is None:
        body = (
            f"{head}{filters}<div class='banner' id='indexing'>Reading the run's result.json files: "
            f"{run.indexed()} of {len(run.folders)}. Reload in a moment.</div>"
        )
        return layout(run.name, body)
    methods = list(judges)
    th = "".join(f"<th>{_e(m)}</th>" for m in methods)
    queued = bool(queue.entries)
    th += "<th>verification</th>" if queued else ""
    trs = []
    for row in rows:
        label = labels.get(row.task_id)
        cells = "".join(
            f"<td>{_verdict(judges[m].get(row.task_id), row.task_id in judges[m])}</td>" for m in methods
        )
        link = path_url("run", str(i), "task", row.folder)
        trs.append(
            f'<tr data-task-id="{_e(row.task_id)}"><td><a href="{link}">{_e(row.task_id)}</a>'
            + (f' <span class="error">{_e(row.problem)}</span>' if row.problem else "")
            + f"</td><td>{_e(row.status)}</td><td><code>{_e(_short(row.answer))}</code></td>"
            f"<td>{_label_cell(label)}</td>{cells}"
            + (f"<td>{_queue_cell(queue, row.task_id, label)}</td>" if queued else "")
            + "</tr>"
        )
    pages = max(1, -(-total // PAGE_SIZE))
    query = {
        k: v
        for k, v in (("status", status), ("disagree", "1" if only_disagree else ""), ("verify", verify))
        if v
    }
    pager = [f"<span>page {page} of {pages} · {total} task(s)</span>"]
    if page > 1:
        pager.append(
            f'<a rel="prev" href="{base}?{_e(urlencode({**query, "page": page - 1}))}">← previous</a>'
        )
    if page < pages:
        pager.append(f'<a rel="next" href="{base}?{_e(urlencode({**query, "page": page + 1}))}">next →</a>')
    table = (
        f'<table id="tasks"><tr><th>task</th><th>status</th><th>answer</th><th>label</th>{th}</tr>'
        f"{''.join(trs)}</table>"
    )
    pager_html = f'<div class="pager">{"".join(pager)}</div>'
    return layout(run.name, f"{head}{_label_banner(label_error)}{filters}{pager_html}{table}{pager_html}")


_VERIFY_WORDS = {"": "any", "pending": "to verify", "done": "verified"}


def _queue_select(queue: Queue, verify: str) -> str:
    """Protocol III's queue as a filter, when the run has one."""
    if not queue.entries and not verify:
        return ""
    options = "".join(
        f'<option value="{v}"{" selected" if v == verify else ""}>{w}</option>'
        for v, w in _VERIFY_WORDS.items()
    )
    return f'verification queue ({len(queue.entries)}) <select name="verify">{options}</select> '


def _queue_cell(queue: Queue, task_id: str, label: Label | None) -> str:
    if task_id not in queue.entries:
        return '<span class="verdict-none">—</span>'
    return "verified" if label is not None else "<b>to verify</b>"


def _queue_block(queue: Queue, row: TaskRow) -> str:
    """A queued task's delivered answer beside what the suite scored, above the label form."""
    entry = queue.entries.get(row.task_id)
    if entry is None:
        return ""
    correct = entry.get("scored_correct")
    scored = "not scored" if not isinstance(correct, bool) else "correct" if correct else "incorrect"
    return (
        '<fieldset id="verification"><legend>Protocol III: verify the delivered answer</legend>'
        f'<div class="kv"><b>answer</b> <code>{_e(_short(entry.get("answer"), 300))}</code> · '
        f"<b>expected</b> <code>{_e(_short(entry.get('expected'), 300))}</code> · <b>scored</b> {scored}</div>"
        '<div class="kv">Record the verdict with the label below: success = the answer is right.</div>'
        "</fieldset>"
    )


def filtered(
    run: RunIndex, rows: list[TaskRow], status: str, only_disagree: bool, verify: str = ""
) -> list[TaskRow]:
    judges = run.judges()
    labels, _ = run.labels()
    queue = run.queue()
    out = []
    for row in rows:
        if status and row.status != status:
            continue
        if not in_queue(queue, labels, row.task_id, verify):
            continue
        if only_disagree and not disagree(
            [j.get(row.task_id) for j in judges.values()], labels.get(row.task_id)
        ):
            continue
        out.append(row)
    return out


def _judge_records(run: RunIndex, row: TaskRow) -> str:
    """Every judge's record of this task side by side: verdict, model, reasoning, the error."""
    dirs = run.judge_dirs()
    cells = []
    for name, d in dirs:
        rec: Any = None
        for stem in dict.fromkeys([row.task_id, row.folder]):
            try:
                rec = json.loads(read_text(d, f"{stem}.json", limit=16 * 1024 * 1024))
                break
            except (OSError, ValueError):
                continue
        if not isinstance(rec, dict):
            continue
        v = rec.get("verdict")
        verdict = _verdict(v if isinstance(v, bool) else None, True)
        why = rec.get("reasoning") or rec.get("error") or ""
        unparsed = " (reply unparsed)" if rec.get("unparsed") else ""
        cells.append(
            f'<tr data-method="{_e(name)}"><td>{_e(rec.get("method") or name)}</td><td>{verdict}{unparsed}</td>'
            f"<td>{_e(rec.get('judge_model'))}</td><td>{_e(why)}</td></tr>"
        )
    if not cells:
        return '<div class="kv" id="judges">no judge has judged this task</div>'
    return (
        '<table id="judges"><tr><th>method</th><th>verdict</th><th>model</th><th>reasoning</th></tr>'
        f"{''.join(cells)}</table>"
    )


def _label_form(i: int, row: TaskRow, label: Label | None, error: str, token: str) -> str:
    if error:
        return _label_banner(error)
    current = (
        f'<div class="kv" id="current-label"><b>label</b> {_label_cell(label)} by {_e(label.labeller or "—")} '
        f"{_e(label.time)} — {_e(label.note)}</div>"
        if label
        else '<div class="kv" id="current-label">not labelled yet</div>'
    )
    radios = "".join(
        f'<label><input type="radio" name="label" value="{v}" required> {v}</label> ' for v in LABELS
    )
    action = path_url("run", str(i), "label", row.folder)
    return (
        f'<fieldset id="label-form"><legend>Label this task</legend>{current}'
        f'<form method="post" action="{action}"><input type="hidden" name="token" value="{_e(token)}">'
        f"<div>{radios}</div><div class='label'>note</div><textarea name='note'></textarea>"
        "<div class='label'>labeller</div><input name='labeller' id='labeller' required>"
        " <button type='submit' id='save-label'>save label</button></form></fieldset>"
    )


def _webretriever_section(task_dir: Path, served: Any) -> str:
    """A WebRetriever-layout task (trajectory/<n>.png, the actions in result.json): each screenshot
    by step number beside the action of that step, thoughts included (a person may read them)."""
    shots = ordered_screenshots(task_dir / "trajectory", task_dir)
    try:
        result = json.loads(read_text(task_dir, "result.json", limit=RESULT_LIMIT))
    except (OSError, ValueError):
        result = {}
    actions = result.get("actions") if isinstance(result, dict) else None
    actions = actions if isinstance(actions, list) else []
    items = []
    for n in range(max(len(shots), len(actions))):
        img = (
            f'<img src="{served(shots[n])[0]}" alt="step {n} screenshot" loading="lazy">'
            if n < len(shots)
            else '<div class="noimg">no screenshot</div>'
        )
        act = actions[n] if n < len(actions) else None
        text = act if isinstance(act, str) else json.dumps(act, ensure_ascii=False, indent=1) if act else ""
        items.append(
            f'<li class="step"><div>{img}</div><div><h3>Step {n}</h3>'
            f'<div class="label">action</div><pre class="action">{_e(text)}</pre></div></li>'
        )
    timeline = "".join(items) or '<li class="noimg">no steps recorded</li>'
    return f'<section class="task" data-layout="webretriever"><ol class="timeline">{timeline}</ol></section>'


def task_page(i: int, run: RunIndex, row: TaskRow, token: str, saved: bool) -> str:
    task_dir = run.run_dir / row.folder
    steps = [(s, step_image(s, task_dir, run.run_dir)) for s in read_steps(task_dir)]

    def served(path: Path, _width: int = 0) -> Thumb:
        rel = path.resolve().relative_to(run.run_dir)
        return path_url("run", str(i), "file", *rel.parts), None

    thumbs = {img: served(img) for _, img in steps if isinstance(img, Path)}
    webretriever = not steps and (task_dir / "trajectory").is_dir()
    section = (
        _webretriever_section(task_dir, served)
        if webretriever
        else task_section(
            row.task_id,
            {"task": row.task, "answer": row.answer, "status": row.status, "how": "unscored"},
            task_dir,
            "task",
            steps,
            thumbs,
            served,
        )
    )
    labels, error = run.labels()
    evidence = path_url("run", str(i), "evidence", row.folder)
    at = run.folders.index(row.folder)
    near = [
        f'<a id="{rel}-task" rel="{rel}" href="{path_url("run", str(i), "task", run.folders[k])}">{word}</a>'
        for rel, k, word in (("prev", at - 1, "← previous task"), ("next", at + 1, "next task →"))
        if 0 <= k < len(run.folders)
    ]
    body = (
        f'<div class="kv"><a href="{path_url("run", str(i))}/">↑ {_e(run.name)}</a> · '
        f"task {at + 1} of {len(run.folders)} · {' · '.join(near)}</div>"
        f'<h1 id="task-id">{_e(row.task_id)}</h1><div class="kv" id="task-text"><b>task</b> {_e(row.task)}</div>'
        f'<div class="kv"><b>status</b> {_e(row.status)} · <b>answer</b> <code>{_e(_short(row.answer, 300))}</code></div>'
        + ('<div class="saved" id="saved">label saved</div>' if saved else "")
        + _queue_block(run.queue(), row)
        + _label_form(i, row, labels.get(row.task_id), error, token)
        + f"<h2>Judges</h2>{_judge_records(run, row)}"
        + f'<details id="requests" data-src="{evidence}"><summary>request evidence (filtered as the '
        "judge sees it; read from capture.json when opened)</summary><div class='body'>…</div></details>"
        + section
    )
    return layout(row.task_id, body, token)
