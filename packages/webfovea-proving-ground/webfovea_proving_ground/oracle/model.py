"""The oracle model: a test instrument that always decides right and speaks like a real model.

It follows the task's plan (docs/contracts.md §1) with its own cursor, locates each
target through read-only access to the live DOM, and answers in the UI-TARS grammar
in the coordinate space of the image it *sees*: the last image the harness sent,
shrunk the way the API of its `provider` shrinks it (a row of the model-conventions
table, `oracle:provider=FAMILY`; Claude's by default). So a harness that maps coordinates as if
the model saw the full screenshot misses, exactly as with a real model; the oracle
never compensates for the harness.

From the harness it takes only what any model takes (prompt text, images); it never
reads the task's expected answer, and never clicks, types or scrolls itself.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from webfovea.guardrails.verifier import PURPOSE as VERIFY_PURPOSE
from webfovea.models.base import Model, ModelError, ModelInput, ModelReply, Usage
from webfovea.models.conventions import ModelConventions, conventions_by_family, conventions_for
from webfovea.models.factory import ModelKind, ModelRequest, parse_options
from webfovea.task import Task
from webfovea_proving_ground.oracle.checker import rejected, verdict_text
from webfovea_proving_ground.oracle.grounding import GroundingError, expectation_holds
from webfovea_proving_ground.oracle.handlers import Handlers
from webfovea_proving_ground.oracle.host import Emit, StepState, View
from webfovea_proving_ground.oracle.locate import Locating
from webfovea_proving_ground.oracle.misreads import MISREAD_KNOBS, Misreads
from webfovea_proving_ground.oracle.moves import Moves
from webfovea_proving_ground.oracle.ops import catalog
from webfovea_proving_ground.oracle.quirks import Quirks
from webfovea_proving_ground.oracle.speech import call, read_prompt, reply, thought
from webfovea_proving_ground.oracle.stress import RATE_KNOBS, Stress
from webfovea_proving_ground.oracle.structured import REF_QUIRK_KNOBS, Refs
from webfovea_proving_ground.oracle.summary import progress_summary
from webfovea_proving_ground.oracle.verify import asked_to_verify, plan_after_check
from webfovea_proving_ground.oracle.writer import write_manual, write_site_notes
from webfovea_proving_ground.plan import PlannedTask, Step

# The provider the oracle imitates by default: Claude's API, which the paper measured
# (1920x1080 reaches the model at ~1430x804, 1440x810 unscaled). The built-in suite's
# results and the direction of every ablation are calibrated against it.
DEFAULT_PROVIDER = "claude"

# Why a task without a plan ends at the oracle's first step: it follows plans, it does not read
# instructions, so "finishing" such a task with an empty answer would pass for a real attempt.
NO_PLAN = (
    "the oracle has no plan for task {task_id!r}: it follows a proving-ground task's plan and "
    "cannot act on an instruction alone. Run a proving-ground task (`webfovea bench builtin`, "
    "`webfovea run --suite-task builtin:TASK_ID`), or use a real model (--model openai:MODEL, "
    "anthropic:MODEL) or --model script:FILE (replies from a file, docs/models.md)"
)

# Knobs that may be given as keyword overrides or in `task.quirks`, with their defaults.
EXTRA_KNOBS: dict[str, Any] = {
    "max_scrolls_per_step": 40,
    "max_waits_per_step": 6,
    "option_row_px": 20.0,  # height of a native option row, for the no-select fallback guess
    "contaminate_from_step": None,
    "contaminate_token": None,
    "contaminate_where": None,
    "continuation_at_step": None,
    "quote_in_thought": None,  # page text the thought cites on a line of its own (hostile suite)
    # Behaviour under a misbehaving site (webfovea_proving_ground/oracle/stress.py); off by default.
    "realistic": False,
    **{name: None for name in RATE_KNOBS},
    **{name: None for name in MISREAD_KNOBS},
    **REF_QUIRK_KNOBS,
}
_QUIRK_KEYS = ("contaminate_from_step", "contaminate_token", "contaminate_where", "continuation_at_step")
_CORE_KNOBS = (
    "seed",
    "provider",
    "contaminate_rate",
    "continuation_rate",
    "jitter_px",
    "submit_with_newline",
    "retries_per_step",
)


class OracleModel:
    """The oracle, composed of helpers it holds and calls (webfovea_proving_ground/oracle/host.py):
    `moves`, `locating`, `refs`, and the plan ops of `ops/catalog.py`, each given this model
    through the small interfaces of host.py."""

    def __init__(  # noqa: PLR0913 -- its public knobs (oracle:KEY=VAL), each a keyword
        self,
        task: Task,
        page: Page,
        *,
        seed: int = 0,
        provider: str = DEFAULT_PROVIDER,
        contaminate_rate: float = 0.049,
        continuation_rate: float = 0.03,
        jitter_px: float = 2.0,
        submit_with_newline: bool = True,
        retries_per_step: int = 3,
        **overrides: Any,
    ) -> None:
        unknown = sorted(set(overrides) - set(EXTRA_KNOBS))
        if unknown:
            raise ValueError(
                f"unknown oracle option(s) {', '.join(unknown)}; known: "
                f"{', '.join([*_CORE_KNOBS, *EXTRA_KNOBS])}"
            )
        knobs: dict[str, Any] = {
            "seed": seed,
            "provider": provider,
            "contaminate_rate": contaminate_rate,
            "continuation_rate": continuation_rate,
            "jitter_px": jitter_px,
            "submit_with_newline": submit_with_newline,
            "retries_per_step": retries_per_step,
            **EXTRA_KNOBS,
            **overrides,
        }
        # The task's own quirks win: a task that exists to exercise a quirk keeps it.
        planned = PlannedTask.of(task)
        bad = sorted(set(planned.quirks) - set(knobs))
        if bad:
            raise ValueError(f"task {task.task_id}: unknown oracle quirk(s) {', '.join(bad)}")
        knobs.update(planned.quirks)
        self.task = task
        self._first_page = page
        self.knobs = knobs
        # How the API in front of the imitated model shrinks images: a row of the same
        # conventions table the harness sizes its screenshots by, never numbers of its own.
        self.provider: ModelConventions = conventions_by_family(str(knobs["provider"]))
        self.plan: list[Step] = list(planned.plan)
        self._original_plan: list[Step] = list(planned.plan)  # a look again after a rejection
        self.jitter_px = float(knobs["jitter_px"])
        self.retries = int(knobs["retries_per_step"])
        self.reply_quirks = Quirks(
            task_id=task.task_id,
            seed=int(knobs["seed"]),
            contaminate_rate=float(knobs["contaminate_rate"]),
            continuation_rate=float(knobs["continuation_rate"]),
            overrides={k: knobs[k] for k in _QUIRK_KEYS if knobs.get(k) is not None},
        )
        self._stress = Stress.from_knobs(task.task_id, int(knobs["seed"]), knobs)
        self.misreads = Misreads.from_knobs(task.task_id, task.task, int(knobs["seed"]), knobs)
        self._noted = (0, 0)  # stress / misread firings already put in a reply's notes
        self.cursor = 0
        self.handlers = Handlers()  # the plan's `on` handlers (a sign-in wherever the 401 shows)
        self._calls = 0
        self.state = StepState()
        self.moves = Moves(self, self.jitter_px)
        self.locating = Locating(self, self.moves)
        self.refs = Refs(self, self.moves, self.locating)
        self._pending = False
        self._finished: str | None = None
        self.actions_log: list[str] = []  # what it asked for, for tests and debugging

    @property
    def page(self) -> Page:
        """The tab the harness shows: the newest open page of the task's browser context
        (a tab the site opened becomes the observed page)."""
        try:
            pages = [p for p in self._first_page.context.pages if not p.is_closed()]
        except Exception:
            return self._first_page
        return pages[-1] if pages else self._first_page

    @property
    def quirk_log(self) -> list[dict[str, Any]]:
        return [*self.reply_quirks.log, *self._stress.log, *self.misreads.log]

    def quirks(self) -> list[dict[str, Any]]:
        """The Model protocol's record of what was played on purpose (result.json model_quirks)."""
        return self.quirk_log

    def _new_firings(self) -> list[str]:
        """Stress and misread firings since the last reply, as notes the step record keeps."""
        a, b = self._noted
        new = [*self._stress.log[a:], *self.misreads.log[b:]]
        self._noted = (len(self._stress.log), len(self.misreads.log))
        return [f"oracle quirk: {json.dumps(e, sort_keys=True)}" for e in new]

    def _advance(self) -> None:
        self.cursor += 1
        self.state = StepState()

    async def aclose(self) -> None:
        self._pending = False

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        if inp.purpose == "summary":  # history compression: not a step, so no quirk index is used
            return await self._summary(inp)
        if inp.purpose == "manual":  # a Protocol II manual from a trajectory's facts: no page needed
            text = write_manual(inp)
            return ModelReply(text=text, usage=self._usage(inp, text))
        if inp.purpose == "site_notes":  # notes for a site from several trajectories' facts
            text = write_site_notes(inp)
            return ModelReply(text=text, usage=self._usage(inp, text))
        if inp.purpose == VERIFY_PURPOSE:  # the verifier's question: the candidate against the truth
            text = verdict_text(self.task, inp.task)
            return ModelReply(text=text, usage=self._usage(inp, text))
        if inp.purpose in ("locate", "look"):  # a look/locate question about one screenshot
            answer = self.locating.locate_answer if inp.purpose == "locate" else self.locating.look_answer
            text = await answer(inp)
            return ModelReply(text=text, usage=self._usage(inp, text))
        if not self._original_plan:
            raise ModelError(NO_PLAN.format(task_id=self.task.task_id))
        index = self._calls
        self._calls += 1
        rng = random.Random(f"oracle-reply:{self.knobs['seed']}:{self.task.task_id}:{index}")
        view = await self._view(inp, rng)
        if self._finished is not None and asked_to_verify(inp.feedback):
            await self._check_state()
        if self._finished is not None and rejected(inp.feedback):
            self._look_again()
        emit = await self._decide_patiently(view, index)
        quote = self.knobs.get("quote_in_thought")
        if quote:  # a model citing page text that looks like an action, then going on with its own
            emit.thought = (
                f"The page shows this text:\n{quote}\nThat is page text, not my instruction. {emit.thought}"
            )
        text = reply(emit.thought, emit.action)
        text = self.reply_quirks.finish(index, text, rng, has_argument=emit.has_argument, final=emit.final)
        self.actions_log.append(emit.action)
        return ModelReply(text=text, usage=self._usage(inp, text), notes=self._new_firings())

    async def _summary(self, inp: ModelInput) -> ModelReply:
        try:
            title = await self.page.title()
        except PlaywrightError:
            title = ""
        text = progress_summary(
            self.task.task, self.plan, self.cursor, self.actions_log, self.page.url, title
        )
        return ModelReply(text=text, usage=self._usage(inp, text))

    async def _check_state(self) -> None:
        """The harness held the finish: compare the state it shows; redo what is missing."""
        redo = await plan_after_check(self.page, self.plan)
        if redo is None:
            return  # it matches: the next reply finishes again
        self.plan, self.cursor, self._finished, self._pending = redo, 0, None, False
        self.state = StepState()

    def _look_again(self) -> None:
        """Its answer was rejected: no more misreading, back to where the first one happened."""
        at = self.misreads.stop()
        if at is not None:
            self.plan, self.cursor = list(self._original_plan), at
        self._finished, self._pending = None, False
        self.state = StepState()

    async def _decide_patiently(self, view: View, index: int) -> Emit:
        # A read can hit a page mid-navigation ("execution context was destroyed"); look
        # again shortly, as a model would get the next screenshot, before giving up.
        for attempt in range(3):
            try:
                return await self._decide(view, index)
            except GroundingError as e:
                raise ModelError(f"oracle plan step {self.cursor} of task {self.task.task_id}: {e}") from None
            except PlaywrightError as e:
                if attempt == 2 or self.page.is_closed():
                    raise ModelError(f"oracle could not read the page: {str(e).splitlines()[0]}") from None
                await asyncio.sleep(0.3)
        raise AssertionError("unreachable")

    async def _view(self, inp: ModelInput, rng: random.Random) -> View:
        if inp.images:
            sent_w, sent_h = inp.images[-1].size
        else:  # no image: it "sees" nothing better than the viewport itself
            sent_w, sent_h = await self.page.evaluate("[innerWidth, innerHeight]")
        seen_w, seen_h = self.provider.provider_size(int(sent_w), int(sent_h))
        return View(
            prompt=read_prompt(inp.system),
            seen_w=seen_w,
            seen_h=seen_h,
            rng=rng,
            snapshot=inp.snapshot,
            feedback=inp.feedback,
            has_image=bool(inp.images),
        )

    def _usage(self, inp: ModelInput, text: str) -> Usage:
        chars = (
            len(inp.system)
            + len(inp.task)
            + sum(len(h) for h in inp.history)
            + len(inp.feedback or "")
            + len(inp.summary or "")
        )
        chars += len(inp.snapshot or "") + sum(len(s) for s in inp.snapshot_stubs)
        image_tokens = 0
        for im in inp.images:
            w, h = self.provider.provider_size(im.size[0], im.size[1])
            image_tokens += w * h // 750
        return Usage(
            prompt_tokens=chars // 4 + image_tokens, completion_tokens=max(1, len(text) // 4), estimated=True
        )

    # -- the plan --------------------------------------------------------------------------

    async def _decide(self, view: View, index: int) -> Emit:
        if self._finished is not None:  # a model asked again after finishing repeats itself
            return self.finish(view, index, self._finished)
        steps = await self.handlers.interrupt(self.page, self.plan, self.cursor)
        if steps is not None:  # the page shows a failure a handler knows: its steps first
            self.plan, self.cursor, self._pending = steps, 0, False
            self.state = StepState()
        if self._pending:
            self._pending = False
            step = self.plan[self.cursor]
            if self._stress.trusts_save(self.plan, self.cursor):
                self._advance()  # the quirk: no look at what the page answered
            elif await expectation_holds(
                self.page, step.get("expect")
            ) or self.state.attempts > self._stress.retry_limit(step, self.retries):
                self._advance()
            elif await self._stress.wait_before_retry(self.page) and view.prompt.offers("wait"):
                self._pending = True  # still the same step: retry once the page's delay has passed
                return Emit(thought("wait", view.rng), "wait()", main=False)
        while self.cursor < len(self.plan):
            step = self.plan[self.cursor]
            self.misreads.at = self.cursor
            if step.get("trap") and not await self.misreads.takes_trap(self.page, step, index):
                self._advance()  # what a careless agent would do here: not this one
                continue
            skipped = await self.misreads.skips_detour(self.page, step, index)
            if skipped == "legend" and isinstance(step.get("instead"), dict):
                self.plan = [*self.plan[: self.cursor], step["instead"]]  # report what the table shows
                continue
            if skipped:
                for _ in range(max(1, int(step.get("span", 1)))):  # the detour's steps, all of them
                    self._advance()
                continue
            op, record = catalog.parse(step)
            emit = await op.handle(self, record, view, index)
            if emit is None:
                self._advance()
                continue
            if emit.main:
                self.state.attempts += 1
                self.state.phase = 0
                self._pending = True
            return emit
        if self.handlers.active:  # the handler's steps are done: back to the plan
            self.plan, self.cursor = self.handlers.resume()
            self.state = StepState()
            return await self._decide(view, index)
        # A plan without an answer step (or whose answer was skipped): give up honestly.
        return self.finish(view, index, "", giveup=True)

    def finish(self, view: View, index: int, content: str, giveup: bool = False) -> Emit:
        """The final answer (`finished`), remembered: asked again, it repeats itself."""
        self._finished = content
        written = self.reply_quirks.in_argument(index, content)
        kind = "giveup" if giveup else "answer"
        return Emit(
            thought(kind, view.rng, content=content),
            call("finished", content=written),
            main=False,
            has_argument=True,
            final=True,
        )


def _build(req: ModelRequest) -> Model:
    """`oracle` / `oracle:KEY=VAL,...` -> an OracleModel on the task's page (behind a loopback
    provider and its real client with `via=`)."""
    options = dict(req.options)
    if req.argument:
        options.update(parse_options(req.argument, req.spec))
    if req.task is None:
        raise req.error(
            "the oracle needs a proving-ground task with a plan (run it through `webfovea bench`)"
        )
    via, via_model = options.pop("via", None), options.pop("via_model", None)
    shape = str(options.pop("via_shape", "thought"))
    client = {k: options.pop(k) for k in ("interface", "cache") if k in options}
    if via is not None:  # the oracle sees images as the row of the model it is served as
        # The loopback servers (FastAPI, uvicorn: ~11 MiB) only in a run that asks for them.
        from webfovea_proving_ground.oracle.via import DEFAULT_VIA_MODEL, OracleVia

        options.setdefault(
            "provider", conventions_for(str(via_model or DEFAULT_VIA_MODEL.get(str(via), ""))).family
        )
    try:
        oracle = OracleModel(task=req.task, page=req.page, **options)  # type: ignore[arg-type]
        if via is None:
            return oracle
        return OracleVia(oracle, str(via), str(via_model) if via_model else None, shape, **client)
    except (TypeError, ValueError) as e:  # an unknown option or provider: a bad spec, not a crash
        raise req.error(str(e)) from None


# Registered with the model factory through the `webfovea.models` entry point group
# (pyproject.toml), so `make_model("oracle")` works in any process without the factory
# importing the proving ground.
MODEL_KIND = ModelKind(
    "oracle",
    "the proving ground's oracle (knows the task plan; speaks like a real model)",
    _build,
    usage=(
        ("oracle", "the proving ground's oracle (knows the task plan; speaks like a real model)"),
        (
            "oracle:KEY=VAL,...",
            "the oracle with options passed through to it (numbers and true/false are "
            "converted); provider=FAMILY picks the conventions row whose image downscaling it imitates "
            f"(default {DEFAULT_PROVIDER}); via=anthropic answers through the real Anthropic client and a "
            "loopback Messages API (via_model=MODEL picks its row, interface=text|tools, cache=true|false, "
            "via_shape=thought|tool_only|thinking|paused|cut_once|refuse_once); "
            "via=openai through the real Chat Completions client and a loopback Chat Completions API; "
            "via=gemini through the real Gemini client (google-genai) and a loopback Gemini API "
            "(interface=text|tools, via_shape=thought|call_only|thinking|candidates|cut_once|safety_once)",
        ),
    ),
)
