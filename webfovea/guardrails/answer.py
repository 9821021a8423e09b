"""The answer gate: a task with an answer schema ends only on a `finished` whose content is a
JSON value meeting it.

browser-use returns an instance of the user's type; Stagehand's `extract` takes a schema. Here
the schema travels with the task (`Task.answer_schema`): the model is told it with the task, a
`finished` whose content is not valid JSON or does not validate is answered with the validation
error and the task goes on (the step counts like any other), and after `MAX_INVALID` invalid
answers the next one ends the task as it is, with no typed value — bounded, and counted in
result.json `answer_errors`. A valid answer's value is result.json `answer_value`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from webfovea.task import Task

MAX_INVALID = 3
_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


@dataclass
class AnswerGate:
    schema: dict[str, Any] | None = None
    invalid: int = 0  # answers refused so far

    @classmethod
    def for_task(cls, task: Task | None) -> AnswerGate:
        if task is None or task.answer_schema is None:
            return cls()
        # jsonschema (~3 MiB in every worker) only for the tasks that carry a schema
        from jsonschema import Draft202012Validator

        Draft202012Validator.check_schema(task.answer_schema)  # a bad schema is the caller's error, at once
        return cls(schema=task.answer_schema)

    @property
    def active(self) -> bool:
        return self.schema is not None

    def check(self, answer: str) -> tuple[Any, str | None]:
        """(the typed value, None) for a valid answer, else (None, what is wrong with it)."""
        assert self.schema is not None
        text = answer.strip()
        fenced = _FENCE.match(text)
        try:
            value = json.loads(fenced.group(1) if fenced else text)
        except json.JSONDecodeError as e:
            return None, f"the answer is not JSON ({e.msg} at character {e.pos})"
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import best_match

        error = best_match(Draft202012Validator(self.schema).iter_errors(value))
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path) or "the answer"
            return None, f"{where}: {error.message}"
        return value, None

    def refuse(self) -> bool:
        """Count one invalid answer; True while the model gets another try."""
        self.invalid += 1
        return self.invalid <= MAX_INVALID
