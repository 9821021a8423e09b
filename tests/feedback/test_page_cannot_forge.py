"""The page cannot read, call, forge or break what the harness reads from it: the
recorder lives in the harness's isolated world, so a page that replaces the
reflection primitives learns nothing and forges nothing, and a page that poisons the
prototypes and globals a script leans on still has every change it makes seen."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.feedback.conftest import act, open_lab
from webfovea.browser import recorder
from webfovea_proving_ground.serve import SitesHandle, start_sites
from webfovea_proving_ground.sites.hostile import code

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture(scope="module")
def sites() -> Iterator[SitesHandle]:
    with start_sites() as handle:
        yield handle


def _log(sites: SitesHandle, path: str, b: str | None = None) -> list[dict]:
    log = sites.ctx.cache.get("hostile_log", [])
    return [e for e in log if e["path"] == path and (b is None or e["query"].get("b") == b)]


async def test_a_page_hunting_for_the_recorder_finds_nothing_and_forges_nothing(session, sites):
    h = await open_lab(session, sites, "/hostile/forgery")
    fp = await recorder.call(h.page.main_frame, "fp", {})
    assert fp["title"] != "forged" and fp["nodes"] > 5
    res = await act(h, "click", "#show")
    assert code(sites.ctx, "forgery") in await h.page.inner_text("#code")
    assert "No detectable change" not in res.feedback and "The page changed" in res.feedback
    names = await h.page.evaluate("Object.getOwnPropertyNames(window).filter((k) => /^__wf/.test(k))")
    assert names == []
    await h.page.wait_for_timeout(500)  # the page's scan runs every 200 ms
    assert _log(sites, "/hostile/leak") == []
    assert recorder.KEY not in await h.page.content()


async def test_poisoned_prototypes_do_not_hide_a_same_length_text_change(session, sites):
    h = await open_lab(session, sites, "/hostile/poison")
    before = await recorder.call(h.page.main_frame, "fp", {})
    assert "error" not in before and before["text_len"] > 10
    res = await act(h, "click", "#show")
    assert code(sites.ctx, "poison") in await h.page.inner_text("#code")
    assert "No detectable change" not in res.feedback
    assert "not its text or state" not in res.feedback and "The page changed" in res.feedback
    after = await recorder.call(h.page.main_frame, "fp", {})
    assert after["text"] != before["text"] and after["text_len"] == before["text_len"]
    assert after["scroll_y"] == 0  # Math.round = () => 7 changes nothing here


@pytest.mark.parametrize("profile", ["webfovea", "reference"])
async def test_a_button_put_under_the_arriving_pointer_never_gets_the_press(session, sites, profile):
    # "Delete everything" appears over "Save" on pointermove/mouseover
    h = await open_lab(session, sites, "/hostile/swap", profile=profile)
    res = await act(h, "click", "#save")
    assert _log(sites, "/hostile/hit", "delete") == []
    assert res.outcome == "rejected"
    if profile == "webfovea":  # the reference agent is told nothing (feedback_notes is off)
        assert "was not pressed" in res.feedback and "Delete everything" in res.feedback
    await h.page.wait_for_timeout(1600)  # the page takes its decoy away
    res = await act(h, "click", "#save")
    assert await h.page.inner_text("#state") == "saved" and _log(sites, "/hostile/hit", "delete") == []
