"""The model-kind registry (built-ins, the oracle's entry point, plug-ins) and the
conventions-derived config (rules of the rows, cap bound and overrides, what a run records)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from webfovea.models.conventions import conventions_by_family, conventions_for
from webfovea.models.endpoint import ModelConfigError, resolve_api_key
from webfovea.models.factory import describe_specs, make_model, registered_kinds
from webfovea.observation.sizing import harness_config, parse_cap
from webfovea.task import Task

ROOT = Path(__file__).resolve().parents[2]


def _python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, **env},
    )


# -- the rows' rules ----------------------------------------------------------------------


def test_claude_rule_trigger_and_landing():
    claude = conventions_by_family("claude")
    assert claude.fits(1456, 816)  # 1.19 MP, ~1,584 tokens: below the trigger
    w, h = claude.provider_size(1470, 830)  # 1.22 MP: resized, and lands below 1.15 MP
    assert w * h <= 1_150_000 and abs(w / h - 1470 / 830) < 0.01
    assert claude.provider_size(1920, 1080) == (1430, 804)  # what the oracle always saw
    assert claude.provider_size(1600, 700)[0] == 1568  # long-edge rule alone


def test_qwen_rule_is_smart_resize():
    qwen = conventions_by_family("qwen2.5-vl")
    assert qwen.provider_size(1440, 810) == (1428, 812)  # rounded to the 28 px grid
    assert qwen.fits(1344, 756) and not qwen.fits(1440, 810)
    assert conventions_by_family("qwen-vl-norm1000").provider_size(1440, 810) == (1440, 800)  # Qwen3: 32 px
    w, h = qwen.provider_size(5000, 5000)
    assert w % 28 == 0 and h % 28 == 0 and w * h <= 16384 * 28 * 28


def test_unknown_family_lists_the_rows():
    with pytest.raises(ValueError, match="known: .*claude.*default"):
        conventions_by_family("llama")


# -- the config a model spec gives ------------------------------------------------------


def test_config_records_row_and_cap_and_stays_serialisable():
    default = harness_config()
    assert (default.conventions, default.screenshot_cap_width, default.screenshot_cap_height) == (
        "default",
        1440,
        810,
    )
    assert harness_config(model="oracle").model_dump() == default.model_dump()  # oracle runs unchanged
    gpt = harness_config(model="openai:gpt-4o")
    dumped = json.loads(gpt.model_dump_json())
    assert dumped["conventions"] == "gpt-4o" and (
        dumped["screenshot_cap_width"],
        dumped["screenshot_cap_height"],
    ) == (1365, 768)
    # The oracle imitating a provider gets that provider's row, as the real model would.
    assert harness_config(model="oracle:seed=2,provider=gpt-4o").conventions == "gpt-4o"
    assert conventions_for("oracle:provider=claude").family == "claude"


def test_overrides_win():
    # --coords wins over the row's space.
    assert harness_config(model="openai:gemini-2.5-pro").coordinate_convention == "norm999"
    assert (
        harness_config(model="openai:gemini-2.5-pro", coordinate_convention="pixels").coordinate_convention
        == "pixels"
    )
    # An explicit cap is taken as it is, even past what the provider accepts.
    raw = harness_config(model="openai:gpt-4o", screenshot_cap_width=1920, screenshot_cap_height=1080)
    assert (raw.screenshot_cap_width, raw.screenshot_cap_height) == (1920, 1080)
    # --cap raises the bound; the row still lowers it.
    assert harness_config(model="openai:gpt-4o", cap="1920x1080").screenshot_cap_height == 768
    assert harness_config(model="anthropic:claude-x", cap="1920×1080").screenshot_cap_width == 1460
    small = harness_config(model="openai:llava", cap="800x450")
    assert (small.screenshot_cap_width, small.screenshot_cap_height) == (800, 450)
    with pytest.raises(ValueError, match="not both"):
        harness_config(cap="800x450", screenshot_cap_width=100)
    with pytest.raises(ValueError, match="unknown coordinate convention"):
        harness_config(coordinate_convention="percent")
    for bad in ("1920", "0x10", "wide"):
        with pytest.raises(ValueError, match="WIDTHxHEIGHT"):
            parse_cap(bad)


# -- the registry -------------------------------------------------------------------------


def test_registry_lists_kinds_and_errors_name_them():
    assert {"oracle", "replay", "openai", "anthropic"} <= set(registered_kinds())
    with pytest.raises(ModelConfigError, match="registered kinds: .*oracle") as info:
        make_model("llama:7b")
    assert "oracle:KEY=VAL" in str(info.value)
    for kind in registered_kinds():
        assert kind in describe_specs()
    with pytest.raises(ModelConfigError, match="needs a proving-ground task"):
        make_model("oracle")
    with pytest.raises(ModelConfigError, match="unknown conventions family 'llama'"):
        make_model("oracle:provider=llama", task=Task(task_id="t", task="x", website="http://x/"))


def test_oracle_registers_through_its_entry_point_in_a_fresh_process():
    """A spawned worker that only calls make_model('oracle') gets the oracle; the factory
    itself never imports the proving ground."""
    res = _python("""
        import sys
        from webfovea.models.factory import make_model
        from webfovea.task import Task
        before = 'webfovea_proving_ground.oracle.model' in sys.modules
        m = make_model("oracle:provider=gpt-4o,seed=3", task=Task(task_id="t", task="x", website="http://x/"))
        print(before, type(m).__module__, type(m).__name__, m.provider.family)
    """)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == ["False", "webfovea_proving_ground.oracle.model", "OracleModel", "gpt-4o"]


def test_plugin_kind_from_an_installed_distribution(tmp_path):
    """A user's package adds a kind through the same entry point group; a broken one is
    reported without hiding the others."""
    (tmp_path / "echo_kind.py").write_text(
        textwrap.dedent("""
        from webfovea.models.base import ModelReply, Usage
        from webfovea.models.factory import ModelKind

        class Echo:
            def __init__(self, text): self.text = text
            async def next_reply(self, inp): return ModelReply(text=self.text, usage=Usage())
            async def aclose(self): pass

        KIND = ModelKind("echo", "answers with its argument", lambda req: Echo(req.argument or ""))
    """)
    )
    dist = tmp_path / "echo_kind-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: echo-kind\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[webfovea.models]\necho = echo_kind:KIND\nbroken = echo_kind:MISSING\n"
    )
    res = _python(
        """
        from webfovea.models.factory import describe_specs, make_model
        m = make_model("echo:finished")
        print(type(m).__name__, m.text)
        print(describe_specs())
        try:
            make_model("broken")
        except ValueError as e:
            print("ERR", str(e).splitlines()[0])
    """,
        PYTHONPATH=f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
    )
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert lines[0] == "Echo finished"
    assert any(line.split()[:1] == ["echo"] and "answers with its argument" in line for line in lines)
    assert any("oracle" in line for line in lines)
    assert lines[-1].startswith(
        "ERR model spec 'broken': unknown kind 'broken' (entry point broken = "
        "echo_kind:MISSING failed to load: AttributeError"
    )


def test_models_and_observation_never_import_upper_layers():
    forbidden = ("webfovea_proving_ground", "webfovea.runner", "webfovea.eval", "webfovea.cli")
    for package in ("models", "observation"):
        for path in (ROOT / "webfovea" / package).glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                names = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else ([node.module or ""] if isinstance(node, ast.ImportFrom) else [])
                )
                bad = [n for n in names if n.startswith(forbidden)]
                assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_missing_key_hint_names_what_works(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(ModelConfigError) as info:
        resolve_api_key(None, "OPENAI_API_KEY", "https://api.example.com/v1")
    text = str(info.value)
    assert "--api-key" not in text and "OPENAI_API_KEY environment variable" in text and "api_key=" in text
