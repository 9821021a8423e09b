"""The mail client and the issue tracker on real Chromium, judged from the server's state:
one template per app under the default oracle (clean), the same seed twice giving the same
hashes, and the board's drag really moving a ticket's column in the backend.

One template per app shows the oracle operates it; the sample's run is the same-seed test's
first run (that test runs it once more). Every template once is the benchmark command
`webfovea bench breakingweb --seed 0 --apps mail,tracker --only '*-01'`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Page

from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.eval.scoring import score_answer
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.suite import load_breakingweb_suite
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="session")
# One state-changing template per app: the same-seed test's tasks, so their first run is shared.
SAMPLE = ["mail-mark-unread-01", "tracker-drag-to-column-01"]
_SEEN: dict[str, tuple] = {}  # a sampled task's hashes and answer, which the same-seed test reuses
_SUITE: dict[str, Any] = {}  # built once: the suite holds every app's tasks


async def _run(sites: SitesHandle, session: BrowserSession, folder: Path, task_id: str) -> tuple:
    if not _SUITE:
        _SUITE.update({t.task_id: t for t in load_breakingweb_suite(sites)})
    task = _SUITE[task_id]
    result = await run_task(task, folder, model="oracle", config=HarnessConfig(max_steps=40), session=session)
    with sites.control() as control:
        diff, audit = control.diff(result.session_id), control.audit(result.session_id)
        requests = control.requests(result.session_id)
    return task, result, diff, audit, requests


def _hashes(result, diff: dict, audit: dict) -> tuple:  # noqa: ANN001 - a TaskResult
    return (diff["initial_sha256"], diff["diff_sha256"], audit["audit_sha256"], result.answer)


@pytest.mark.parametrize("task_id", SAMPLE)
async def test_every_template_passes_under_the_oracle(
    task_id: str, sites: SitesHandle, session: BrowserSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    task, result, diff, audit, requests = await _run(sites, session, tmp_path, task_id)
    _SEEN[task_id] = _hashes(result, diff, audit)
    extra = task.model_extra or {}
    state = score_state(diff["diff"], extra["obligations"], extra["noise"], requests)
    assert state.passed, (state, result.answer)
    if not task.state_changing:
        assert score_answer(result.answer, task.answer).passed, (result.answer, task.answer)
        return
    # The backend changed as the obligations say: every named field holds its value.
    after = {(c["entity"], c["id"], c["field"]): c["after"] for c in diff["diff"] if c["op"] == "update"}
    created = [c["after"] for c in diff["diff"] if c["op"] == "create"]
    for ob in extra["obligations"]:
        if ob["op"] == "update":
            assert all(after[(ob["entity"], ob["id"], k)] == v for k, v in ob["fields"].items()), ob
        else:
            assert any(all(rec.get(k) == v for k, v in ob["fields"].items()) for rec in created), ob


@pytest.mark.parametrize("task_id", SAMPLE)
async def test_same_seed_twice_same_hashes(
    task_id: str, sites: SitesHandle, session: BrowserSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    seen = [_SEEN[task_id]] if task_id in _SEEN else []  # its run in the sample, when it ran
    while len(seen) < 2:
        _, result, diff, audit, _ = await _run(sites, session, tmp_path / str(len(seen)), task_id)
        seen.append(_hashes(result, diff, audit))
    assert seen[0] == seen[1] and seen[0][0] != seen[0][1]


async def _board(page: Page, sites: SitesHandle, task_id: str) -> str:
    with sites.control() as control:
        sid = control.create(task_id, sites.seed, None)["session_id"]
    await page.context.add_cookies(
        [{"name": "wf_session", "value": sid, "url": sites.main_url, "httpOnly": True}]
    )
    await page.goto(sites.url("/app/tracker"))
    await page.wait_for_selector("#board .tcard")
    return sid


async def test_the_board_drag_moves_the_ticket_in_the_backend(
    sites: SitesHandle, session: BrowserSession
) -> None:
    """Pointer events only (press, moves, release over another column): the server stores the
    new column, the card shows there after the board re-reads, and nothing else changed."""
    page = await session.fresh_page()
    try:
        sid = await _board(page, sites, "tracker-drag-to-column-01")
        card = page.locator("#board .col[data-status='todo'] .tcard").first
        tid = await card.get_attribute("data-id")
        start = await card.bounding_box()
        end = await page.locator("#board .col[data-status='review'] h3").bounding_box()
        assert start and end
        await page.mouse.move(start["x"] + 20, start["y"] + 12)
        await page.mouse.down()
        for i in range(1, 16):  # paced, as a person drags
            await page.mouse.move(
                start["x"] + 20 + (end["x"] + 30 - start["x"] - 20) * i / 15,
                start["y"] + 12 + (end["y"] + 40 - start["y"] - 12) * i / 15,
            )
        await page.mouse.up()
        await page.locator(f"#board .col[data-status='review'] .tcard[data-id='{tid}']").wait_for()
        with sites.control() as control:
            diff = [c for c in control.diff(sid)["diff"] if c["entity"] != "_settings"]
        assert {(c["id"], c["field"], c["after"]) for c in diff if c["field"] != "updated"} == {
            (tid, "status", "review")
        }
        # A press and release on the same spot is a click, not a drop: nothing moves.
        other = page.locator("#board .col[data-status='todo'] .tcard").first
        box = await other.bounding_box()
        assert box
        await page.mouse.click(box["x"] + 20, box["y"] + 12)
        with sites.control() as control:
            assert len([c for c in control.diff(sid)["diff"] if c["entity"] == "tickets"]) == len(diff)
    finally:
        await page.context.clear_cookies()
