"""The agent loop: observe -> model -> parse -> execute -> feedback -> record, inside budgets.

`run_task` runs ONE task and writes its folder. The loop only asks the model; the task driver
(`webfovea.driving`) owns the rest — budgets, step accounting, tool timeouts, how the task
ended, the records on every exit path and the clean-up — as it does for the MCP server.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webfovea.browser.session import BrowserSession
from webfovea.cache import WorkflowCache
from webfovea.config import HarnessConfig
from webfovea.driving.driver import BrowserSource, DriverSettings, TaskDriver
from webfovea.feedback import notes
from webfovea.harness import Harness
from webfovea.models.base import CUT_OFF_NOTE, Model, ModelError, ModelInput, cut_off_of
from webfovea.models.conventions import grounding_space
from webfovea.models.routes import summary_is_rule
from webfovea.observation import compress
from webfovea.record.schema import StepRecord, TaskResult
from webfovea.routing.router import StepRouter
from webfovea.routing.table import StepRoute, load_table
from webfovea.task import Task

__all__ = ["run_task"]

MAX_EMPTY_REPLIES = 3  # an empty reply is retried after a back-off; this many in a row is a model error
# A cut-off reply is recorded, not executed, and asked again with more room; after this many
# in a row the model cannot finish a reply within its limit: a model error.
MAX_CUT_OFF_REPLIES = 3


async def run_task(  # noqa: PLR0913 -- public API; its settings go to the task driver (DriverSettings)
    task: Task,
    task_dir: Path,
    *,
    model: str | Model,
    config: HarnessConfig,
    session: BrowserSession | None = None,
    cdp_url: str | None = None,
    model_options: dict[str, Any] | None = None,
    capture: bool = True,
    on_step: Callable[[StepRecord], None] | None = None,
    base_url: str | None = None,
    offline: bool | None = None,
    cache: Path | str | None = None,
    headless: bool = True,
) -> TaskResult:
    """Run one task and write its folder. `offline` applies when the browser is launched here
    (default: $WEBFOVEA_OFFLINE; real websites are reachable unless it is set). `cache`: a
    workflow cache folder — the task's cached steps are replayed without a model call while
    the page matches, and a run that finishes rewrites them (webfovea/cache/). `headless=False`:
    a browser launched here shows its window. A model whose conventions row fixes its grid
    (Gemini's 0-999) has its points read on that grid whatever `config` says."""
    options = dict(model_options or {})
    space = grounding_space(model, config.coordinate_convention)
    if space != config.coordinate_convention:  # the model's row fixes its grid (Gemini's 0-999)
        config = config.model_copy(update={"coordinate_convention": space})
    base_url = base_url or options.pop("base_url", None)  # runners pass it with the options
    settings = DriverSettings(
        config,
        model if isinstance(model, str) else type(model).__name__,
        BrowserSource(cdp_url, headless=headless, offline=offline, session=session),
        capture=capture,
        on_step=on_step,
        cache_dir=Path(cache) if cache is not None else None,
    )
    driver = TaskDriver(task, Path(task_dir), settings)
    async with driver.running():
        h = await driver.open()
        async with driver.wall_clock():  # the first navigation counts against the task's time too
            await driver.goto_start()
            mdl = _task_model(driver, h, model, ModelSpec(base_url, options or None))
            workflow = WorkflowCache(settings.cache_dir, driver) if settings.cache_dir else None
            router = _router(driver)
            await _loop(driver, h, mdl, workflow, router)
            if workflow is not None:
                workflow.finish(driver)
    return driver.result


@dataclass(frozen=True)
class ModelSpec:
    """How a model named by a spec string is reached (base URL, client options)."""

    base_url: str | None
    options: dict[str, Any] | None


def _task_model(driver: TaskDriver, h: Harness, model: str | Model, spec: ModelSpec) -> Model:
    """The task's model (built from its spec string, or the one given) and where look/locate go."""
    from webfovea.models.factory import make_model  # its clients load only when a task runs

    task, config = driver.task, driver.config
    if isinstance(model, str):
        mdl = make_model(
            model,
            task=task,
            page=driver.page,
            base_url=spec.base_url,
            options=spec.options,
            sampling=config.sampling(),
        )
    else:
        mdl = model
    driver.use_model(mdl, own=isinstance(model, str))
    if config.vision_model:  # look/locate go to a second real client
        vision = make_model(
            config.vision_model,
            task=task,
            page=driver.page,
            base_url=config.vision_base_url,
            sampling=config.sampling(),  # seed 002: one setting for both models
        )
        driver.own(vision)
        h.use_vision(vision, label=config.vision_model, separate=True)
    else:
        h.use_vision(mdl)
    if h.verifier.active and h.verifier.model is None:  # no --verifier: the task's model, a fresh call
        h.verifier.use(mdl, label="task model", separate=False)
    if config.summary_model and not summary_is_rule(config):  # the summarise role's own model
        summariser = make_model(
            config.summary_model,
            task=task,
            page=driver.page,
            base_url=config.summary_base_url,
            sampling=config.sampling(),
        )
        driver.own(summariser)
        driver.summariser = summariser
    return mdl


def _router(driver: TaskDriver) -> StepRouter | None:
    """The step router of the config's routing table (None: the task's model takes every step).
    A model route's model is made on first use, like the task's, and closed with the task."""
    config = driver.config
    if not config.step_routes:
        return None
    from webfovea.models.factory import make_model

    def make(route: StepRoute) -> Model:
        assert route.model is not None
        m = make_model(
            route.model,
            task=driver.task,
            page=driver.page,
            base_url=route.base_url or None,
            sampling=config.sampling(),
        )
        driver.own(m)
        return m

    return StepRouter(load_table(config.step_routes), config.templates, make)


async def _loop(
    driver: TaskDriver,
    h: Harness,
    mdl: Model,
    workflow: WorkflowCache | None = None,
    router: StepRouter | None = None,
) -> None:
    """Observe, ask the model (or the workflow cache, while its steps still match the page),
    hand the reply to the driver, until the driver ends the task. With a step router, a route
    may name another model for the step, or take it with a routine (no model call)."""
    empty = cut = 0
    while not driver.out_of_steps():
        obs = await driver.observe()
        if workflow is not None and (plan := await workflow.plan(h, driver.steps)) is not None:
            await workflow.step(driver, plan.reply, plan=plan)
            if driver.ended:
                return
            continue
        if driver.at_spend_cap():  # the spend recorded so far; a cached step above costs nothing
            return
        decision = None
        if router is not None:
            steps_left = driver.config.max_steps - driver.steps
            decision = await router.decide(h, router.known(driver.steps, steps_left, obs.url))
            if decision.reply is not None:  # a routine took the step: its reply goes the same way
                res = await driver.step(decision.reply, route=decision.to_json())
                router.after(decision, res, h, driver.task.task)
                if driver.ended:
                    return
                continue
        model = (router.model_of(decision) if router and decision else None) or mdl
        route = decision.to_json() if decision is not None else None
        inp, compression = await _model_input(driver, h, model)
        reply = await model.next_reply(inp)
        driver.count(reply.usage)
        if reply.cut_off is not None:  # checked first: a cut reply may hold half a call, or nothing
            cut += 1
            if cut > MAX_CUT_OFF_REPLIES:
                raise ModelError(f"the model's reply was cut off {cut} times in a row ({reply.cut_off})")
            if cut_off_of(reply.notes) is None:  # recorded, so a replay withholds it too
                reply.notes.append(CUT_OFF_NOTE + reply.cut_off)
            res = await driver.step(reply, compression, withheld=notes.cut_off(reply.cut_off), route=route)
            if router is not None and decision is not None:
                router.after(decision, res)
            if driver.ended:
                return
            continue
        cut = 0
        # `content: null` and no tool call: the model said nothing. A reply that is only a
        # tool call (Claude with tools, OpenAI's computer_call) is a reply.
        if not (reply.text or "").strip() and not reply.tool_calls:
            empty += 1
            if empty >= MAX_EMPTY_REPLIES:
                raise ModelError(f"the model returned an empty reply {empty} times in a row")
            await asyncio.sleep(min(2.0**empty, 10.0))
            continue
        empty = 0
        if router is not None:
            await router.before(h, reply)
        res = await (
            driver.step(reply, compression, route=route)
            if workflow is None
            else workflow.step(driver, reply, compression)
        )
        if router is not None and decision is not None:
            router.after(decision, res, h, driver.task.task)
        if driver.ended:
            return


async def _model_input(
    driver: TaskDriver, h: Harness, mdl: Model
) -> tuple[ModelInput, dict[str, Any] | None]:
    """The model's input, with the history compressed first when it is due."""
    inp = h.model_input(driver.instruction())
    if not compress.is_due(inp, driver.config):
        return inp, None
    # The summarise route (models/routes.py): its own model, the rule (no call), else the task's.
    summariser = None if summary_is_rule(driver.config) else (driver.summariser or mdl)
    compression = await compress.compress(h.history, inp, summariser, driver.config)
    if compression.call_usage is not None:  # a separate summary model counts apart, as vision does
        (driver.summary_usage if driver.summariser is not None else driver.usage).add(compression.call_usage)
    return h.model_input(driver.instruction()), compression.to_json()
