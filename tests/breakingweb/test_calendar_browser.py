"""The calendar on real Chromium, judged from the server's state: one template under the default
oracle (clean; every template is the benchmark `webfovea bench breakingweb --only
'calendar-*-01'`), and the same seed twice giving the same hashes (the sample's run is the
first of the two). One template per app shows the oracle operates it, as for the other
extension apps (test_own_apps_browser.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.eval.scoring import score_answer
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.suite import load_breakingweb_suite
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="session")


_SUITE: dict[str, Any] = {}
_SEEN: dict[str, tuple] = {}  # a template's first run, which the same-seed test runs again
TWICE = "calendar-create-01"  # the sample: a state-changing one that creates an event


async def _run(sites: SitesHandle, session: BrowserSession, folder: Path, task_id: str) -> tuple:
    if not _SUITE:  # built once: the suite holds every app's tasks
        _SUITE.update({t.task_id: t for t in load_breakingweb_suite(sites)})
    task = _SUITE[task_id]
    result = await run_task(task, folder, model="oracle", config=HarnessConfig(max_steps=40), session=session)
    with sites.control() as control:
        diff, audit = control.diff(result.session_id), control.audit(result.session_id)
        requests = control.requests(result.session_id)
    return task, result, diff, audit, requests


@pytest.mark.parametrize("task_id", [TWICE])
async def test_every_calendar_template_passes_under_the_oracle(
    task_id: str, sites: SitesHandle, session: BrowserSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    task, result, diff, audit, requests = await _run(sites, session, tmp_path, task_id)
    _SEEN[task_id] = (diff["initial_sha256"], diff["diff_sha256"], audit["audit_sha256"], result.answer)
    extra = task.model_extra or {}
    state = score_state(diff["diff"], extra["obligations"], extra["noise"], requests)
    assert state.passed, (state, result.answer, diff["diff"])
    if not task.state_changing:
        assert score_answer(result.answer, task.answer).passed, (result.answer, task.answer)
        return
    assert [c for c in diff["diff"] if c["entity"] != "_settings"], "the backend did not change"


async def test_same_seed_twice_same_hashes(
    sites: SitesHandle, session: BrowserSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    seen = [_SEEN[TWICE]] if TWICE in _SEEN else []  # its run in the sample, when it ran
    while len(seen) < 2:
        _, result, diff, audit, _ = await _run(sites, session, tmp_path / str(len(seen)), TWICE)
        seen.append((diff["initial_sha256"], diff["diff_sha256"], audit["audit_sha256"], result.answer))
    assert seen[0] == seen[1] and seen[0][0] != seen[0][1]
