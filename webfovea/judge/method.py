"""The shape of one judge method: everything `webfovea judge run` needs to know about it.

A method is one `JudgeMethod` record — its name, the prompt that identifies it in the cache,
whether it is shown every screenshot, whether it asks a judge model, and the coroutine that
turns one task's evidence into a `Judged` — registered in `judge/catalog.py`. `judge/run.py`
reads these fields instead of testing a method's name.
"""

from __future__ import annotations

import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from webfovea.judge.client import Part
from webfovea.judge.evidence import Evidence
from webfovea.judge.folder import AgentRecord
from webfovea.judge.verdict import Verdict
from webfovea.models.base import ModelReply
from webfovea.task import Task

__all__ = ["JudgeCall", "JudgeMethod", "JudgeModel", "Judged"]


class JudgeModel(Protocol):
    async def ask(self, task_id: str, system: str, parts: list[Part]) -> ModelReply: ...


@dataclass
class Judged:
    """One task's outcome: the verdict or `None` with the error, every raw reply, the usage."""

    verdict: Verdict | None = None
    error: str | None = None
    unparsed: bool = False  # the model replied, but no verdict could be read from the reply
    calls: list[dict[str, Any]] = field(default_factory=list)  # {stage, raw_reply, usage}
    latency_s: float = 0.0

    def usage(self) -> dict[str, int]:
        return {
            "prompt_tokens": sum(c["usage"].get("prompt_tokens", 0) for c in self.calls),
            "completion_tokens": sum(c["usage"].get("completion_tokens", 0) for c in self.calls),
            "calls": len(self.calls),
        }


@dataclass(frozen=True)
class JudgeCall:
    """What a method is given for one task folder."""

    evidence: Evidence  # the filtered, budgeted evidence (judge/evidence.py)
    record: AgentRecord  # the folder as read (judge/folder.py)
    protocol: str  # I, II or III
    model: JudgeModel | None = None  # the judge model, for methods with `model=True`
    task: Task | None = None  # the run's tasks.json entry (declared predicates, expected answer)
    images: list[tuple[str, bytes]] = field(default_factory=list)  # every screenshot, for `images=True`


Judge = Callable[[JudgeCall], Awaitable[Judged]]


@dataclass(frozen=True)
class JudgeMethod:
    name: str  # --method NAME
    help: str  # one line for `webfovea judge run --help`
    prompt: str  # the text that identifies how it judges (hashed into the cache key and the digest)
    judge: Judge
    model: bool = True  # asks a judge model: needs --judge, its verdicts are cached
    images: bool = False  # is shown every screenshot in step order (WebJudge), not only the last
    # The request filter it reads the capture through, whatever --filter says (NavEval as
    # published: its own pipeline); None: the run's --filter.
    filter: str | None = None
    # Fields of the folder's `AgentRecord` it reads beyond the evidence (AgentTrek Eval: the
    # `thoughts`; WebVoyager: the `answer` in every protocol): hashed into the cache key, so a
    # changed thought or answer is judged again.
    reads: tuple[str, ...] = ()

    @property
    def prompt_id(self) -> str:
        return hashlib.sha256(self.prompt.encode()).hexdigest()[:16]
