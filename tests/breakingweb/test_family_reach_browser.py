"""The seed families that reached only the data catalogue and the calendar reach a third app
through their targets: `server/scrambled_timestamps` the shop's orders (`order_sensitive: "orders"`),
`seed/split_information` the tracker's people (`unit`: the card shows the user name, the Team
page the person). The oracle, following the variant's plan in Chromium, reports the right
answer from the degraded page, and the page really was degraded (the audit, the DOM)."""

from __future__ import annotations

from pathlib import Path

import pytest

from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.eval.scoring import score_answer
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.suite import breakingweb_task
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="session")


def test_the_new_targets_make_the_variants() -> None:
    tasks = stateful_tasks(42)
    latest = [t for t in tasks.values() if t.targets.get("template") == "latestorder"]
    assert latest and all(t.targets["order_sensitive"] == "orders" for t in latest)
    people = [t for t in tasks.values() if t.targets.get("template") == "assignee-of"]
    assert people and all(str(t.targets["unit"]).startswith("u-") for t in people)


@pytest.mark.parametrize(
    ("tid", "family", "degraded"),
    [
        ("shop-latestorder-06", "scrambled_timestamps", "scrambled"),
        ("tracker-assignee-of-01", "split_information", "split"),
    ],
)
async def test_the_oracle_answers_right_under_the_family_on_the_third_app(
    tid: str,
    family: str,
    degraded: str,
    sites: SitesHandle,
    session: BrowserSession,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    task = breakingweb_task(sites, 0, tid, family)  # the variant as the suite builds it
    extra = task.model_extra or {}
    result = await run_task(
        task, tmp_path, model="oracle", config=HarnessConfig(max_steps=40), session=session
    )
    with sites.control() as control:
        diff = control.diff(result.session_id)
        audit = control.audit(result.session_id)["audit"]
        requests = control.requests(result.session_id)
    assert [e["event"] for e in audit] == [degraded]
    state = score_state(diff["diff"], extra["obligations"], extra["noise"], requests)
    assert state.passed and score_answer(result.answer, task.answer).passed, (result.answer, task.answer)
    if (
        family == "scrambled_timestamps"
    ):  # the page lists them last stored first: that is no longer the newest
        assert audit[0]["order"][-1] != task.answer
    else:  # the card showed the user name; the plan read the person off the Team legend
        assert any(s.get("detour") == "legend" for s in extra["plan"])
        assert extra["plan"][-1]["source"]["target"]["selector"].startswith("#units")
