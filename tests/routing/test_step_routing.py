"""Per-step routing through the agent loop, in real Chromium: a routing table hands the cookie
banner's step to a rule (its text) or to template matching (its picture), with no model call,
and the task's model decides the rest; every step's record says who decided and why. The
button the task names, clicked by the model with effect, is learnt as a template that
find_template then finds.

The page hides its button under a modal cookie banner; a click on the button while the banner
is up lands on the backdrop. The scripted model only ever clicks the button and answers, so
the task passes only if the route dismissed the banner first.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.scripted import ScriptedModel
from tests.support.servers import serve_pages
from tests.support.widget_scenes import WIDGETS, alone
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.models.base import Usage
from webfovea.routing.table import RoutingError, load_table
from webfovea.task import Task

ASYNC = pytest.mark.asyncio(loop_scope="session")

BANNER = WIDGETS["cookie_banner"]
# The same banner whose "Accept all" is a plain <div>: no button or link for the text rule.
BANNER_DIV = (
    BANNER.replace('<button class="accept"', '<div class="accept"')
    .replace("Accept all</button>", "Accept all</div>")
    .replace('font-weight:bold">Accept all</div>', 'font-weight:bold;display:inline-block">Accept all</div>')
)


def _page(banner: str) -> str:
    return f"""<!doctype html><html><body style="margin:0">
<button id=b style="position:absolute;left:800px;top:600px;width:200px;height:80px"
 onclick="fetch('/hit'); document.getElementById('out').textContent='Total: 42'">Show total</button>
<div id=out style="position:absolute;left:100px;top:100px;font-size:30px">Total: ?</div>
<div id=modal style="position:fixed;inset:0;background:rgba(0,0,0,.35)">
 <div style="position:absolute;left:700px;top:300px;zoom:1.25"><div style="position:relative">{banner}</div></div>
</div>
<script>document.querySelector('.accept')?.addEventListener('click', () => {{
  fetch('/accepted'); document.getElementById('modal').remove(); }});</script>
</body></html>"""


# Written against the 1920 x 1080 viewport sent at 1440 x 810: the button's centre.
CLICK = "Thought: press the button\nAction: click(start_box='(675,480)')"
FINISH = "Thought: the total is shown\nAction: finished(content='42')"
FIND = "Thought: where is the button now?\nAction: find_template(name='Show total')"

TABLE = """
learn = true

[[route]]
name = "cookie-banner-text"
take = "rule"
click_text = "Accept all"

[[route]]
name = "cookie-banner-picture"
take = "template"
template = "cookie_banner"
"""


@pytest.fixture(scope="module")
def site():
    pages = {"/text": _page(BANNER), "/picture": _page(BANNER_DIV), "/alone": alone("cookie_banner")}
    pages["/plain"] = _page("").replace(
        '<div id=modal style="position:fixed;inset:0;', '<div id=modal style="display:none;'
    )
    with serve_pages({**pages, "/hit": "ok", "/accepted": "ok"}) as srv:
        yield srv


async def _tables(session, site, folder: Path) -> tuple[Path, Path]:
    pg = await session.fresh_page()
    try:
        await pg.goto(site.url("/alone"))
        banner = pg.locator('[data-widget="cookie_banner"] > div > div')
        (folder / "banner.png").write_bytes(await banner.screenshot())
        b, a = await banner.bounding_box(), await banner.locator(".accept").bounding_box()
    finally:
        await pg.close()
    assert b is not None and a is not None
    fx = (a["x"] + a["width"] / 2 - b["x"]) / b["width"]
    fy = (a["y"] + a["height"] / 2 - b["y"]) / b["height"]
    templates = folder / "templates.toml"
    templates.write_text(
        f'[templates.cookie_banner]\nimage = "banner.png"\nwhat = "the cookie banner"\nclick = [{fx:.3f}, {fy:.3f}]\n'
    )
    routes = folder / "routes.toml"
    routes.write_text(TABLE)
    return templates, routes


def _steps(task_dir: Path) -> list[dict]:
    return [json.loads(line) for line in (task_dir / "trajectory.jsonl").read_text().splitlines()]


@ASYNC
@pytest.mark.parametrize(
    ("path", "by", "route"),
    [("/text", "rule", "cookie-banner-text"), ("/picture", "template", "cookie-banner-picture")],
)
async def test_the_banner_step_goes_to_the_route_and_the_model_decides_the_rest(
    session, site, tmp_path, path, by, route
):
    templates, routes = await _tables(session, site, tmp_path)
    model = ScriptedModel([CLICK, FIND, FINISH], usage=Usage(7, 1))
    task = Task(task_id="t", task="Press Show total: what is the total?", website=site.url(path))
    config = make_config(disable=["verifier"], templates=str(templates), step_routes=str(routes))
    result = await run_task(task, tmp_path / "t", model=model, config=config, session=session)
    assert result.status == "finished" and result.answer == "42"
    assert "/accepted" in site.log and "/hit" in site.log  # the banner went first, then the button
    assert model.calls == 3  # the banner's step cost no model call
    steps = _steps(tmp_path / "t")
    assert [s["route"]["by"] for s in steps] == [by, "model", "model", "model"]
    first = steps[0]
    assert first["route"]["route"] == route and "no model call" in first["route"]["reason"]
    assert first["usage"]["prompt_tokens"] == 0 and first["changed"] is True
    assert first["action"]["name"] == "click"
    if by == "template":  # the rule was tried first and said why it did not apply
        assert first["route"]["tried"] == ["cookie-banner-text: no visible button or link reads 'Accept all'"]
        assert (
            first["route"]["detail"]["score"] >= 0.75 and abs(first["route"]["detail"]["scale"] - 1.25) < 0.03
        )
    rest = steps[1]["route"]
    assert rest["route"] is None and rest["reason"].startswith("no route applied")
    assert any("used 1 time(s) already" in t for t in rest["tried"])
    assert result.usage.prompt_tokens == 21  # three model calls of 7
    # The click on "Show total" changed the page and the task names it: learnt, then found.
    assert "learnt" not in steps[1]["route"] and steps[2]["route"]["learnt"] == ["Show total"]
    assert "find_template: Show total (learnt: 'Show total', clicked at step" in steps[2]["feedback"]
    assert "found at (" in steps[2]["feedback"], steps[2]["feedback"]


def test_a_bad_table_names_the_route_and_the_key(tmp_path: Path):
    bad = {
        '[[route]]\nname = "x"\ntake = "oracle"\n': "`take` is one of rule, template, model",
        '[[route]]\nname = "x"\ntake = "rule"\n': "needs `click_text`",
        '[[route]]\nname = "x"\ntake = "model"\nmodel = "m"\nwhen = { last_outcome = "great" }\n': "'great' is not one of",
        '[[route]]\nname = "x"\ntake = "rule"\nclick_text = "a"\ntemplate = "t"\n': "unknown key(s) template",
        "[routes]\nx = 1\n": "give one or more [[route]] tables",
    }
    for text, message in bad.items():
        (tmp_path / "r.toml").write_text(text)
        with pytest.raises(
            RoutingError,
            match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[").replace("]", r"\]"),
        ):
            load_table(tmp_path / "r.toml")


@ASYNC
async def test_a_model_route_hands_the_step_after_a_success_to_another_model(session, site, tmp_path):
    # After a step that executed, a second model (a script file here) decides; the first step,
    # with no outcome yet, stays with the task's model.
    (tmp_path / "small.txt").write_text(FINISH.replace("\n", "\\n") + "\n")
    (tmp_path / "routes.toml").write_text(
        '[[route]]\nname = "small-after-success"\ntake = "model"\n'
        f'model = "script:{tmp_path / "small.txt"}"\nwhen = {{ last_outcome = "executed" }}\n'
    )
    model = ScriptedModel([CLICK], usage=Usage(7, 1))
    task = Task(task_id="m", task="What is the total?", website=site.url("/plain"))
    config = make_config(disable=["verifier"], step_routes=str(tmp_path / "routes.toml"))
    result = await run_task(task, tmp_path / "m", model=model, config=config, session=session)
    assert result.status == "finished" and result.answer == "42"
    assert model.calls == 1
    first, second = (s["route"] for s in _steps(tmp_path / "m"))
    assert first["by"] == "model" and first["route"] is None
    assert first["tried"] == ["small-after-success: the last outcome was none"]
    assert second["route"] == "small-after-success" and second["model"].startswith("script:")
    assert "the last outcome was executed" in second["reason"]
