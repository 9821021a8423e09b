"""The long-lived MCP browser (`webfovea mcp --browser`): one browser for the server's life,
one task after another in it, each in its own run folder.

A task is an `McpTask` on a fresh tab of the shared browser (the task driver's
`BrowserSource(session=…)`: the driver opens the tab, keeps the task's records and budgets,
and leaves the browser open when the task ends). `finished`, a breaker or a spent budget ends
the task, never the server; `start_task` (or `navigate` with no task open) starts the next.
Cookies and storage carry over from task to task, as in one person's browser.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

from webfovea.browser.session import BrowserLogin, BrowserSession
from webfovea.config import HarnessConfig
from webfovea.mcp.task_session import Launch, McpTask
from webfovea.record.schema import Status
from webfovea.task import Task, check_task_id

AGAIN = "Call start_task(task, url) (or navigate) to start the next task in this browser."
REPLACED = "the client started another task before calling finished"
BROWSING = "(browsing: no task given)"


class McpBrowser:
    def __init__(  # noqa: PLR0913 - the server's settings, each a CLI option
        self,
        out_dir: Path,
        config: HarnessConfig,
        *,
        launch: Launch | None = None,
        model: str | None = None,
        prefix: str | None = None,
        first: Task | None = None,
    ) -> None:
        self.out_dir = Path(out_dir)
        self.config = config
        self.launch = launch or Launch()
        self.model = model
        # Run folders are PREFIX-001, PREFIX-002, … under out_dir (default prefix mcp-TIME).
        self.prefix = prefix or "mcp-" + datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        check_task_id(self.prefix)
        self.first = first  # the task opened at start (--url), if any
        self.session: BrowserSession | None = None
        self.task: McpTask | None = None
        self.folders: list[Path] = []  # every task's folder, in order
        self._n = 0
        self._starting = asyncio.Lock()  # two start_task calls (HTTP clients) one after the other

    @property
    def dir(self) -> Path:
        """Where the server's own files go (the HTTP token): the folder above the run folders."""
        return self.out_dir

    @property
    def open_task(self) -> McpTask | None:
        return self.task if self.task is not None and not self.task.closed else None

    async def start(self) -> None:
        """Launch (or connect to) the browser; open the first task when one was given."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        await self._launch()
        if self.first is not None:
            await self.start_task(self.first.task, self.first.website)

    async def _launch(self) -> None:
        cfg, src = self.config, self.launch
        vp = (cfg.viewport_width, cfg.viewport_height)
        self.session = await (
            BrowserSession.connect(src.cdp_url, viewport=vp)
            if src.cdp_url
            else BrowserSession.launch(
                viewport=vp,
                headless=src.headless,
                offline=src.offline,
                login=BrowserLogin(cfg.storage_state, cfg.user_data_dir),
            )
        )

    async def _healthy_session(self) -> BrowserSession:
        """The browser, launched again if it crashed or was closed since the last task (a
        long-lived server outlives its browser; the lost task ended `browser_error`)."""
        if self.session is None:
            raise RuntimeError("the browser is not started")
        if not await self.session.healthy():
            lost, self.session = self.session, None
            await lost.close()
            await self._launch()
        assert self.session is not None
        return self.session

    def _folder(self) -> str:
        """The next run folder's name, created here (mkdir is atomic: never shared)."""
        while True:
            self._n += 1
            name = f"{self.prefix}-{self._n:03d}"
            try:
                (self.out_dir / name).mkdir()
                return name
            except FileExistsError:
                continue

    async def start_task(self, instruction: str, url: str) -> McpTask:
        """End the open task (if any) and start a new one on `url` in a fresh tab of the browser.
        A start that fails closes that task with the reason (its result.json) and raises."""
        async with self._starting:
            return await self._start_task(instruction, url)

    async def _start_task(self, instruction: str, url: str) -> McpTask:
        if self.task is not None:
            await self.task.close("interrupted", REPLACED)
        session = await self._healthy_session()
        tid = self._folder()
        task = Task(task_id=tid, task=instruction or BROWSING, website=url)
        self.task = McpTask(
            task,
            self.out_dir / tid,
            self.config,
            launch=Launch(session=session),
            model=self.model,
            again=AGAIN,
        )
        self.folders.append(self.task.dir)
        await self.task.start()
        return self.task

    async def close(self, status: Status, error: str | None = None, answer: str | None = None) -> None:
        """End the open task under `status`, then close the browser. Only the first call acts."""
        if self.task is not None:
            await self.task.close(status, error, answer)
        if self.session is not None:
            session, self.session = self.session, None
            await session.close()
