"""The oracle's answer to a history-compression call: a faithful summary of its own progress.

A real model summarises what it remembers; the oracle knows exactly where it is in its
plan, so its summary is that position written out under the five headings the harness
asks for (observation/compress.py). It does not read the task's expected answer; the page
state it reports is the address and title any model sees in the browser.
"""

from __future__ import annotations

from typing import Any

from webfovea.observation.compress import SUMMARY_MAX_CHARS

_RECENT_ACTIONS = 12


def _op_text(step: dict[str, Any]) -> str:
    op = str(step.get("op", "?"))
    details = [f"{key}='{step[key]}'" for key in ("option", "content", "text", "near") if step.get(key)]
    return f"{op}({', '.join(details)})" if details else op


def progress_summary(
    task: str,
    plan: list[dict[str, Any]],
    cursor: int,
    actions: list[str],
    url: str,
    title: str,
) -> str:
    """The five-heading summary of a plan followed up to `cursor`, with the actions it asked for."""
    done = [f"- {_op_text(s)}" for s in plan[:cursor]] or ["- (none yet)"]
    recent = [f"- {a}" for a in actions[-_RECENT_ACTIONS:]] or ["- (none yet)"]
    remaining = [f"- {_op_text(s)}" for s in plan[cursor:]] or ["- answer with finished(content=...)"]
    known = [
        f"- {s.get('op')}: {s.get('option') or s.get('content')}"
        for s in plan[:cursor]
        if s.get("option") or s.get("content")
    ] or ["- nothing recorded yet"]
    text = "\n".join(
        [
            "Objective:",
            task.strip(),
            "Completed operations:",
            *done,
            f"Last actions ({min(len(actions), _RECENT_ACTIONS)} of {len(actions)}):",
            *recent,
            "Current page state:",
            f"- {title or '(untitled)'} at {url}",
            f"- plan step {cursor + 1} of {len(plan)}",
            "Key information:",
            *known,
            "Remaining steps:",
            *remaining,
        ]
    )
    return text[:SUMMARY_MAX_CHARS]
