"""The run report's evidence block: what an answer was read from, next to the answer.

result.json `evidence` (guardrails/evidence.py) names `evidence.png` — the screenshot the
answer was read from, marked where the agent last acted —, the text read, the URL, the page's
request whose response held the value, and the OCR cross-check; `verification` holds the
verifier's verdicts and whether the answer stood disputed. The image is read like every
screenshot of the report: inside the task folder only, bounded (`eval/report/images.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from webfovea.eval import html
from webfovea.eval.report.images import THUMB_WIDTH, Thumb, thumbnail
from webfovea.record.confined import UnsafeFile, check_image
from webfovea.record.schema import TaskResult

_e = html.text


# How an image that may be shown becomes an <img> source: the report inlines a thumbnail; the
# viewer (webfovea/view) gives the URL it serves the file at instead.
ImageSource = Callable[[Path, int], Thumb]


def _image(task_dir: Path, run_dir: Path, name: str | None, width: int, src: ImageSource) -> str:
    if not name:
        return '<div class="noimg">no evidence screenshot recorded</div>'
    if not task_dir.resolve().is_relative_to(run_dir.resolve()):
        return '<div class="noimg">the task folder is a link out of the run folder; not read</div>'
    try:
        path = check_image(task_dir, name)
    except FileNotFoundError:
        return '<div class="noimg">the evidence screenshot is missing</div>'
    except (OSError, UnsafeFile) as e:
        return f'<div class="noimg">evidence not shown: {_e(str(e))}</div>'
    uri, why = src(path, width)
    if uri is None:
        return f'<div class="noimg">evidence not shown: {_e(why)}</div>'
    return f'<img class="evidence" src="{uri}" alt="evidence: {_e(name)}" loading="lazy">'


def _verdicts(verification: dict[str, Any] | None) -> list[str]:
    if not isinstance(verification, dict):
        return []
    rows = []
    for v in verification.get("verdicts") or []:
        if not isinstance(v, dict):
            continue
        look = f" · look at: {v['look_at']}" if v.get("look_at") else ""
        note = f" ({v['note']})" if v.get("note") else ""
        rows.append(
            f"<li>step {_e(v.get('step'))}: <b>{_e(v.get('verdict'))}</b> "
            f"<code>{_e(v.get('answer'))}</code> — {_e(v.get('reason'))}{_e(look)}{_e(note)}</li>"
        )
    disputed = verification.get("disputed")
    head = (
        f'<div class="kv verifier" data-disputed="{str(bool(disputed)).lower()}"><b>verifier</b> '
        f"{_e(verification.get('model'))} · {_e(verification.get('rejections'))} rejection(s)"
        + (" · <b>disputed</b>: the answer stands after the last rejection" if disputed else "")
        + "</div>"
    )
    return [head + (f"<ul>{''.join(rows)}</ul>" if rows else "")]


def evidence_html(
    result: TaskResult | None,
    task_dir: Path,
    run_dir: Path,
    width: int = THUMB_WIDTH,
    src: ImageSource = thumbnail,
) -> str:
    """The answer's evidence and the verifier's verdicts ('' when the result has neither)."""
    if result is None or (result.evidence is None and result.verification is None):
        return ""
    parts = _verdicts(result.verification)
    ev = result.evidence if isinstance(result.evidence, dict) else None
    if ev is not None:
        facts = [f"<b>evidence</b> taken {_e(ev.get('taken_at'))} at <code>{_e(ev.get('url'))}</code>"]
        req = ev.get("request")
        if isinstance(req, dict):
            facts.append(
                f"value in the response of <code>{_e(req.get('method'))} {_e(req.get('url'))}</code> "
                f"({_e(req.get('status'))})"
            )
        parts.append(f'<div class="kv">{" · ".join(facts)}</div>')
        texts = [t for t in ev.get("text_read") or [] if isinstance(t, str)]
        if texts:
            parts.append(
                '<div class="label">text read</div><pre class="evidence-text">'
                + _e("\n".join(texts))
                + "</pre>"
            )
        ocr = ev.get("ocr")
        if isinstance(ocr, dict) and ocr.get("note"):
            parts.append(f'<div class="kv ocr"><b>OCR</b> {_e(ocr.get("note"))}</div>')
        image = _image(task_dir, run_dir, ev.get("screenshot"), width, src)
        return f'<div class="step evidence-block"><div>{image}</div><div>{"".join(parts)}</div></div>'
    return "".join(parts)
