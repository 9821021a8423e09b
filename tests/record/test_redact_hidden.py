"""Secrets hidden where a name-only redaction does not look: JSON inside a form field, a
query value or a JSON string, URL path parameters, provider-shaped keys in free text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.scripted import ScriptedModel as Scripted
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.record.redact import REDACTED, redact_body, redact_json, redact_text, redact_url
from webfovea.task import Task

# The module's `session` (tests/conftest.py) lives on the worker's one event loop.
ASYNC = pytest.mark.asyncio(loop_scope="session")

S = [f"H1DD3N{i}q" for i in range(10)]
AWS = "AKIAIOSFODNN7EXAMPL" + "E"
GOOGLE = "AIzaSyA-" + "1234567890abcdefghijklmnopqrstu"

PAGE = f"""<html><body style="margin:0">
<form id=f method=post action="/login;jsessionid={S[0]}">
  <input name=payload value='{{"user":"ann","password":"{S[1]}"}}'>
  <button id=go style="position:absolute;left:50px;top:50px;width:200px;height:60px">Send</button>
</form>
<script>
fetch('/api/save', {{method: 'POST', headers: {{'Content-Type': 'application/json'}},
  body: JSON.stringify({{doc: JSON.stringify({{auth: {{pwd: '{S[2]}'}}, note: 'hi'}})}})}});
fetch('/api/q?data=' + encodeURIComponent(JSON.stringify({{apiKey: '{S[3]}'}})) + '&k={AWS}');
fetch('/api/g;sessionid={S[4]}?x={GOOGLE}');
</script></body></html>"""


def leaks(folder: Path) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for f in folder.rglob("*"):
        if f.is_file():
            data = f.read_bytes()
            hits = [s for s in [*S, AWS, GOOGLE] if s.encode() in data]
            if hits:
                found[f.name] = hits
    return found


@ASYNC
async def test_no_hidden_secret_reaches_the_task_folder(session, tmp_path):
    pages = {"/": PAGE, "/api/save": "ok", "/api/q": "ok", "/api/g": "ok", "/login": "<p>in</p>"}
    with serve_pages(pages) as site:
        task = Task(task_id="h", task="x", website=site.url("/"))
        click = "Thought: t\nAction: click(start_box='<|box_start|>(150,80)<|box_end|>')"
        res = await run_task(
            task,
            tmp_path / "h",
            session=session,
            model=Scripted([click, "Thought: t\nAction: finished(content='ok')"]),
            config=make_config(),
        )
        assert any(S[0] in line for line in site.log) and any(
            AWS in line for line in site.log
        )  # they travelled
    assert res.status == "finished", res.error
    assert leaks(tmp_path / "h") == {}
    cap = json.loads((tmp_path / "h" / "capture.json").read_text())
    save = next(r for r in cap["requests"] if "/api/save" in r["url"])
    assert json.loads(save["body_json"]["doc"]) == {"auth": REDACTED, "note": "hi"}
    assert any(n["url"].endswith(f"/login;jsessionid={REDACTED}") for n in cap["navigations"])


def test_json_inside_form_fields_query_values_and_strings():
    kind, fields = redact_body(
        "payload=%7B%22user%22%3A%22ann%22%2C%22password%22%3A%22p1%22%7D&u=ann",
        "application/x-www-form-urlencoded",
    )
    assert kind == "form"
    assert fields == [["payload", json.dumps({"user": "ann", "password": REDACTED})], ["u", "ann"]]
    # JSON in a JSON string in a JSON string.
    inner = json.dumps({"cfg": json.dumps({"client_secret": "p2", "n": 1})})
    assert redact_json({"doc": inner}) == {
        "doc": json.dumps({"cfg": json.dumps({"client_secret": REDACTED, "n": 1})})
    }
    assert "p3" not in redact_url('https://x.org/?data={"refreshToken":"p3"}&q=rice')
    assert redact_url("https://x.org/?q=%7Bnot+json") == "https://x.org/?q=%7Bnot+json"
    assert redact_json({"list": '[{"passwd": "p4"}]'}) == {"list": json.dumps([{"passwd": REDACTED}])}
    assert redact_json({"plain": "{ just braces"}) == {"plain": "{ just braces"}


def test_path_parameters_and_derived_names():
    assert (
        redact_url("https://x.org/cart;jsessionid=AB12?id=3")
        == f"https://x.org/cart;jsessionid={REDACTED}?id=3"
    )
    assert redact_url("https://x.org/a;PHPSESSID=z/b;v=2;authToken=t") == (
        f"https://x.org/a;PHPSESSID={REDACTED}/b;v=2;authToken={REDACTED}"
    )
    assert redact_url("https://x.org/?newPassword=a&x_csrftoken=b&keyword=rice") == (
        f"https://x.org/?newPassword={REDACTED}&x_csrftoken={REDACTED}&keyword=rice"
    )
    assert redact_url("https://x.org/a;b/c") == "https://x.org/a;b/c"


def test_free_text_pairs_and_provider_keys():
    assert (
        redact_text('HTTP 500 {"user":"ann","password":"p5"}')
        == f'HTTP 500 {{"user":"ann","password":"{REDACTED}"}}'
    )
    escaped = r'sent "{\"pin\":\"1234\",\"q\":1}"'
    assert redact_text(escaped) == r'sent "{\"pin\":\"' + REDACTED + r'\",\"q\":1}"'
    assert redact_text("login failed: password=p6; ;jsessionid=p7 user=ann") == (
        f"login failed: password={REDACTED}; ;jsessionid={REDACTED} user=ann"
    )
    assert redact_text(f"keys {AWS} and {GOOGLE}.") == f"keys {REDACTED} and {REDACTED}."
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
    assert redact_text(f"cookie was {jwt}") == f"cookie was {REDACTED}"
    assert redact_text("x ghp_" + "a" * 36 + " github_pat_" + "B" * 30) == f"x {REDACTED} {REDACTED}"
    pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----"
    assert redact_text(f"leaked {pem} here") == f"leaked {REDACTED} here"
    # Notes stay readable: a pressed key, a typed word, a statistic's code.
    for note in ("Pressed key: Enter", "Typed 'monkey' into the search box", "code=HS8517 year=2023"):
        assert redact_text(note) == note
