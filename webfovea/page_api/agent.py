"""`PageAgent`: `act`, `extract` and `observe` on a page you hold (docs/page-api.md).

Each call is one instruction on the page as it is now. It asks the model through the
harness's own input (`Harness.model_input`: system prompt, screenshot, the actions on offer)
and hands the reply to `Harness.step`, so what runs is what a task step runs — the same
parser, executor, guards, settle wait and feedback sentence. `extract` sets the harness's
answer gate to the call's schema for the call (guardrails/answer.py: the reply is checked
off the event loop with a deadline) and validates a Pydantic type's value once more.
`observe` parses the model's proposals with the harness's parser and names each target with
the feedback's element reader; nothing is executed. A call's history starts empty: the model
sees the instruction, not the earlier calls. Replies and values are cached by page state
(`cache.py`), so a second identical call on the same state asks no model.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar, overload

from playwright.async_api import Page
from pydantic import BaseModel, ValidationError

from webfovea.config import HarnessConfig
from webfovea.feedback.element import describe_at
from webfovea.guardrails.answer import AnswerGate
from webfovea.guardrails.breaker import LoopBreaker, ScrollBreaker
from webfovea.harness import Harness, Observation, StepResult
from webfovea.models.base import Model, ModelReply, ToolCall
from webfovea.models.conventions import grounding_space
from webfovea.observation.history import History
from webfovea.page_api import prompts
from webfovea.page_api.cache import CallCache, call_key, state_key
from webfovea.page_api.results import ActResult, ActStep, Candidate, ExtractError, PageApiError
from webfovea.task import Task, answer_schema_of

T = TypeVar("T", bound=BaseModel)

_RAN = ("executed", "no_effect")  # outcomes that acted on the page (as the workflow cache keeps)


class PageAgent:
    """`act` / `extract` / `observe` through one harness and one model. Build it with
    `await PageAgent.attach(page_or_harness, model=...)`; `aclose()` (or `async with`) releases
    what it built (never your page or your harness)."""

    def __init__(self, harness: Harness, model: Model, cache: CallCache, *, own_model: bool) -> None:
        self.harness = harness
        self.model = model
        self.cache = cache
        self.model_calls = 0  # calls made to the model by this agent
        self._own_model = own_model

    @classmethod
    async def attach(
        cls,
        page: Page | Harness,
        *,
        model: str | Model,
        config: HarnessConfig | None = None,
        cache: Path | str | None = None,
        base_url: str | None = None,
        model_options: dict[str, Any] | None = None,
    ) -> PageAgent:
        """An agent on `page` (a Playwright page: a harness is wrapped around it; or a started
        `Harness`, used as it is). `model`: a spec string (`openai:gpt-4o`, …) or a model object.
        `config`: the harness configuration for a Playwright page (default: the model's
        conventions row, docs/profiles.md). `cache`: a folder that keeps the cache across runs."""
        if isinstance(page, Harness):
            if config is not None:
                raise TypeError("config= is for a Playwright page; a Harness already has its config")
            harness = page
            if not getattr(harness, "_ready", False):
                raise PageApiError("start the harness first (`async with Harness.launch(...) as h`)")
        else:
            if config is None:
                from webfovea.observation.sizing import harness_config

                config = harness_config(model=model if isinstance(model, str) else None)
            space = grounding_space(model, config.coordinate_convention)
            if space != config.coordinate_convention:  # the model's row fixes its grid (Gemini)
                config = config.model_copy(update={"coordinate_convention": space})
            harness = await Harness.on_page(page, config)
        if isinstance(model, str):
            from webfovea.models.factory import make_model  # its clients load only when used

            mdl = make_model(
                model,
                page=harness.page,
                base_url=base_url,
                options=model_options,
                sampling=harness.config.sampling(),
            )
        else:
            mdl = model
        if not harness.config.vision_model:  # look/locate: a configured vision model stays theirs
            harness.use_vision(mdl)
        return cls(harness, mdl, CallCache(cache), own_model=isinstance(model, str))

    async def __aenter__(self) -> PageAgent:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._own_model:
            await self.model.aclose()

    # act ------------------------------------------------------------------------------------
    async def act(self, instruction: str | Candidate, *, steps: int = 1) -> ActResult:
        """Do one instruction: the model's actions (at most `steps`, until it calls finished),
        each executed by the harness. A `Candidate` from `observe` runs with no model call."""
        if steps < 1:
            raise ValueError(f"steps={steps}: at least 1")
        async with self._call() as obs:
            return await self._act(instruction, steps, obs)

    async def _act(self, instruction: str | Candidate, steps: int, obs: Observation) -> ActResult:
        state = state_key(obs, self.harness.config.observation)
        taken: list[ActStep]
        if isinstance(instruction, Candidate):
            if state != instruction.state:
                raise PageApiError("the page changed since observe proposed this action; observe again")
            taken = await self._run(
                [ModelReply(text=instruction.reply, tool_calls=list(instruction.calls or []))], obs
            )
            return ActResult(instruction.description, taken, cached=True)
        key = call_key("act", instruction, state) if state is not None else None
        entry = self.cache.get(key) if key is not None else None
        if entry is not None and key is not None:
            taken = await self._run([_reply_of(r) for r in entry["replies"]], obs)
            if not all(t.outcome in _RAN for t in taken):
                self.cache.drop(key)  # the cached replies no longer ran: the model decides next time
            return ActResult(instruction, taken, cached=True)
        replies: list[ModelReply] = []
        taken = []
        asked = self.model_calls
        for i in range(steps):
            if i > 0:
                await self.harness.observe()
            reply = await self._ask(prompts.act_task(instruction))
            res = await self.harness.step(reply.text, reply.tool_calls or None)
            if res.done:  # finished: at once (nothing to do) it is the one step; later, the end
                taken += [] if taken else [_step_of(res)]
                break
            replies.append(reply)
            taken.append(_step_of(res))
            if res.outcome not in _RAN:
                break
        result = ActResult(instruction, taken, model_calls=self.model_calls - asked)
        if key is not None and replies and result.ok:
            self.cache.put(
                key, {"kind": "act", "instruction": instruction, "replies": [_json(r) for r in replies]}
            )
        return result

    async def _run(self, replies: list[ModelReply], obs: Observation) -> list[ActStep]:
        taken: list[ActStep] = []
        for i, reply in enumerate(replies):
            if i > 0:
                await self.harness.observe()
            res = await self.harness.step(reply.text, reply.tool_calls or None)
            taken.append(_step_of(res))
            if res.outcome not in _RAN or res.done:
                break
        return taken

    # extract --------------------------------------------------------------------------------
    @overload
    async def extract(self, instruction: str, schema: type[T], *, tries: int = ...) -> T: ...
    @overload
    async def extract(self, instruction: str, schema: dict[str, Any], *, tries: int = ...) -> Any: ...
    async def extract(self, instruction: str, schema: type[T] | dict[str, Any], *, tries: int = 3) -> Any:
        """The value `instruction` asks for, read from the page and validated against `schema`
        (a JSON Schema, or a Pydantic type: an instance of it). ExtractError when the model's
        answers do not meet it after `tries` replies (each refusal is told to the model)."""
        if tries < 1:
            raise ValueError(f"tries={tries}: at least 1")
        pydantic_type = schema if isinstance(schema, type) and issubclass(schema, BaseModel) else None
        json_schema = answer_schema_of(pydantic_type) if pydantic_type is not None else schema
        if not isinstance(json_schema, dict):
            raise TypeError("schema= must be a JSON Schema (a dict) or a Pydantic model class")
        async with self._call() as obs:
            return await self._extract(instruction, json_schema, pydantic_type, tries, obs)

    async def _extract(
        self,
        instruction: str,
        json_schema: dict[str, Any],
        pydantic_type: type[BaseModel] | None,
        tries: int,
        obs: Observation,
    ) -> Any:
        task = Task(task_id="extract", task=instruction, website=obs.url, answer_schema=json_schema)
        gate = _gate(task)
        state = state_key(obs, self.harness.config.observation)
        key = call_key("extract", instruction, state, json_schema) if state is not None else None
        entry = self.cache.get(key) if key is not None else None
        if entry is not None:
            return _typed(entry["value"], pydantic_type)
        value, found = await self._read(task, gate, tries)
        typed = _typed(value, pydantic_type)  # validated first: an invalid value is never cached
        if key is not None and found:
            self.cache.put(key, {"kind": "extract", "instruction": instruction, "value": value})
        return typed

    async def _read(self, task: Task, gate: AnswerGate, tries: int) -> tuple[Any, bool]:
        h, problem = self.harness, None
        h.answers = gate  # the harness's own is put back when the call ends (_call)
        for i in range(tries):
            if i > 0:
                await h.observe()
            reply = await self._ask(prompts.extract_task(task.instruction()))
            res = await h.step(reply.text, reply.tool_calls or None)
            if res.answer_invalid is not None:
                problem = res.answer_invalid
            elif res.done:
                return res.answer_value, True
            elif res.error:
                problem = res.error
        raise ExtractError(
            f"extract {task.task!r}: no answer met the schema in {tries} replies"
            + (f"; the last: {problem}" if problem else ""),
            problem,
        )

    # observe --------------------------------------------------------------------------------
    async def observe(self, instruction: str, *, limit: int = 5) -> list[Candidate]:
        """Actions the model proposes for `instruction`, described with their targets; nothing
        is executed and the page is left as it was."""
        if limit < 1:
            raise ValueError(f"limit={limit}: at least 1")
        async with self._call() as obs:
            return await self._observe(instruction, limit, obs)

    async def _observe(self, instruction: str, limit: int, obs: Observation) -> list[Candidate]:
        state = state_key(obs, self.harness.config.observation)
        key = call_key("observe", instruction, state, limit) if state is not None else None
        entry = self.cache.get(key) if key is not None else None
        reply = (
            _reply_of(entry["reply"])
            if entry is not None
            else await self._ask(prompts.observe_task(instruction, limit))
        )
        found = [
            await self._candidate(text, calls, obs, state)
            for text, calls in prompts.observed_calls(reply, limit)
        ]
        candidates = [c for c in found if c is not None]
        if key is not None and entry is None and candidates:
            self.cache.put(key, {"kind": "observe", "instruction": instruction, "reply": _json(reply)})
        return candidates

    async def _candidate(
        self, text: str, calls: list[ToolCall] | None, obs: Observation, state: str | None
    ) -> Candidate | None:
        parsed = self.harness.parse(text, calls)  # no side effect: read as a step would read it
        action = parsed.action
        if action is None or parsed.rejection is not None:
            return None
        point = None
        box = action.args.get("start_box")
        if isinstance(box, (list, tuple)) and len(box) == 2:
            point = obs.shot.to_css(float(box[0]), float(box[1]))
            info = await describe_at(self.harness.page, *point)
            description = info.sentence((float(box[0]), float(box[1])))
        elif action.args.get("ref"):
            description = f"the element {action.args['ref']} of the page's snapshot"
        else:
            description = "no element: an action on the page as a whole"
        return Candidate(
            description=description,
            action=str(action),
            name=action.name,
            args=dict(action.args),
            point=point,
            reply=text,
            calls=calls,
            state=state,
        )

    # shared ---------------------------------------------------------------------------------
    @asynccontextmanager
    async def _call(self) -> AsyncIterator[Observation]:
        """One call's own start: no history, no pending feedback, fresh breakers, no answer
        schema; the page as it is now. What a harness held before (a task a script runs on it)
        is put back when the call ends."""
        h = self.harness
        held = (h.history, h.last_feedback, h.breaker, h.loops, h.answers)
        h.history = History(h.config.screenshot_window)
        h.last_feedback = None
        h.breaker, h.loops, h.answers = ScrollBreaker(h.config), LoopBreaker(h.config), AnswerGate()
        try:
            yield await h.observe()
        finally:
            h.history, h.last_feedback, h.breaker, h.loops, h.answers = held

    async def _ask(self, task_text: str) -> ModelReply:
        reply = await self.model.next_reply(self.harness.model_input(task_text))
        self.model_calls += 1
        if reply.cut_off is not None:
            raise PageApiError(f"the model's reply was cut off ({reply.cut_off}); nothing ran")
        return reply


def _step_of(res: StepResult) -> ActStep:
    point = res.executed.outcome.point if res.executed is not None else None
    return ActStep(
        action=str(res.action) if res.action is not None else "",
        name=res.action.name if res.action is not None else "",
        outcome="executed" if res.done else res.outcome,
        feedback=res.feedback or res.error or "",
        point=(float(point[0]), float(point[1])) if point is not None else None,
    )


def _gate(task: Task) -> AnswerGate:
    """The answer gate for the call's schema; a schema it cannot check is refused at once."""
    from jsonschema.exceptions import SchemaError

    try:
        return AnswerGate.for_task(task)
    except SchemaError as e:
        raise ValueError(f"schema= is not a valid JSON Schema: {e.message}") from None


def _typed(value: Any, pydantic_type: type[T] | None) -> Any:
    if pydantic_type is None:
        return value
    try:
        return pydantic_type.model_validate(value)
    except ValidationError as e:
        problem = "; ".join(f"{'.'.join(map(str, x['loc'])) or 'value'}: {x['msg']}" for x in e.errors())
        raise ExtractError(
            f"the value does not validate as {pydantic_type.__name__}: {problem}", problem
        ) from None


def _json(reply: ModelReply) -> dict[str, Any]:
    return {
        "text": reply.text,
        "tool_calls": [{"id": c.id, "name": c.name, "input": c.input} for c in reply.tool_calls],
    }


def _reply_of(data: dict[str, Any]) -> ModelReply:
    calls = [ToolCall(str(c["id"]), str(c["name"]), dict(c["input"])) for c in data.get("tool_calls") or []]
    return ModelReply(text=str(data.get("text") or ""), tool_calls=calls)
