"""Real sites by default, offline by choice: a name other than localhost is reachable unless offline."""

import json
import os
import shlex
import subprocess
import sys

from tests.models.fake_llm import fake_llm, openai_ok
from tests.support.servers import serve_pages
from webfovea.browser.session import OFFLINE_RULES, launch_args

PAGE = """<html><body style="margin:0"><button style="position:absolute;left:800px;top:600px;width:200px;height:80px"
 onclick="fetch('/hit')">Go</button></body></html>"""
REPLIES = [
    openai_ok("Thought: go\nAction: click(start_box='<|box_start|>(675,480)<|box_end|>')"),
    openai_ok("Thought: done\nAction: finished(content='ok')"),
    # The verifier (on by default) asks the same server; an exhausted script's 500s cost ~25 s.
    openai_ok("VERDICT: accept\nREASON: the page says ok\nLOOK AT: -"),
]
# The test maps a name of its own; webfovea has no such default.
MAP_NAME = "--host-resolver-rules=MAP test.example 127.0.0.1"
MAP_ENV = shlex.quote(MAP_NAME)  # WEBFOVEA_CHROME_ARGS is split like a shell line


def cli(*args, env):
    return subprocess.run(
        [sys.executable, "-m", "webfovea.cli", *args],
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ, **env},
    )


def test_run_reaches_a_named_site_when_not_offline(tmp_path):
    with serve_pages({"/": PAGE, "/hit": "ok"}) as site, fake_llm(REPLIES) as llm:
        url = site.url("/", host="test.example")
        res = cli(
            "run",
            "--task",
            "press go",
            "--url",
            url,
            "--model",
            "openai:m",
            "--base-url",
            llm.base_url,
            "--out",
            str(tmp_path / "t"),
            env={"WEBFOVEA_OFFLINE": "", "WEBFOVEA_CHROME_ARGS": MAP_ENV},
        )
        assert "/hit" in site.log, res.stdout + res.stderr  # the page on test.example really got the click
    assert res.returncode == 0, res.stderr
    result = json.loads((tmp_path / "t" / "result.json").read_text())
    assert result["status"] == "finished" and result["answer"] == "ok"


def test_offline_flag_resolves_no_other_name(tmp_path):
    with serve_pages({"/": PAGE, "/hit": "ok"}) as site, fake_llm(REPLIES) as llm:
        url = site.url("/", host="test.example")
        res = cli(
            "run",
            "--task",
            "press go",
            "--url",
            url,
            "--model",
            "openai:m",
            "--base-url",
            llm.base_url,
            "--out",
            str(tmp_path / "t"),
            "--offline",
            env={"WEBFOVEA_OFFLINE": ""},
        )
        assert site.log == []  # nothing reached the server behind the name
    assert res.returncode == 1
    result = json.loads((tmp_path / "t" / "result.json").read_text())
    assert result["status"] == "error" and "ERR_NAME_NOT_RESOLVED" in result["error"]


def test_resolver_rules_are_merged_into_one_flag(monkeypatch):
    monkeypatch.setenv("WEBFOVEA_CHROME_ARGS", MAP_ENV + " --lang=fr")
    online, offline = launch_args(False), launch_args(True)
    assert "--lang=fr" in online and [a for a in online if "host-resolver" in a] == [MAP_NAME]
    rules = [a for a in offline if "host-resolver" in a]
    assert rules == [f"{MAP_NAME}, {OFFLINE_RULES}"]  # Chromium keeps only the last such flag
    monkeypatch.delenv("WEBFOVEA_CHROME_ARGS")
    assert not any("host-resolver" in a for a in launch_args(False))
