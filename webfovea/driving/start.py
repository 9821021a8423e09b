"""The harness of one task, set up the same by every driver of a task."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Page

from webfovea.browser.binding import bind_session
from webfovea.config import HarnessConfig
from webfovea.guardrails.answer import AnswerGate
from webfovea.guardrails.verifier import Verifier
from webfovea.guardrails.verify import VerifyGate
from webfovea.harness import Harness
from webfovea.record.capture import Capture
from webfovea.task import Task


async def task_harness(
    page: Page, task: Task, config: HarnessConfig, task_dir: Path, cap: Capture | None
) -> tuple[Harness, str | None]:
    """A harness on `page` set up for one task — downloads kept in the task folder, the site
    guard, the verify gate, the verifier, the proving ground's session cookie — and the bound session id.
    Every driver of a task (this loop, the MCP server) starts from here, so none runs unguarded."""
    h = await Harness.on_page(page, config)
    h.keep_downloads(task_dir / "downloads")
    h.documents.on_record = cap.record_document if cap is not None else None
    await h.guard_site(
        task.website, allow_origins=task.allow_origins, on_block=cap.record_block if cap is not None else None
    )
    h.verify = VerifyGate.for_task(config, task)
    h.answers = AnswerGate.for_task(task)
    h.verifier = Verifier.for_task(config, task)
    if cap is not None:  # the page's own responses, for the request an answer's value came in
        h.evidence.watch(page.context)
    return h, await bind_session(page, task)
