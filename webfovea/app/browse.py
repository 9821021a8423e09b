"""The one-line agent: `await webfovea.browse("Find …", url=…, model=…)`.

One task from an instruction and a start URL to a small typed result — the answer, its typed
value, the status, the task folder, steps, seconds, tokens and cost — with every option of
`webfovea.agent.run_task` and of the harness configuration as a keyword. `webfovea run "…" --url
URL --model SPEC` is the same call on the command line (cli/main.py calls it).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from pydantic import BaseModel

from webfovea.app.errors import AppError, config_error
from webfovea.config import HarnessConfig
from webfovea.guardrails.spend import PriceError, SpendCap, price_table
from webfovea.record.schema import Status, StepRecord, TaskResult
from webfovea.task import Task

if TYPE_CHECKING:
    from webfovea.browser.session import BrowserSession
    from webfovea.models.base import Model

__all__ = ["BrowseResult", "browse", "browse_sync", "default_task_dir"]

RUNS_ROOT = Path("runs") / "browse"  # default task folders: runs/browse/<time>-<words of the task>


@dataclass(frozen=True)
class BrowseResult:
    """What one task gave: result.json's main fields, and the whole record in `result`."""

    status: Status  # `finished`, or how it ended otherwise (docs/records.md, "Statuses")
    answer: str | None  # finished(content); None when the task ended otherwise
    # With an answer schema: the accepted answer's value — an instance of the Pydantic type
    # when one was given, else the JSON value; None without a schema or an accepted answer.
    value: Any
    folder: Path  # the task folder: result.json, trajectory.jsonl, screenshots
    steps: int
    seconds: float
    tokens: int  # prompt and completion tokens of every call of every role
    cost: float | None  # $ when prices were given
    error: str | None
    result: TaskResult

    @property
    def ok(self) -> bool:
        """The model finished with an answer (that it is right is the caller's to judge)."""
        return self.status == "finished"


def default_task_dir(task: str, root: Path = RUNS_ROOT) -> Path:
    """A new folder under `root` named by the time and the task's first words (never reused)."""
    words = "-".join(re.findall(r"[a-z0-9]+", task.lower())[:6])[:48] or "task"
    stem = f"{time.strftime('%Y%m%d-%H%M%S')}-{words}"
    path, n = root / stem, 1
    while path.exists():
        n += 1
        path = root / f"{stem}-{n}"
    return path


def _prices(prices: Mapping[str, float] | Path | str | None) -> dict[str, float] | None:
    if prices is None:
        return None
    try:
        if isinstance(prices, (str, Path)):
            from webfovea.eval.costs import read_prices

            return read_prices(Path(prices))
        return price_table(prices)
    except PriceError as e:
        raise AppError(str(e)) from None


def _schema(answer_schema: dict[str, Any] | type[BaseModel] | None) -> dict[str, Any] | None:
    if answer_schema is None or isinstance(answer_schema, dict):
        return answer_schema
    if isinstance(answer_schema, type) and issubclass(answer_schema, BaseModel):
        return answer_schema.model_json_schema()
    raise AppError("answer_schema must be a JSON Schema (a dict) or a Pydantic model class")


def _the_task(task: str | Task, url: str | None, task_id: str, schema: dict[str, Any] | None) -> Task:
    if isinstance(task, Task):
        if url is not None or schema is not None:
            raise AppError(
                "a Task carries its own start URL and answer schema: give url= only with a text task"
            )
        return task
    if url is None:
        raise AppError("give the start URL: browse(task, url='https://…', model=…)")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise AppError(
            f"url must be an http(s) address, not {url[:60]!r} (file:, data:, view-source: are never opened)"
        )
    if not task.strip():
        raise AppError("the task is empty: say what the agent should do")
    return Task(task_id=task_id, task=task, website=url, answer_schema=schema)


def _config(
    model: str | Model,
    config: HarnessConfig | None,
    spend: dict[str, Any],
    profile: str,
    disable: list[str] | None,
    settings: dict[str, Any],
) -> HarnessConfig:
    """The given config (the budgets added), else one for the model's conventions row."""
    spend = {k: v for k, v in spend.items() if v is not None}
    try:
        if config is not None:
            if settings or disable or profile != "webfovea":
                raise AppError(
                    "give either config= or the settings that make one (profile, disable, …), not both"
                )
            return HarnessConfig.model_validate({**config.model_dump(), **spend})
        from webfovea.observation.sizing import harness_config

        return harness_config(
            profile, disable, model=model if isinstance(model, str) else None, **settings, **spend
        )
    except ValueError as e:  # a pydantic ValidationError too
        raise config_error(e) from None


async def browse(  # noqa: PLR0913 -- the one-line agent: every option is a keyword
    task: str | Task,
    *,
    url: str | None = None,
    model: str | Model,
    out: Path | str | None = None,
    answer_schema: dict[str, Any] | type[BaseModel] | None = None,
    max_steps: int | None = None,
    max_tokens: int | None = None,
    max_cost: float | None = None,
    prices: Mapping[str, float] | Path | str | None = None,
    headless: bool = True,
    task_id: str = "task",
    config: HarnessConfig | None = None,
    profile: str = "webfovea",
    disable: list[str] | None = None,
    session: BrowserSession | None = None,
    cdp_url: str | None = None,
    base_url: str | None = None,
    model_options: dict[str, Any] | None = None,
    offline: bool | None = None,
    cache: Path | str | None = None,
    capture: bool = True,
    on_step: Callable[[StepRecord], None] | None = None,
    **settings: Any,
) -> BrowseResult:
    """Run one task and return what it gave; its folder is written as `webfovea run` writes it.

    `model`: a spec string (`openai:gpt-4o`, `anthropic:…`, `script:FILE`, …; its conventions
    row sizes the screenshot) or a `Model` object. `out`: the task folder (default
    runs/browse/<time>-<words>). `answer_schema`: a JSON Schema or a Pydantic model class; the
    accepted answer's value is `value`. `max_tokens` / `max_cost` (with `prices`: a dict or a
    JSON file, $ per million tokens) end the task `budget_exceeded` once its recorded spend
    reaches them. The rest: `webfovea.agent.run_task`'s options, and the configuration as
    `config=` or as `profile=`, `disable=`, `cap=`, `viewport=` and any `HarnessConfig` field.
    AppError for options that cannot run, before any browser starts."""
    from webfovea.agent import run_task

    schema = _schema(answer_schema)
    t = _the_task(task, url, task_id, schema)
    table = _prices(prices)
    # The budgets are added to a given config too; the other settings make one.
    spend = {"max_steps": max_steps, "max_tokens": max_tokens, "max_cost": max_cost, "prices": table}
    cfg = _config(model, config, spend, profile, disable, settings)
    if isinstance(model, str):
        from webfovea.app.config import check_model

        check_model(model, base_url)  # a bad spec or a missing key, before any browser starts
    folder = Path(out) if out is not None else default_task_dir(t.task)
    if folder.exists() and not folder.is_dir():
        raise AppError(f"{folder} is a file, not a folder; give a folder path")
    result = await run_task(
        t,
        folder,
        model=model,
        config=cfg,
        session=session,
        cdp_url=cdp_url,
        model_options=model_options,
        capture=capture,
        on_step=on_step,
        base_url=base_url,
        offline=offline,
        cache=cache,
        headless=headless,
    )
    return _result(result, folder, cfg, answer_schema)


def browse_sync(task: str | Task, **options: Any) -> BrowseResult:
    """`browse` for a script without an event loop (the same keywords)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(browse(task, **options))
    raise AppError("browse_sync was called inside a running event loop: use `await webfovea.browse(...)`")


def _result(
    result: TaskResult,
    folder: Path,
    cfg: HarnessConfig,
    answer_schema: dict[str, Any] | type[BaseModel] | None,
) -> BrowseResult:
    value = result.answer_value
    if value is not None and isinstance(answer_schema, type) and issubclass(answer_schema, BaseModel):
        value = answer_schema.model_validate(value)  # the gate checked it against this type's schema
    spend = SpendCap(prices=cfg.prices).spent_by([result])
    return BrowseResult(
        status=result.status,
        answer=result.answer,
        value=value,
        folder=folder,
        steps=result.steps,
        seconds=result.seconds,
        tokens=spend.tokens,
        cost=spend.cost,
        error=result.error,
        result=result,
    )
