"""One redaction for everything written: no secret string appears in any file of a task folder."""

import json
from pathlib import Path

import pytest

from tests.eval.synthetic import task as synthetic_task
from tests.eval.synthetic import write_task
from tests.support.scripted import ScriptedModel as Scripted
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.eval.report import render_report
from webfovea.record.redact import REDACTED, multipart_fields, redact_text, redact_url
from webfovea.task import Task

# The module's `session` (tests/conftest.py) lives on the worker's one event loop.
ASYNC = pytest.mark.asyncio(loop_scope="session")

S = [f"S3CR3T{i}x" for i in range(12)]  # each secret is unique, so a leak names its source

PAGE = f"""<html><body style="margin:0">
<a id=go href="/next?pin={S[0]}&year=2024#access_token={S[1]}&token_type=bearer"
   style="position:absolute;left:100px;top:100px;font-size:30px">next</a>
<script>
const fd = new FormData(); fd.append('user', 'ann'); fd.append('password', '{S[2]}');
fd.append('upload', new Blob(['{S[3]}'], {{type: 'text/plain'}}), 'notes.txt');
fetch('BASE/api/multipart?pw={S[4]}', {{method: 'POST', body: fd}});
fetch('BASE/api/json', {{method: 'POST', headers: {{'Content-Type': 'application/json', 'X-Api-Key': '{S[5]}'}},
  body: JSON.stringify({{query: 'rice', auth: {{sessionToken: '{S[6]}'}}}})}});
fetch('BASE/oauth/cb?code={S[7]}&state=abc');
fetch('BASE/stats?code=HS8517&year=2023');
</script></body></html>"""
NEXT = "<html><body><p>next page</p></body></html>"


def leaks(folder: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for f in folder.rglob("*"):
        if f.is_file():
            data = f.read_bytes()
            hits = [s for s in S if s.encode() in data]
            if hits:
                found[f.name] = hits
    return found


@ASYNC
async def test_no_secret_in_any_file_of_the_task_folder(session, tmp_path):
    pages = {
        "/": PAGE,
        "/next": NEXT,
        "/api/multipart": "ok",
        "/api/json": "ok",
        "/oauth/cb": "ok",
        "/stats": "ok",
    }
    with serve_pages(pages) as site:
        pages["/"] = PAGE.replace(
            "BASE", site.url("").rstrip("/")
        )  # credentials in the page URL: no relative fetch
        start = site.url(f"/?api_key={S[8]}&session_token={S[9]}")
        task = Task(task_id="r", task="x", website=start.replace("http://", f"http://ann:{S[10]}@"))
        click = "Thought: t\nAction: click(start_box='<|box_start|>(90,86)<|box_end|>')"
        res = await run_task(
            task,
            tmp_path / "r",
            session=session,
            model=Scripted([click, "Thought: t\nAction: finished(content='ok')"]),
            config=make_config(),
        )
        assert any("/next?pin=" in p for p in site.log)  # the secrets really travelled
    assert res.status == "finished"
    assert leaks(tmp_path / "r") == {}
    cap = json.loads((tmp_path / "r" / "capture.json").read_text())
    multipart = next(r for r in cap["requests"] if "/api/multipart" in r["url"])
    assert multipart["body_kind"] == "multipart"
    assert multipart["body_params"] == [
        ["user", "ann"],
        ["password", REDACTED],
        ["upload", "[file notes.txt]"],
    ]
    assert ["code", "HS8517"] in next(r for r in cap["requests"] if "/stats" in r["url"])["query_params"]
    assert ["code", REDACTED] in next(r for r in cap["requests"] if "/oauth/cb" in r["url"])["query_params"]
    (tmp_path / "r" / "report.html").write_text(render_report(tmp_path))
    assert leaks(tmp_path) == {}


@ASYNC
async def test_a_model_error_never_echoes_credentials(session, tmp_path):
    with serve_pages({"/": NEXT}) as site:
        task = Task(task_id="m", task="x", website=site.url("/"))
        res = await run_task(
            task,
            tmp_path / "m",
            session=session,
            model="openai:m",
            config=make_config(),
            base_url=f"https://ann:{S[10]}@api.example.invalid/v1?key={S[11]}",
            model_options={"max_attempts": 1, "budget_s": 3},
        )
    assert res.status in ("model_error", "error")
    assert leaks(tmp_path / "m") == {} and not any(s in (res.error or "") for s in S)


def test_redaction_rules():
    assert redact_url(f"https://u:{S[0]}@x.org/a?apiKey={S[1]}&keyword=rice#id_token={S[2]}") == (
        f"https://x.org/a?apiKey={REDACTED}&keyword=rice#id_token={REDACTED}"
    )
    assert redact_url("https://x.org/#section-2") == "https://x.org/#section-2"
    assert redact_url("https://x.org/?code=1&state=2") == f"https://x.org/?code={REDACTED}&state=2"
    assert redact_url("https://x.org/?code=1") == "https://x.org/?code=1"
    assert (
        redact_text(
            f"HTTP 401 from http://a:{S[0]}@h/v1?key={S[1]} (Authorization: Bearer sk-abcdefghijklmnop1234)"
        )
        == f"HTTP 401 from http://h/v1?key={REDACTED} (Authorization: Bearer {REDACTED})"
    )
    body = '--b\r\nContent-Disposition: form-data; name="pin"\r\n\r\n1234\r\n--b--\r\n'
    assert multipart_fields(body, "multipart/form-data; boundary=b") == [("pin", "1234")]


def test_report_embeds_only_images_inside_the_task_folder(tmp_path):
    outside = tmp_path / "private.png"
    from PIL import Image

    Image.new("RGB", (40, 20), (1, 2, 3)).save(outside)
    t = synthetic_task("t1", "42")
    d = write_task(
        tmp_path / "run",
        t,
        answer="42",
        steps=[{"thought": "x", "action": {"name": "wait", "args": {}}, "action_text": "wait()"}],
    )
    line = json.loads((d / "trajectory.jsonl").read_text())
    for name, value in (("abs", str(outside)), ("rel", "../../private.png")):
        line["screenshot"] = line["screenshot_marked"] = value
        (d / "trajectory.jsonl").write_text(json.dumps(line) + "\n")
        html = render_report(tmp_path / "run")
        assert "data:image/jpeg" not in html and "no screenshot recorded" in html, name


@pytest.fixture(autouse=True)
def _no_env_key(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
