"""The CLI as a user meets it: real subprocesses, real servers, clear errors, result files."""

import json
import os
import subprocess
import sys

from tests.models.fake_llm import fake_llm, openai_ok
from tests.support.servers import serve_pages
from webfovea.app import BenchOptions, run_bench

PAGE = """<html><body style="margin:0"><button style="position:absolute;left:800px;top:600px;width:200px;height:80px"
 onclick="fetch('/hit')">Go</button></body></html>"""


def cli(*args, env=None, timeout=240):
    return subprocess.run(
        [sys.executable, "-m", "webfovea.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **(env or {})},
    )


def test_help_lists_commands():
    res = cli("--help")
    assert res.returncode == 0
    for cmd in ("run", "bench", "serve", "report", "compare", "replay", "mcp"):
        assert cmd in res.stdout


def test_run_with_openai_compatible_model(tmp_path):
    replies = [
        openai_ok("Thought: go\nAction: click(start_box='<|box_start|>(675,480)<|box_end|>')"),
        openai_ok("Thought: done\nAction: finished(content='ok')"),
        # The verifier is on by default for a model that can check: it asks the same server.
        # (Without this reply the exhausted script's 500s cost ~25 s of the client's back-off.)
        openai_ok("VERDICT: accept\nREASON: the page says ok\nLOOK AT: -"),
    ]
    with serve_pages({"/": PAGE, "/hit": "ok"}) as site, fake_llm(replies) as llm:
        res = cli(
            "run",
            "--task",
            "press go",
            "--url",
            site.url("/"),
            "--model",
            "openai:m",
            "--base-url",
            llm.base_url,
            "--out",
            str(tmp_path / "t"),
        )
        assert "/hit" in site.log
    assert res.returncode == 0, res.stderr
    assert "step   1  click" in res.stdout and "step   2  finished" in res.stdout
    result = json.loads((tmp_path / "t" / "result.json").read_text())
    assert result["status"] == "finished" and result["answer"] == "ok"
    assert [v["verdict"] for v in result["verification"]["verdicts"]] == ["accept"]
    assert "note" not in result["verification"]["verdicts"][0]  # the call was answered, not failed


def test_missing_browser_is_a_clear_error_with_result_file(tmp_path):
    with serve_pages({"/": PAGE}) as site, fake_llm([]) as llm:
        res = cli(
            "run",
            "--task",
            "x",
            "--url",
            site.url("/"),
            "--model",
            "openai:m",
            "--base-url",
            llm.base_url,
            "--out",
            str(tmp_path / "t"),
            env={"WEBFOVEA_CHROME": "/nonexistent/chrome"},
        )
    assert res.returncode == 1
    assert "apt-get install -y chromium" in res.stderr and "Traceback" not in res.stderr + res.stdout
    result = json.loads((tmp_path / "t" / "result.json").read_text())
    assert result["status"] == "error" and "WEBFOVEA_CHROME" in result["error"]


def test_bad_profile_component_and_suite(tmp_path):
    res = cli(
        "run", "--task", "x", "--url", "http://127.0.0.1:9/", "--model", "openai:m", "--profile", "fast"
    )
    assert res.returncode == 2 and "unknown profile 'fast'" in res.stderr
    res = cli(
        "run", "--task", "x", "--url", "http://127.0.0.1:9/", "--model", "openai:m", "--disable", "magic"
    )
    assert res.returncode == 2 and "unknown component 'magic'" in res.stderr
    res = cli(
        "run", "--task", "x", "--url", "http://127.0.0.1:9/", "--model", "openai:m", "--observation", "dom"
    )
    assert (
        res.returncode == 2 and "unknown observation mode 'dom'" in res.stderr and "structured" in res.stderr
    )
    res = cli("bench", "nosuchsuite", "--out", str(tmp_path / "r"))
    assert res.returncode == 2 and "neither a built-in suite" in res.stderr
    assert not (tmp_path / "r").exists()
    bad = tmp_path / "tasks.json"
    bad.write_text('[{"task_id": 1, ')
    res = cli("bench", str(bad), "--out", str(tmp_path / "r"))
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert not (tmp_path / "r" / "summary.json").exists()


def test_task_file_with_unknown_proving_ground_site(tmp_path):
    f = tmp_path / "tasks.json"
    f.write_text(
        json.dumps(
            [
                {
                    "task_id": "a",
                    "task_index": 0,
                    "task": "x",
                    "website": "http://proving-ground/",
                    "site": "nosuch",
                }
            ]
        )
    )
    res = cli("bench", str(f), "--out", str(tmp_path / "r"))
    assert res.returncode == 2 and "unknown site 'nosuch'" in res.stderr
    assert not (tmp_path / "r").exists()


def test_proving_ground_placeholder_resolves():
    from webfovea.app.sites import resolve_site_url

    assert (
        resolve_site_url("http://proving-ground/stats/?a=1", "http://127.0.0.1:5")
        == "http://127.0.0.1:5/stats/?a=1"
    )
    assert resolve_site_url("https://example.org/x", "http://127.0.0.1:5") == "https://example.org/x"


def _sent_size(body: dict) -> tuple[int, int]:
    """The size of the last image in an OpenAI-style request body: what the model received."""
    import base64
    import io

    from PIL import Image

    urls = [
        part["image_url"]["url"]
        for msg in body["messages"]
        if isinstance(msg["content"], list)
        for part in msg["content"]
        if part.get("type") == "image_url"
    ]
    return Image.open(io.BytesIO(base64.b64decode(urls[-1].split(",", 1)[1]))).size


def test_bench_cap_follows_the_model_row_and_is_recorded(tmp_path):
    tasks = tmp_path / "tasks.jsonl"
    done = openai_ok("Thought: done\nAction: finished(content='ok')")
    with serve_pages({"/": PAGE, "/hit": "ok"}) as site:
        tasks.write_text(json.dumps({"task_id": "a", "task": "x", "website": site.url("/")}) + "\n")
        runs = {}
        for name, model, cap in (
            ("gpt", "openai:gpt-4o", "1920x1080"),
            ("big", "openai:llava", "1920x1080"),
            ("plain", "openai:gpt-4o", None),
        ):
            # In-process: the runs are about the cap each model gets, not the command line
            # (`--cap` itself is read by the CLI below; test_bench_only_runs… runs `bench`).
            with fake_llm([], default=done) as llm:
                bench = BenchOptions(
                    str(tasks), model=model, base_url=llm.base_url, out_dir=tmp_path / name, cap=cap
                )
                assert run_bench(bench).summary.tasks == 1
                runs[name] = (
                    _sent_size(llm.received[0].body),
                    json.loads((tmp_path / name / "run.json").read_text())["config"],
                )
    # --cap raises the bound; GPT-4o's row still lowers it to what its API keeps as is.
    assert runs["gpt"][0] == runs["plain"][0] == (1365, 768)
    assert runs["big"][0] == (1920, 1080)  # a model with no known limit gets what was asked for
    config = runs["gpt"][1]
    assert (config["conventions"], config["screenshot_cap_width"], config["screenshot_cap_height"]) == (
        "gpt-4o",
        1365,
        768,
    )
    assert runs["big"][1]["conventions"] == "default"
    res = cli("bench", str(tasks), "--cap", "big", "--out", str(tmp_path / "bad"))
    assert res.returncode == 2 and "WIDTHxHEIGHT" in res.stderr


def test_bench_only_runs_the_matching_tasks(tmp_path):
    tasks = tmp_path / "tasks.jsonl"
    done = openai_ok("Thought: done\nAction: finished(content='ok')")
    with serve_pages({"/": PAGE, "/hit": "ok"}) as site:
        tasks.write_text(
            "".join(
                json.dumps({"task_id": t, "task": "x", "website": site.url("/")}) + "\n"
                for t in ("alpha-1", "beta-1", "beta-2")
            )
        )
        with fake_llm([], default=done) as llm:
            res = cli(
                "bench",
                str(tasks),
                "--model",
                "openai:m",
                "--base-url",
                llm.base_url,
                "--only",
                "beta-*",
                "--limit",
                "1",
                "--out",
                str(tmp_path / "r"),
            )
        assert res.returncode == 0, res.stderr
        assert sorted(p.name for p in (tmp_path / "r").iterdir() if (p / "result.json").exists()) == [
            "beta-1"
        ]
        # The same command again finds every task done: it says nothing ran, and that the code
        # changed since (here the recorded code is made older, as a checkout update would).
        run_json = tmp_path / "r" / "run.json"
        run_json.write_text(run_json.read_text().replace('"code": "', '"code": "0.0.0+older-'))
        res = cli(
            "bench",
            str(tasks),
            "--model",
            "openai:m",
            "--base-url",
            "http://127.0.0.1:9",
            "--only",
            "beta-*",
            "--limit",
            "1",
            "--out",
            str(tmp_path / "r"),
        )
        assert res.returncode == 0, res.stderr
        said = " ".join(res.stderr.split())
        assert "nothing ran" in said and "all 1 tasks already had results" in said, said
        assert "The code changed since they ran (0.0.0+older-" in said, said
        res = cli(
            "bench", str(tasks), "--model", "oracle", "--only", "gamma", "--out", str(tmp_path / "none")
        )
        assert res.returncode == 2 and "matches none of the 3 tasks" in res.stderr
