"""Reports of hostile run and A/B folders: every link is http(s) or relative, no markup runs,
and an image or an ab.json the report cannot show is a sentence in the report, not a traceback.
The HTML is parsed (html.parser) and, for the A/B report, opened in real headless Chromium."""

from __future__ import annotations

import json
import struct
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.eval.synthetic import task, write_task, write_tasks_json
from webfovea.cli.main import app
from webfovea.eval.html import href
from webfovea.eval.report import write_report
from webfovea.eval.summary import write_summary

SCRIPT = "<script>window.__pwned = 1</script>"
HOSTILE_RUNS = [
    "javascript:alert(document.domain)//",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "//evil.example/run",
    "/etc/passwd",
    "\\\\evil\\share",
    'x" onmouseover="alert(1)',
    SCRIPT,
    "arm-a/seed-0",
]


class Audit(HTMLParser):
    """Every tag, attribute and link of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str]] = []
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for name, value in attrs:
            self.attrs.append((name, value or ""))
            if name in ("href", "src", "action", "formaction", "xlink:href"):
                self.links.append(value or "")


def audit(html_text: str) -> Audit:
    a = Audit()
    a.feed(html_text)
    return a


def assert_inert(html_text: str) -> Audit:
    a = audit(html_text)
    assert "script" not in a.tags and "iframe" not in a.tags and "object" not in a.tags
    assert not [n for n, _ in a.attrs if n.startswith("on")]
    for link in a.links:
        lowered = "".join(link.split()).lower()
        assert (
            link.startswith("#")
            or link.startswith("data:image/jpeg;base64,")
            or lowered.startswith(("http://", "https://"))
            or (":" not in link.split("/")[0] and not link.startswith(("/", "\\")))
        ), link
    return a


def _arm(runs: list[str]) -> dict:
    return {"tasks": 2, "passed": 1, "pass_rate": 0.5, "runs": runs, "spec": {"profile": SCRIPT}}


def _ab(**arms: dict) -> dict:
    return {
        "version": 1,
        "suite": SCRIPT,
        "label": SCRIPT,
        "model": SCRIPT,
        "seeds": [0],
        "arms": arms,
        "pairs": [],
    }


def test_href_keeps_only_web_and_relative_links() -> None:
    assert href("https://ok.example/a?b=1&c=2") == "https://ok.example/a?b=1&amp;c=2"
    assert href("arm-a/seed-0/report.html") == "arm-a/seed-0/report.html"
    assert href("arm a/x:y/report.html") == "arm%20a/x%3Ay/report.html"
    for bad in HOSTILE_RUNS[:10]:
        assert href(bad) is None or ":" not in href(bad), bad


@pytest.mark.asyncio(loop_scope="session")
async def test_ab_report_links_are_never_live_scripts(tmp_path: Path, session) -> None:
    (tmp_path / "ab.json").write_text(
        json.dumps(_ab(**{SCRIPT: _arm(HOSTILE_RUNS), "b": _arm(["https://ok.example/run", "b"])}))
    )
    html_text = write_report(tmp_path).read_text()
    a = assert_inert(html_text)
    assert "b/report.html" in a.links and "https://ok.example/run/report.html" in a.links
    assert "arm-a/seed-0/report.html" in a.links
    assert not any("javascript" in link.lower() or "evil" in link for link in a.links)
    assert "javascript:alert(document.domain)//" in html_text  # still shown, as text
    page = await session.fresh_page()
    try:
        await page.goto((tmp_path / "report.html").as_uri())
        protocols = await page.evaluate("[...document.querySelectorAll('a')].map(a => a.protocol)")
        assert protocols and set(protocols) <= {"file:", "https:"}
        for link in await page.locator("a").all():
            await link.hover()
        assert await page.evaluate("window.__pwned") is None
        assert await page.locator("script").count() == 0
    finally:
        await page.close()


@pytest.mark.parametrize(
    ("content", "where"),
    [
        ("{not json", "not a readable JSON file"),
        ("[]", "the top level"),
        (json.dumps({"arms": 5}), "arms: "),
        (json.dumps({"arms": {"a": {"tasks": 2, "passed": "1", "pass_rate": 0.5}}}), "arms.a.passed"),
        (json.dumps({"arms": {"a": _arm([])}, "pairs": [{"a": "a"}]}), "pairs.0.b"),
        (json.dumps({"arms": {"a": {**_arm([]), "runs": 7}}}), "arms.a.runs"),
        (json.dumps({"arms": {}, "budgets": {"max_seconds": "nan"}}), "budgets.max_seconds"),
    ],
)
def test_malformed_ab_json_is_a_report_saying_so(tmp_path: Path, content: str, where: str) -> None:
    (tmp_path / "ab.json").write_text(content)
    r = CliRunner().invoke(app, ["report", str(tmp_path)])
    assert r.exit_code == 0 and r.exception is None, r.output
    html_text = (tmp_path / "report.html").read_text()
    assert 'id="ab-error"' in html_text and where in html_text
    assert_inert(html_text)


def _png_header(width: int, height: int, idat: bytes = b"") -> bytes:
    """A PNG whose header claims width x height; the data is whatever is given (a few bytes)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def test_images_the_report_cannot_show_are_sentences(tmp_path: Path) -> None:
    run = tmp_path / "run"
    t = task("t1", "42")
    write_tasks_json(run, [t])
    step = {"thought": "x", "action": {"name": "wait", "args": {}}, "action_text": "wait()"}
    d = write_task(run, t, answer="42", steps=[step] * 5)
    write_summary(run, [t], complete=True, meta={})
    bomb = _png_header(60000, 60000, zlib.compress(b"\0" * 1000))
    (d / "step_000_marked.png").write_bytes(bomb)  # Pillow's own bomb check refuses it
    (d / "step_001_marked.png").write_bytes(_png_header(9000, 9000, zlib.compress(b"\0" * 1000)))  # 81 MP
    (d / "step_002_marked.png").write_bytes(_png_header(100, 100, b"garbage"))  # a damaged PNG
    (d / "step_003_marked.png").write_text("not an image at all")
    (tmp_path / "outside.png").write_bytes((d / "step_004.png").read_bytes())
    (d / "step_004_marked.png").unlink()
    (d / "step_004_marked.png").symlink_to(tmp_path / "outside.png")
    r = CliRunner().invoke(app, ["report", str(run)])
    assert r.exit_code == 0 and r.exception is None, r.output
    html_text = (run / "report.html").read_text()
    assert "data:image/jpeg" not in html_text  # none of the five was decoded or embedded
    notes = [" ".join(x.split()) for x in html_text.split('class="noimg">')[1:]]
    assert "could be decompression bomb" in notes[0]
    assert notes[1].startswith("screenshot not shown: 9000×9000 px, over the report&#x27;s bound")
    assert notes[2].startswith("screenshot not shown: unreadable image")
    assert notes[3].startswith("no screenshot recorded in the task folder (step_003_marked.png: not a PNG")
    assert notes[4].startswith("no screenshot recorded in the task folder (step_004_marked.png: a link out")
    assert_inert(html_text)


def test_a_task_folder_linked_out_of_the_run_is_not_read(tmp_path: Path) -> None:
    run = tmp_path / "run"
    t = task("t1", "42")
    write_tasks_json(run, [t])
    step = {"thought": "secret thought", "action": {"name": "wait", "args": {}}, "action_text": "wait()"}
    elsewhere = write_task(tmp_path / "elsewhere", t, answer="42", steps=[step])
    (run / "t1").symlink_to(elsewhere)
    write_summary(run, [t], complete=True, meta={})
    html_text = write_report(run).read_text()
    assert "data:image/jpeg" not in html_text and "secret thought" not in html_text
