"""The answer gate: a task with an answer schema ends only on a `finished` whose content is a
JSON value meeting it.

browser-use returns an instance of the user's type; Stagehand's `extract` takes a schema. Here
the schema travels with the task (`Task.answer_schema`): the model is told it with the task, a
`finished` whose content is not valid JSON or does not validate is answered with the validation
error and the task goes on (the step counts like any other), and after `MAX_INVALID` invalid
answers the next one ends the task as it is, with no typed value — bounded, and counted in
result.json `answer_errors`. A valid answer's value is result.json `answer_value`.

The check runs off the event loop with a deadline, every pattern matched with a timeout, and a
schema it could not bound is refused when the task starts (guardrails/answer_schema.py).
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from typing import Any

from webfovea.guardrails.answer_schema import (
    CHECK_SECONDS,
    CheckTimeout,
    bounded_validator,
    compile_patterns,
    refuse_unsafe,
)
from webfovea.task import Task

MAX_INVALID = 3
MAX_ANSWER_CHARS = 200_000  # an answer longer than this is not parsed at all
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

        # A bad schema, or one the check could not bound, is the caller's error, at once.
        Draft202012Validator.check_schema(task.answer_schema)
        refuse_unsafe(task.answer_schema)
        compile_patterns(task.answer_schema)
        return cls(schema=task.answer_schema)

    @property
    def active(self) -> bool:
        return self.schema is not None

    async def check(self, answer: str, seconds: float = CHECK_SECONDS) -> tuple[Any, str | None]:
        """(the typed value, None) for a valid answer, else (None, what is wrong with it).
        Checked in a worker thread; past `seconds` the answer is refused as uncheckable."""
        assert self.schema is not None
        if len(answer) > MAX_ANSWER_CHARS:
            return None, f"the answer is longer than {MAX_ANSWER_CHARS:,} characters"
        work = asyncio.ensure_future(asyncio.to_thread(self._check, answer, seconds))
        work.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieved, even if abandoned
        try:  # the worker stops by itself at the deadline too (every match has its timeout)
            return await asyncio.wait_for(asyncio.shield(work), seconds + 1.0)
        except (TimeoutError, CheckTimeout):
            return None, (
                f"the answer could not be checked against the schema within {seconds:g} s "
                "(a pattern of the schema takes too long on it)"
            )

    def _check(self, answer: str, seconds: float) -> tuple[Any, str | None]:
        assert self.schema is not None
        text = answer.strip()
        fenced = _FENCE.match(text)
        try:
            value = json.loads(fenced.group(1) if fenced else text)
        except json.JSONDecodeError as e:
            return None, f"the answer is not JSON ({e.msg} at character {e.pos})"
        except RecursionError:
            return None, "the answer is nested too deeply"
        from jsonschema.exceptions import best_match

        try:
            error = best_match(bounded_validator(self.schema, seconds).iter_errors(value))
        except RecursionError:
            return None, "the answer is nested too deeply to check"
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path) or "the answer"
            return None, f"{where}: {error.message}"
        return value, None

    def refuse(self) -> bool:
        """Count one invalid answer; True while the model gets another try."""
        self.invalid += 1
        return self.invalid <= MAX_INVALID
