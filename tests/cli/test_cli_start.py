"""What a `webfovea` process imports before it does anything: the command line's start is paid by
every CLI a user or a test starts, so `webfovea --help` and the commands that do not judge never
load the judge catalogue (every judge method, the evidence filters, the action catalogue and
Playwright with them); `webfovea judge …` loads it when it runs (webfovea/cli/lazy.py)."""

from __future__ import annotations

import json
import subprocess
import sys

# Heavy, and needed by none of `--help`, `bench`'s option parsing, `report`, `compare`, `models`.
NOT_AT_START = ("playwright", "webfovea.judge.catalog", "webfovea.actions.catalog", "webfovea.harness")

# One process: the CLI with ARGS in-process, then the names of the modules it had imported.
PROBE = """
import json, sys
from webfovea.cli.main import app
try:
    app(sys.argv[1:], prog_name="webfovea")
except SystemExit:
    pass
print("\\n" + json.dumps(sorted(sys.modules)))
"""


def _modules_after(*args: str) -> tuple[str, set[str]]:
    res = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120)
    out, _, last = res.stdout.rstrip().rpartition("\n")
    return out + res.stderr, set(json.loads(last))


def _loaded(modules: set[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ".") for m in modules)


def test_help_lists_every_command_without_the_judge_catalogue() -> None:
    text, modules = _modules_after("--help")
    assert [m for m in NOT_AT_START if _loaded(modules, m)] == []
    for cmd in ("run", "bench", "replay", "ab", "export", "view", "judge"):
        assert f" {cmd} " in text, text
    assert "Judge runs (NavEval" in text  # the lazy group's short help


def test_judge_loads_its_catalogue_when_it_runs() -> None:
    text, modules = _modules_after("judge", "run", "--help")
    assert _loaded(modules, "webfovea.judge.catalog")
    # --method's help is the catalogue's: every built-in method by name.
    for method in ("naveval", "webjudge", "rule"):
        assert f"{method}:" in text, text
    text, _ = _modules_after("jugde")
    assert "Did you mean 'judge'?" in text
