"""The proving ground's recipes of docs/architecture.md, each followed once at run time with a
throwaway module and its one registration, on real sites in real Chromium:

- a site (tests/proving_ground/recipe_site.py + `sites.register`): the proving ground serves
  it and lists it in its index, and the oracle solves a task on it through the real harness;
- an intervention family (tests/proving_ground/recipe_family.py + `interventions.register`):
  a session may name it as its variant, and the page in the browser gets what it does;
- a plan op (tests/proving_ground/oracle/double_click_op.py + `ops.catalog.register`): the
  oracle follows a plan that uses it, through the real harness, and the page really changed.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.proving_ground import recipe_family, recipe_site
from tests.proving_ground.oracle import double_click_op
from webfovea.agent import run_task
from webfovea.browser.session import BrowserSession
from webfovea.config import make_config
from webfovea.task import Task
from webfovea_breakingweb import interventions
from webfovea_proving_ground import sites as site_registry
from webfovea_proving_ground.oracle.ops import catalog
from webfovea_proving_ground.plan import L, answer, click, visible
from webfovea_proving_ground.serve import SitesHandle, start_sites

pytestmark = pytest.mark.asyncio(loop_scope="session")
SEED = 3
QUIET = {"contaminate_rate": 0.0, "continuation_rate": 0.0}


@pytest.fixture(scope="module")
def sites() -> Iterator[SitesHandle]:
    """The proving ground with the throwaway site and family registered before it starts."""
    site_registry.register(recipe_site)
    interventions.register(recipe_family)
    try:
        with start_sites(seed=SEED) as handle:
            yield handle
    finally:
        site_registry.unregister(recipe_site)
        interventions.unregister(recipe_family)


def recipe_task(sites: SitesHandle, task_id: str, plan: list[dict]) -> Task:
    return Task(
        task_id=task_id, task="Read the value on the recipe page.", website=sites.url("/recipe"), plan=plan
    )


async def test_a_registered_site_is_served_listed_and_solved(
    sites: SitesHandle, session: BrowserSession, tmp_path: Path
) -> None:
    page = await session.fresh_page()
    await page.goto(sites.url("/"))
    assert await page.locator('#sites a[href="/recipe"]').count() == 1  # its index row
    await page.close()
    plan = [click(L("#reveal"), expect=visible(L("#code"))), answer(L("#code"))]
    result = await run_task(
        recipe_task(sites, "recipe-site-01", plan),
        tmp_path / "site",
        model="oracle",
        config=make_config(),
        session=session,
        capture=False,
        model_options=QUIET,
    )
    assert (result.status, result.answer) == ("finished", recipe_site.code(SEED))


async def test_a_registered_plan_op_is_followed_on_a_real_page(
    sites: SitesHandle, session: BrowserSession, tmp_path: Path
) -> None:
    plan = [{"op": "double_click", "target": L("#tile")}, answer(L("#opened"))]
    task = recipe_task(sites, "recipe-op-01", plan)
    before = await run_task(
        task, tmp_path / "unknown", model="oracle", config=make_config(), session=session, capture=False
    )
    assert before.status != "finished" and "unknown plan op 'double_click'" in str(before.error)
    assert "known: click, hover" in str(before.error)  # the error names the ops there are
    catalog.register(double_click_op)
    try:
        result = await run_task(
            task,
            tmp_path / "op",
            model="oracle",
            config=make_config(),
            session=session,
            capture=False,
            model_options=QUIET,
        )
    finally:
        catalog.unregister(double_click_op)
    assert "double_click" not in catalog.BY_NAME
    # The answer is read from the page after the op: the double click really reached it.
    assert (result.status, result.answer) == ("finished", "Opened 1")
    steps = [json.loads(line) for line in (tmp_path / "op" / "trajectory.jsonl").read_text().splitlines()]
    assert [s["action"]["name"] for s in steps if s.get("action")][:1] == ["left_double"]


async def test_a_registered_family_is_applied_to_a_session(
    sites: SitesHandle, session: BrowserSession
) -> None:
    assert interventions.family("recipe_teapot") is recipe_family.FAMILY
    with sites.control() as control:
        sid = control.create("case-resolve-01", SEED, "network/recipe_teapot")["session_id"]
    page = await session.fresh_page()
    await page.context.add_cookies(
        [{"name": "wf_session", "value": sid, "url": sites.main_url, "httpOnly": True}]
    )
    await page.goto(sites.url("/app/cases"))
    await page.wait_for_selector("#app > *")
    await page.locator("#records tr[data-id] .act-resolve").nth(4).click()  # the task's main route
    await page.wait_for_selector("#error:not([hidden])")
    assert recipe_family.ERROR in await page.inner_text("#error")  # what the browser got
    with sites.control() as control:
        statuses = [e["status"] for e in control.requests(sid) if e["path"].startswith("/api/")]
        audit = control.audit(sid)
    assert statuses.count(418) == 1  # its first call only, as the family says
    assert any(e.get("family") == "network/recipe_teapot" for e in audit["audit"])
    await page.close()
