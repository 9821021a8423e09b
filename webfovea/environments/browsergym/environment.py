"""A BrowserGym task as a webfovea task environment: BrowserGym sets the task up on the
harness's page and its `validate` gives the reward that scores the run.

Its `setup`/`validate` are synchronous Playwright code; they run in a worker thread on a
`SyncFacade` of the harness's page (facade.py), so they act on the page the model sees. After
every step the driver asks `validate`: its `done` ends the episode (status `env_done`), its
reward is result.json `state` (`passed` = reward > 0, as BrowserGym counts a success).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from playwright.async_api import Page

from webfovea.driving.environment import EnvironmentCheck, EnvironmentError
from webfovea.environments.browsergym.catalog import BrowserGymMissing, make_task
from webfovea.environments.browsergym.facade import SyncFacade
from webfovea.environments.browsergym.miniwob_site import MiniwobMissing
from webfovea.record.schema import StateScore
from webfovea.task import EnvironmentSpec


def _plain(value: Any) -> Any:
    """What a task reported, as JSON (its info may hold numpy numbers)."""
    return json.loads(json.dumps(value, default=str))


class BrowserGymEnvironment:
    def __init__(self, spec: EnvironmentSpec) -> None:
        self.spec = spec
        try:
            self.task = make_task(spec.name, spec.seed)
        except (BrowserGymMissing, MiniwobMissing) as e:
            raise EnvironmentError(str(e)) from e
        self.facade: SyncFacade | None = None
        self.goal = ""

    def _facade(self, page: Page) -> SyncFacade:
        if self.facade is None or self.facade._target is not page:
            self.facade = SyncFacade(page, asyncio.get_running_loop())
        return self.facade

    async def setup(self, page: Page) -> str | None:
        goal, _info = await asyncio.to_thread(self.task.setup, self._facade(page))
        self.goal = str(goal or "")
        return self.goal or None

    async def check(self, page: Page) -> EnvironmentCheck:
        chat = [{"role": "user", "message": self.goal}]
        reward, done, message, info = await asyncio.to_thread(self.task.validate, self._facade(page), chat)
        state = StateScore(
            score=float(reward),
            passed=float(reward) > 0,
            benchmark_task=self.spec.name,
            seed=self.spec.seed,
            done=bool(done),
            message=str(message or ""),
            info=_plain(info),
        )
        return EnvironmentCheck(done=bool(done), state=state)

    async def aclose(self) -> None:
        await asyncio.to_thread(self.task.teardown)


def make_browsergym_environment(spec: EnvironmentSpec) -> BrowserGymEnvironment:
    """The `browsergym` kind of the `webfovea.environments` entry points."""
    return BrowserGymEnvironment(spec)
