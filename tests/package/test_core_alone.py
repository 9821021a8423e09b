"""The harness without its benchmarks: with the proving ground, BreakingWeb and their web framework
and PDF writer unimportable (as in `pip install webfovea` alone), `webfovea run` still drives a real
page on loopback with a loopback OpenAI-compatible model, the inventory still lists the harness's
own registries, and a command that needs the proving ground says how to install it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.models.fake_llm import fake_llm, openai_ok
from tests.support.servers import serve_pages

ROOT = Path(__file__).resolve().parents[2]
# numpy: only the perceptual change detection needs it (feedback/watch.py imports it then), and
# importing it cost every worker and CLI process ~0.2 s of CPU.
ABSENT = ("fastapi", "fontTools", "fpdf", "numpy", "webfovea_proving_ground", "webfovea_breakingweb")

# Loaded at interpreter start (a `sitecustomize` on PYTHONPATH): these modules cannot be imported.
BLOCKER = f"""
import importlib.abc, sys
ABSENT = {ABSENT!r}
class _Absent(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ABSENT:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None
sys.meta_path.insert(0, _Absent())
"""

PAGE = "<html><body><h1>Quarterly report</h1><p id=v>Revenue: 42 million</p></body></html>"


@pytest.fixture
def alone(tmp_path: Path) -> dict[str, str]:
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(BLOCKER)
    path = os.pathsep.join([str(site), str(ROOT)])
    return {**os.environ, "PYTHONPATH": path, "OPENAI_API_KEY": "sk-local-test", "COLUMNS": "200"}


def _run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, timeout=240, cwd=ROOT, env=env
    )


def test_the_blocker_really_blocks(alone: dict[str, str]) -> None:
    res = _run(alone, "-c", "import fastapi")
    assert res.returncode != 0 and "No module named 'fastapi'" in res.stderr


def test_run_on_a_real_page_without_the_benchmarks(alone: dict[str, str], tmp_path: Path) -> None:
    replies = [
        openai_ok("Thought: the revenue is on the page\nAction: finished(content='42 million')"),
        openai_ok("VERDICT: accept\nREASON: the page says 42 million\nLOOK AT: -"),
    ]
    with serve_pages({"/": PAGE}) as site, fake_llm(replies) as llm:
        res = _run(
            alone, "-m", "webfovea.cli", "run", "--task", "What is the revenue?", "--url", site.url("/"),
            "--model", "openai:gpt-4o", "--base-url", llm.base_url, "--out", str(tmp_path / "one"),
        )  # fmt: skip
    assert res.returncode == 0, res.stderr[-3000:]
    result = json.loads((tmp_path / "one" / "result.json").read_text())
    assert result["status"] == "finished" and result["answer"] == "42 million"
    inventory = _run(alone, "-m", "webfovea.cli", "plugins", "--json")
    assert inventory.returncode == 0, inventory.stderr[-2000:]
    kinds = {r["kind"]: [i["name"] for i in r["items"]] for r in json.loads(inventory.stdout)["registries"]}
    assert (
        "click" in kinds["action"] and "naveval" in kinds["judge method"] and "openai" in kinds["model kind"]
    )
    needs = _run(
        alone,
        "-m",
        "webfovea.cli",
        "bench",
        "builtin",
        "--model",
        "openai:gpt-4o",
        "--out",
        str(tmp_path / "b"),
    )
    assert needs.returncode != 0
    said = " ".join((needs.stdout + needs.stderr).split())
    assert (
        "the suite 'builtin' cannot be loaded" in said and "No module named 'webfovea_proving_ground'" in said
    )
    assert "the proving ground is not installed" in said and "packages/webfovea-proving-ground" in said
