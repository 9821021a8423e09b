"""The oracle looks at the image through a conventions row (`provider=`), the same table
the harness sizes its screenshots by: a harness that knows the model hits, one that sends
what that provider resizes misses, as with the real model."""

from __future__ import annotations

import pytest

from tests.support.servers import serve_pages
from webfovea import Harness
from webfovea.models.factory import make_model
from webfovea.observation.sizing import harness_config
from webfovea.task import Task
from webfovea_proving_ground.oracle.model import DEFAULT_PROVIDER, OracleModel

pytestmark = pytest.mark.asyncio(loop_scope="session")

PAGE = """<!doctype html><html><body style="margin:0;font:16px sans-serif">
<button id=btn style="position:absolute;left:1500px;top:700px;width:120px;height:40px"
 onclick="this.textContent='Clicked'">Apply</button></body></html>"""
TASK = Task(
    task_id="t-provider",
    task="press apply",
    website="http://x/",
    plan=[{"op": "click", "target": {"selector": "#btn"}}],
)


async def _click_once(session, url: str, spec: str, config) -> tuple[str, tuple[int, int]]:
    page = await session.fresh_page()
    await page.goto(url)
    h = await Harness.on_page(page, config)
    oracle = make_model(spec, task=TASK, page=page)
    assert isinstance(oracle, OracleModel)
    obs = await h.observe()
    reply = await oracle.next_reply(h.model_input(TASK.task))
    await h.step(reply.text)
    text = await page.inner_text("#btn")
    await page.close()
    return text, obs.image.size


@pytest.fixture(scope="module")
def url():
    with serve_pages({"/": PAGE}) as srv:
        yield srv.url("/")


async def test_harness_that_knows_the_provider_hits_one_that_does_not_misses(session, url):
    spec = "oracle:provider=gpt-4o,seed=1,contaminate_rate=0,continuation_rate=0"
    # The harness reads the same row for the model spec: it sends what GPT-4o keeps as is.
    hit, sent = await _click_once(session, url, spec, harness_config(model=spec))
    assert sent == (1365, 768) and hit == "Clicked"
    # A harness that sends the default 1440x810 to it: GPT-4o sees 1365x768, the click is ~5 % off.
    miss, sent = await _click_once(session, url, spec, harness_config(model="oracle"))
    assert sent == (1440, 810) and miss == "Apply"


async def test_default_provider_keeps_the_ablation_direction(session, url):
    assert DEFAULT_PROVIDER == "claude"
    spec = "oracle:seed=1,contaminate_rate=0,continuation_rate=0"
    hit, sent = await _click_once(session, url, spec, harness_config(model="oracle"))
    assert sent == (1440, 810) and hit == "Clicked"
    # The reference harness sends the full 1920x1080 and maps as if the model saw it: a miss.
    miss, sent = await _click_once(session, url, spec, harness_config("reference", model="oracle"))
    assert sent == (1920, 1080) and miss == "Apply"
