"""Routing (models/routes.py): a routes.toml gives each role its model; run.json, result.json and
summary.json say which model each role used and what it cost; a bad file is refused naming its
key; the look role routed to a second model (a fake OpenAI-compatible server on loopback) really
gets the look calls, and an option wins over the file's line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.models.fake_llm import fake_llm, openai_ok
from tests.support.servers import serve_pages
from webfovea.app import AppError, BenchOptions, run_bench
from webfovea.app.config import routed
from webfovea.models.routes import RoutesError, load_routes


def _toml(tmp_path: Path, text: str, name: str = "routes.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_act_oracle_and_summarise_rule_are_recorded_per_role(tmp_path: Path) -> None:
    routes = _toml(tmp_path, 'act = "oracle"\nsummarise = "rule"\n')
    run = tmp_path / "run"
    result = run_bench(
        BenchOptions("builtin", model=None, only="stats-select-01-vn", models=routes, out_dir=run)
    )
    assert result.summary.passed == 1
    info = json.loads((run / "run.json").read_text())
    assert info["model"] == "oracle"
    assert info["routes"] == {
        "act": {"model": "oracle", "via": "own"},
        "look": {"model": "oracle", "via": "act"},
        "verify": {"model": "oracle", "via": "act"},
        "summarise": {"model": None, "via": "rule"},
    }
    assert info["config"]["summary_model"] == "rule"
    task = json.loads((run / "stats-select-01-vn" / "result.json").read_text())
    assert task["routes"] == info["routes"] and task["summary_usage"] is None
    roles = json.loads((run / "summary.json").read_text())["roles"]
    steps = task["steps"]
    assert roles["act"]["calls"] == steps and roles["act"]["tokens"]["price_units"] > 0
    assert roles["summarise"]["via"] == "rule" and roles["summarise"]["calls"] == 0
    # The verifier's tokens are the verify role's, counted once (summary.json verifier_tokens).
    summary = json.loads((run / "summary.json").read_text())
    assert roles["verify"]["calls"] == summary["verifier_tokens"]["steps"] >= 1
    assert roles["verify"]["tokens"] == summary["verifier_tokens"]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('act = "oracle"\nsumarise = "rule"\n', "unknown role 'sumarise'; the roles are act, look, verify"),
        ('look = "rule"\n', 'look: "rule" is not a route for look (a rule answers only: summarise)'),
        ("verify = 3\n", "verify: give a model spec"),
        ('look = {model = "oracle", url = "x"}\n', "look: unknown key(s) url; a route has model, base_url"),
        ("act = [oops\n", "not a TOML file"),
    ],
)
def test_a_bad_routes_file_names_the_file_and_the_key(tmp_path: Path, text: str, named: str) -> None:
    path = _toml(tmp_path, text)
    with pytest.raises(RoutesError) as e:
        load_routes(path)
    assert str(e.value).startswith(str(path)) and named in str(e.value)
    with pytest.raises(AppError, match="^--models: "):  # the Python API, before any browser starts
        run_bench(BenchOptions("builtin", models=path, out_dir=tmp_path / "never"))
    assert not (tmp_path / "never").exists()


def test_the_command_line_refuses_a_bad_routes_file_with_the_key(tmp_path: Path) -> None:
    path = _toml(tmp_path, 'act = "oracle"\nlocate = "oracle"\n')
    res = subprocess.run(
        [
            sys.executable,
            "-m",
            "webfovea.cli",
            "bench",
            "builtin",
            "--models",
            str(path),
            "--out",
            str(tmp_path / "r"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        res.returncode == 2
        and "unknown role 'locate'" in res.stderr
        and str(path) in res.stderr.replace("\n", "")
    )


def test_options_win_over_the_file(tmp_path: Path) -> None:
    routes = _toml(
        tmp_path,
        'act = "openai:file-act"\nlook = {model = "oracle", base_url = "http://127.0.0.1:9/v1"}\n'
        'summarise = "rule"\nverify = "oracle"\n',
    )
    o = routed(BenchOptions("builtin", model="oracle", summary_model="oracle", models=routes))
    assert (o.model, o.base_url) == ("oracle", None)  # --model given: the file's act is not used
    assert (o.vision_model, o.vision_base_url) == ("oracle", "http://127.0.0.1:9/v1")  # from the file
    assert o.summary_model == "oracle" and o.verifier == "oracle"
    assert routed(BenchOptions("builtin")).model == "oracle"  # neither: the default act
    # Only --base-url given: the file's act model at the option's URL.
    o = routed(BenchOptions("builtin", base_url="http://127.0.0.1:8/v1", models=routes))
    assert (o.model, o.base_url) == ("openai:file-act", "http://127.0.0.1:8/v1")


PAGE = """<html><body style="margin:0;height:2400px"><div id=count>0</div>
<div style="position:absolute;left:860px;top:490px;width:200px;height:100px;background:#d22">Target</div>
</body></html>"""


def _run(tmp_path: Path, routes: Path, site_url: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "webfovea.cli",
            "run",
            "--task",
            "what colour is the box",
            "--url",
            site_url,
            "--observation",
            "structured",
            "--models",
            str(routes),
            "--out",
            str(tmp_path / "t"),
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "OPENAI_API_KEY": "k"},
    )


@pytest.mark.parametrize("by_option", [False, True], ids=["file", "option-over-file"])
def test_the_look_role_routed_to_a_second_model_gets_the_look_calls(tmp_path: Path, by_option: bool) -> None:
    main = [
        openai_ok("Thought: read it\nAction: look(question='What colour is the box?')", 1000, 20),
        openai_ok("Thought: done\nAction: finished(content='red')", 1000, 20),
    ]
    with (
        serve_pages({"/": PAGE}) as site,
        fake_llm(main) as llm,
        fake_llm([openai_ok("The box is red.", 650, 5)]) as vlm,
    ):
        # By option: the file's look goes to a port nothing listens on, --vision-model wins.
        look = "http://127.0.0.1:9/v1" if by_option else vlm.base_url
        routes = _toml(
            tmp_path,
            f'act = {{model = "openai:main-model", base_url = "{llm.base_url}"}}\n'
            f'look = {{model = "openai:file-vision", base_url = "{look}"}}\nverify = "openai:main-model"\n',
        )
        extra = (
            ("--vision-model", "openai:vision-model", "--vision-base-url", vlm.base_url) if by_option else ()
        )
        res = _run(tmp_path, routes, site.url("/"), "--disable", "verifier", *extra)
        assert res.returncode == 0, res.stderr + res.stdout
        main_bodies, vision_bodies = [r.body for r in llm.received], [r.body for r in vlm.received]
    assert [b["model"] for b in main_bodies] == ["main-model", "main-model"]
    assert [b["model"] for b in vision_bodies] == ["vision-model" if by_option else "file-vision"]
    assert "What colour" in json.dumps(vision_bodies[0]) and "The box is red." in json.dumps(main_bodies[1])
    result = json.loads((tmp_path / "t" / "result.json").read_text())
    assert result["answer"] == "red" and result["vision_usage"]["prompt_tokens"] == 650
    assert result["routes"]["look"] == {
        "model": "openai:vision-model" if by_option else "openai:file-vision",
        "via": "own",
    }
    assert (
        result["routes"]["act"]["model"] == "openai:main-model" and result["routes"]["verify"]["via"] == "off"
    )
