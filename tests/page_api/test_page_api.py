"""`act`, `extract`, `observe` on a Playwright page the test holds: the proving ground's statistics
portal in real Chromium, the oracle deciding. Effects are read from the page, model calls from
the oracle's own log of replies."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Annotated

import pytest
import pytest_asyncio
from playwright.async_api import Page
from pydantic import Field, RootModel

from webfovea.browser.session import BrowserSession
from webfovea.config import make_config
from webfovea.harness import Harness
from webfovea.page_api import ExtractError, PageAgent
from webfovea.task import Task
from webfovea_proving_ground.oracle.model import OracleModel
from webfovea_proving_ground.serve import SitesHandle, start_sites

pytestmark = pytest.mark.asyncio(loop_scope="session")

COUNTRY = {"selector": "#country"}
CHOOSE = {
    "op": "select",
    "target": COUNTRY,
    "option": "Viet Nam",
    "expect": {"target": COUNTRY, "value": "VN"},
}
# "132 observations" beside the indicator, in view: the number as the answer
COUNT = {"op": "answer", "source": {"target": {"selector": "#status"}, "regex": r"(\d+) observations"}}
CONFIG = make_config(disable=["ocr_check"])  # Tesseract is not what is tested here


class Count(RootModel[int]):
    root: int


class BigCount(RootModel[Annotated[int, Field(gt=1000)]]):
    pass


@pytest.fixture(scope="module")
def sites() -> Iterator[SitesHandle]:
    with start_sites() as handle:
        yield handle


@pytest_asyncio.fixture(loop_scope="session")
async def page(session: BrowserSession, sites: SitesHandle) -> AsyncIterator[Page]:
    p = await session.fresh_page()
    await loaded(p, sites.url("/stats"))
    yield p
    await p.close()


async def loaded(p: Page, url: str) -> None:
    await p.goto(url)
    await p.wait_for_function("document.querySelector('#count').textContent.trim() !== ''")
    await p.mouse.move(1, 1)  # the same pointer every time: a hovered control is another state


def oracle(page: Page, *plan: dict) -> OracleModel:
    return OracleModel(Task(task_id="page-api", task="(page api)", website=page.url, plan=list(plan)), page)


async def test_act_selects_the_option_and_the_same_call_again_asks_no_model(page: Page, sites):
    model = oracle(page, CHOOSE)
    agent = await PageAgent.attach(page, model=model, config=CONFIG)
    assert await page.input_value("#country") == "AU"
    done = await agent.act("choose Viet Nam in the Country list")
    assert await page.input_value("#country") == "VN"  # really selected, by the harness's executor
    assert done.ok and not done.cached and [s.name for s in done.steps] == ["select"]
    assert "Viet Nam" in done.feedback  # the harness's own feedback sentence
    assert len(model.actions_log) == 1
    await loaded(page, sites.url("/stats"))  # the same page state as before the first call
    assert await page.input_value("#country") == "AU"
    again = await agent.act("choose Viet Nam in the Country list")
    assert again.cached and again.ok and await page.input_value("#country") == "VN"
    assert len(model.actions_log) == 1  # replayed from the cache: no model call


async def test_extract_returns_the_value_shown_and_caches_it(page: Page):
    model = oracle(page, COUNT)
    agent = await PageAgent.attach(page, model=model, config=CONFIG)
    shown = int((await page.inner_text("#status")).split()[0])
    assert await agent.extract("the number of observations", {"type": "integer"}) == shown
    assert len(model.actions_log) == 1
    assert await agent.extract("the number of observations", Count) == Count(shown)  # a Pydantic type
    assert len(model.actions_log) == 2  # another schema: another question
    assert await agent.extract("the number of observations", {"type": "integer"}) == shown
    assert len(model.actions_log) == 2  # the same call on the same page: from the cache


async def test_extract_refuses_a_value_that_does_not_validate(page: Page):
    model = oracle(page, COUNT)
    agent = await PageAgent.attach(page, model=model, config=CONFIG)
    with pytest.raises(ExtractError, match="no answer met the schema in 2 replies.*1000") as err:
        await agent.extract("the number of observations", BigCount, tries=2)
    assert err.value.problem is not None and "1000" in err.value.problem
    assert len(model.actions_log) == 2  # each refusal was told to the model, which answered again
    with pytest.raises(ValueError, match="not a valid JSON Schema"):  # refused before any call
        await agent.extract("anything", {"type": "integer", "pattern": "("})


async def test_observe_proposes_without_acting_and_act_runs_the_proposal(page: Page):
    model = oracle(page, CHOOSE)
    agent = await PageAgent.attach(page, model=model, config=CONFIG)
    before = await page.screenshot()
    found = await agent.observe("choose Viet Nam in the Country list")
    assert [c.name for c in found] == ["select"] and found[0].args["option"] == "Viet Nam"
    assert "<select>" in found[0].description and "dropdown" in found[0].description
    assert await page.input_value("#country") == "AU" and await page.screenshot() == before  # nothing ran
    calls = len(model.actions_log)
    done = await agent.act(found[0])
    assert done.ok and await page.input_value("#country") == "VN"
    assert len(model.actions_log) == calls  # the proposal ran as it was: no model call


async def test_a_harness_the_script_holds_keeps_its_own_history(page: Page):
    h = await Harness.on_page(page, CONFIG)
    h.history.replies.append("Thought: an earlier step of the script's own task")
    with pytest.raises(TypeError, match="already has its config"):
        await PageAgent.attach(h, model=oracle(page, CHOOSE), config=CONFIG)
    agent = await PageAgent.attach(h, model=oracle(page, CHOOSE))
    done = await agent.act("choose Viet Nam in the Country list")
    assert done.ok and await page.input_value("#country") == "VN"
    assert h.history.replies == ["Thought: an earlier step of the script's own task"]  # put back
