"""The shop and the bank: their generators are deterministic and large enough; a sample of one
state-changing template per app (a write over several entities) run by the oracle in Chromium
passes, judged by the backend state; the backend really changed as the obligations say; the
same seed gives the same initial, diff and audit hashes (the sample's run is the first of the
two). One template per app shows the oracle operates it; every template once is the benchmark
command `webfovea bench breakingweb --seed 0 --apps shop,bank --only '*-01'`."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.eval.scoring import score_answer
from webfovea.task import Task
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.suite import load_breakingweb_suite
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="session")
NEW_APPS = ("shop", "bank")
_SEEN: dict[str, tuple] = {}  # a sampled task's hashes and answer, which the same-seed test reuses
_SUITE: dict[str, Task] = {}  # built once: the suite holds every app's tasks


def _suite(sites: SitesHandle) -> dict[str, Task]:
    if not _SUITE:
        _SUITE.update({t.task_id: t for t in load_breakingweb_suite(sites, seed=0)})
    return _SUITE


# An order (and the stock it takes), a transfer (and its transaction and balance).
SAMPLE = {"shop": "shop-buy-01", "bank": "bank-transfer-01"}


def _hashes(result: Any, diff: dict[str, Any], audit: dict[str, Any]) -> tuple:
    return (diff["initial_sha256"], diff["diff_sha256"], audit["audit_sha256"], result.answer)


@pytest.mark.parametrize("app", NEW_APPS)
async def test_generator_is_deterministic_and_covers_the_tiers(app: str) -> None:
    a = [t.model_dump() for t in APPS[app].tasks(0)]  # type: ignore[misc]
    assert a == [t.model_dump() for t in APPS[app].tasks(0)]  # type: ignore[misc]
    assert a != [t.model_dump() for t in APPS[app].tasks(1)]  # type: ignore[misc]
    tasks = [t for t in stateful_tasks(0).values() if t.app == app]
    assert len(tasks) >= 75 and len({t.targets["template"] for t in tasks}) >= 10
    assert set(Counter(t.targets["tier"] for t in tasks)) == {"easy", "medium", "hard"}
    for t in tasks:
        assert t.plan[-1]["op"] == "answer" and t.obligations, t.task_id
        if t.state_changing:
            assert {"write", "submit", "submit_step"} <= set(t.targets), t.task_id
        else:
            assert t.answer not in (None, ""), t.task_id


async def _run(task: Task, sites: SitesHandle, session: BrowserSession, out: Path) -> tuple:
    result = await run_task(task, out, model="oracle", config=HarnessConfig(max_steps=40), session=session)
    with sites.control() as control:
        diff = control.diff(result.session_id)
        audit = control.audit(result.session_id)
        requests = control.requests(result.session_id)
    return result, diff, audit, requests


@pytest.mark.parametrize("app", NEW_APPS)
async def test_stratified_sample_passes_with_the_oracle(
    app: str, sites: SitesHandle, session: BrowserSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    suite = _suite(sites)
    failed = []
    sample = [SAMPLE[app]]
    for tid in sample:
        task = suite[tid]
        extra = task.model_extra or {}
        result, diff, audit, requests = await _run(task, sites, session, tmp_path / tid)
        _SEEN[tid] = _hashes(result, diff, audit)
        state = score_state(diff["diff"], extra["obligations"], extra["noise"], requests)
        ok = state.passed and (task.state_changing or score_answer(result.answer, task.answer).passed)
        if task.state_changing:
            # The backend really changed where the obligations say: every named entity moved.
            changed = {c["entity"] for c in diff["diff"]}
            ok = ok and {o["entity"] for o in extra["obligations"]} <= changed
        if not ok:
            failed.append((tid, result.answer, state.invariants_broken[:2], state.obligations_met))
    assert len(failed) <= len(sample) * 0.02, failed  # the bar: >= 98% of the sample


@pytest.mark.parametrize("app", NEW_APPS)
async def test_same_seed_gives_the_same_hashes(
    app: str, sites: SitesHandle, session: BrowserSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    tid = SAMPLE[app]
    task = _suite(sites)[tid]
    seen = [_SEEN[tid]] if tid in _SEEN else []  # its run in the sample, when it ran
    while len(seen) < 2:
        result, diff, audit, _ = await _run(task, sites, session, tmp_path / str(len(seen)))
        seen.append(_hashes(result, diff, audit))
    assert seen[0] == seen[1]
    assert seen[0][1] != "" and seen[0][0] != seen[0][1]
