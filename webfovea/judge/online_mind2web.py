"""Online-Mind2Web's trajectory folders, read as facts (folder.py fills the judge's record).

Its auto-eval (OSU-NLP-Group/Online-Mind2Web, src/run.py) reads one folder per task, named
after the task id, holding `result.json` and `trajectory/` with the step screenshots. Two
shapes of result.json exist, told apart by `schema_version`:

- **v1** (no `schema_version`): `task`, `action_history` (one string per action),
  `thoughts` (one string per step), `final_result_response` (the agent's answer),
  `input_image_paths` (images given with the task). The screenshots are every image in
  `trajectory/`, ordered by the first number in the file name.
- **v2** (`"schema_version": "online-mind2web-v2"`): `action_history` is a list of steps, each
  with `action`, `thought` and `screenshot` (a file name in `trajectory/`); the agent's answer
  is `agent_final_answer`. The last step's action is the agent's final output (its
  answer or TASK_COMPLETE), not something it did on the page, so it is left out of the actions
  (the upstream evaluator does the same: the final output made judges accept too often).

There is no request capture in this layout, and no status: only the judges that read
screenshots, actions and the answer have something to read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

LAYOUT = "online-mind2web"
V2 = "online-mind2web-v2"


@dataclass
class Mind2WebFacts:
    """What one result.json says; `screenshots` names files in trajectory/ (v2), or None when
    the folder's images are the screenshots (v1)."""

    task: str = ""
    answer: str | None = None
    actions: list[str] = field(default_factory=list)
    thoughts: list[str] = field(default_factory=list)
    screenshots: list[str] | None = None
    problems: list[str] = field(default_factory=list)


def is_online_mind2web(result: dict[str, Any]) -> bool:
    """Whether a result.json is in Online-Mind2Web's shape (its `action_history` or its v2 tag)."""
    return result.get("schema_version") == V2 or (
        "action_history" in result and "actions" not in result and "trajectory_file" not in result
    )


def _text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else str(value)


def _v1(result: dict[str, Any], facts: Mind2WebFacts) -> None:
    history = result.get("action_history") or []
    thoughts = result.get("thoughts") or []
    if not isinstance(history, list):
        facts.problems.append("result.json action_history is not a list; ignored")
        history = []
    if not isinstance(thoughts, list):
        facts.problems.append("result.json thoughts is not a list; ignored")
        thoughts = []
    facts.actions = [f"step {i + 1}: {_text(a)}" for i, a in enumerate(history)]
    # Thoughts are per step; an action takes the thought of its step, "" when there is none.
    facts.thoughts = [_text(thoughts[i]) if i < len(thoughts) else "" for i in range(len(history))]
    answer = result.get("final_result_response")
    facts.answer = None if answer is None else _text(answer)


def _v2(result: dict[str, Any], facts: Mind2WebFacts) -> None:
    steps = result.get("action_history") or []
    if not isinstance(steps, list) or not all(isinstance(s, dict) for s in steps):
        facts.problems.append("result.json action_history (v2) is not a list of steps; ignored")
        steps = []
    done = steps[:-1]  # the last step's action is the agent's output, not a page action
    facts.actions = [f"step {i + 1}: {_text(s.get('action'))}" for i, s in enumerate(done)]
    facts.thoughts = [_text(s.get("thought")).strip() for s in done]
    facts.screenshots = [_text(s.get("screenshot")) for s in steps if s.get("screenshot")]
    answer = result.get("agent_final_answer")
    facts.answer = None if answer is None else _text(answer)


def read_facts(result: dict[str, Any]) -> Mind2WebFacts:
    """The facts of one Online-Mind2Web result.json (never raises: odd fields go to problems)."""
    facts = Mind2WebFacts(task=_text(result.get("task") or result.get("confirmed_task")))
    (_v2 if result.get("schema_version") == V2 else _v1)(result, facts)
    return facts


__all__ = ["LAYOUT", "V2", "Mind2WebFacts", "is_online_mind2web", "read_facts"]
