"""What the React environments' browser tests share: a session opened on an environment's page,
the backend's changes, an oracle run scored from the backend, a task of each tier."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from playwright.async_api import Page

from webfovea.agent import run_task
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.suite import load_breakingweb_suite
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_breakingweb.tiers import TIERS
from webfovea_proving_ground.serve import SitesHandle

Opener = Callable[..., Awaitable[str]]
# The seed-0 suite per running proving ground (its tasks' URLs name the sites' port): built once
# per module's sites, not per oracle run (a quarter CPU-second each).
_SUITES: dict[str, dict[str, Any]] = {}


def tier_sample(env: str, *tiers: str) -> list[str]:
    """The first task of `env` in each tier named (seed 0). Every template once, T4 and T5
    included, is the benchmark command `webfovea bench breakingweb --seed 42 --only '<env>-*-01'`."""
    picked: dict[str, str] = {}
    for t in stateful_tasks(0).values():
        if t.app == env:
            picked.setdefault(t.targets["tier"], t.task_id)
    assert set(picked) == set(TIERS), (env, sorted(picked))
    return [picked[t] for t in tiers]


def opener(env: str) -> Opener:
    """`await open_(page, sites, task_id, variant=None, where="")`: a session for the task (under
    the variant), its cookie on the page, the environment's page (`where` below it) loaded."""

    async def open_(
        page: Page, sites: SitesHandle, task_id: str, variant: str | None = None, where: str = ""
    ) -> str:
        with sites.control() as control:
            sid = str(control.create(task_id, sites.seed, variant)["session_id"])
        await page.context.add_cookies(
            [{"name": "wf_session", "value": sid, "url": sites.main_url, "httpOnly": True}]
        )
        await page.goto(sites.url(APPS[env].path + where))
        return sid

    return open_


def changes(sites: SitesHandle, sid: str) -> list[dict[str, Any]]:
    """The session's canonical diff, the session's own settings left out."""
    with sites.control() as control:
        return [c for c in control.diff(sid)["diff"] if c["entity"] != "_settings"]


async def oracle_run(task_id: str, sites: SitesHandle, session: BrowserSession, out: Path) -> tuple[Any, ...]:
    """The oracle on one task (seed 0), scored from the backend: (state score, diff, audit)."""
    if sites.main_url not in _SUITES:
        _SUITES[sites.main_url] = {t.task_id: t for t in load_breakingweb_suite(sites, seed=0)}
    task = _SUITES[sites.main_url][task_id]
    result = await run_task(task, out, model="oracle", config=HarnessConfig(max_steps=40), session=session)
    with sites.control() as control:
        diff, audit = control.diff(result.session_id), control.audit(result.session_id)
    extra = task.model_extra or {}
    return score_state(diff["diff"], extra["obligations"], extra["noise"]), diff, audit
