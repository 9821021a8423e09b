"""upload: files of the task's workspace reach the server through a styled file field (a label
over a hidden input, as real sites build it), also by reference; names that leave the workspace
and fields that are not there are refused with a note."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.feedback.conftest import at, centre
from tests.support.servers import serve_pages
from webfovea.config import make_config
from webfovea.execution.forms import set_files_at
from webfovea.harness import Harness

pytestmark = pytest.mark.asyncio(loop_scope="session")

FORM = """<!doctype html><html><body>
<form id=f method=post action="/upload" enctype="multipart/form-data">
  <label id=pick style="display:inline-block;padding:12px 24px;background:#36c;color:#fff;font-size:22px">
    Choose files<input id=file name=attachment type=file multiple style="display:none"></label>
  <p id=chosen>no file</p>
  <button id=send style="font-size:22px">Send</button>
</form>
<p id=plain style="font-size:22px">Just text</p>
<script>
document.getElementById('file').addEventListener('change', (e) => {
  document.getElementById('chosen').textContent = [...e.target.files].map(f => f.name + ':' + f.size).join(', ');
});
</script></body></html>"""


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "workspace"
    ws.mkdir()
    (ws / "report.csv").write_text("country,value\nVN,3.4\n")
    (ws / "cover.txt").write_text("Dear team")
    (tmp_path / "secret.txt").write_text("outside")
    (ws / "link.txt").symlink_to(tmp_path / "secret.txt")
    return ws


async def _harness(session, url: str, **cfg) -> Harness:  # noqa: ANN001
    h = await Harness.on_page(await session.fresh_page(), make_config(**cfg))
    await h.goto(url)
    await h.observe()
    return h


async def test_files_reach_the_server_through_a_styled_field(session, workspace: Path) -> None:
    with serve_pages({"/": FORM, "/upload": "thanks"}) as srv:
        h = await _harness(session, srv.url("/"), workspace=str(workspace))
        assert "upload" in {s.name for s in h.specs}
        res = await h.step(
            f"Thought: attach\nAction: upload(start_box={at(h, await centre(h, '#pick'))}, files='report.csv; cover.txt')"
        )
        assert res.executed is not None and res.executed.outcome.ok, res.feedback
        assert await h.page.inner_text("#chosen") == "report.csv:21, cover.txt:9"
        assert "'report.csv' (21 bytes)" in res.feedback
        await h.observe()
        await h.step(f"Thought: send\nAction: click(start_box={at(h, await centre(h, '#send'))})")
        (path, body), *_ = srv.bodies
        assert path == "/upload" and b'filename="report.csv"' in body and b"VN,3.4" in body
        assert b"Dear team" in body


async def test_by_reference_in_the_structured_mode(session, workspace: Path) -> None:
    import re

    with serve_pages({"/": FORM}) as srv:
        h = await _harness(session, srv.url("/"), workspace=str(workspace), observation="structured")
        snapshot = (h.last.snapshot or "") if h.last is not None else ""
        ref = re.search(r"\[ref=(e\d+)\][^\n]*Choose files", snapshot)
        assert ref, snapshot
        res = await h.step(f"Thought: attach\nAction: upload(ref='{ref[1]}', files='cover.txt')")
        assert res.executed is not None and res.executed.outcome.ok, res.feedback
        assert await h.page.inner_text("#chosen") == "cover.txt:9"


async def test_refusals_say_why_and_touch_nothing(session, workspace: Path, tmp_path: Path) -> None:
    with serve_pages({"/": FORM}) as srv:
        h = await _harness(session, srv.url("/"), workspace=str(workspace))
        pick = at(h, await centre(h, "#pick"))
        for files, why in (
            ("../secret.txt", "outside the workspace"),
            ("link.txt", "outside the workspace"),  # a symbolic link pointing out
            (str(tmp_path / "secret.txt"), "outside the workspace"),
            ("missing.pdf", "no file 'missing.pdf'"),
        ):
            res = await h.step(f"Thought: t\nAction: upload(start_box={pick}, files='{files}')")
            assert "upload refused" in res.feedback and why in res.feedback, res.feedback
            assert "report.csv" in res.feedback  # what the workspace has
            await h.observe()
        assert await h.page.inner_text("#chosen") == "no file"
        res = await h.step(
            f"Thought: t\nAction: upload(start_box={at(h, await centre(h, '#plain'))}, files='cover.txt')"
        )
        assert "opened no file chooser" in res.feedback and "Just text" in res.feedback


async def test_offered_only_with_a_workspace(session) -> None:
    with serve_pages({"/": FORM}) as srv:
        h = await _harness(session, srv.url("/"))
        assert "upload" not in {s.name for s in h.specs}
        res = await h.step("Thought: t\nAction: upload(start_box='(10,10)', files='x')")
        assert res.outcome == "rejected"
        h2 = await _harness(session, srv.url("/"), workspace="/tmp", profile="paper")
        assert "upload" not in {s.name for s in h2.specs}  # not the paper's action


async def test_files_given_straight_to_the_field_at_a_point_reach_the_server(
    session, workspace: Path
) -> None:
    # The path upload takes when Chromium opens no chooser for the click: the field the point
    # names (through its label) gets the files from the isolated world, the page's change
    # listener runs, and the form sends them; a point on no file field changes nothing.
    with serve_pages({"/": FORM, "/upload": "thanks"}) as srv:
        page = await session.fresh_page()
        await page.goto(srv.url("/"))
        box = await page.locator("#plain").bounding_box()
        assert box is not None
        assert await set_files_at(page, box["x"] + 5, box["y"] + 5, [str(workspace / "cover.txt")])
        assert await page.evaluate("document.getElementById('file').files.length") == 0
        box = await page.locator("#pick").bounding_box()
        assert box is not None
        assert await set_files_at(page, box["x"] + 5, box["y"] + 5, [str(workspace / "cover.txt")]) == ""
        assert await page.inner_text("#chosen") == "cover.txt:9"
        async with page.expect_navigation():
            await page.click("#send")
        (path, body), *_ = srv.bodies
        assert path == "/upload" and b'filename="cover.txt"' in body and b"Dear team" in body
