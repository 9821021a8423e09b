"""`webfovea models`, and provider specs checked before any browser starts."""

from __future__ import annotations

from typer.testing import CliRunner

from webfovea.cli.main import app


def test_models_command_lists_every_row():
    from webfovea.models.conventions import families

    result = CliRunner().invoke(app, ["models"])
    assert result.exit_code == 0
    for family in families():
        assert family in result.output
    one = CliRunner().invoke(app, ["models", "openai:gemini-2.5-pro"])
    assert "norm999" in one.output and "claude" not in one.output


def test_a_bad_provider_spec_stops_bench_before_the_browser(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    result = CliRunner().invoke(
        app, ["bench", "builtin", "--model", "anthropic:claude-sonnet-4-6", "--limit", "1"]
    )
    assert result.exit_code == 2 and "ANTHROPIC_API_KEY" in result.output
    assert "proving ground" not in result.output
    result = CliRunner().invoke(
        app,
        [
            "bench",
            "builtin",
            "--model",
            "anthropic:llava?interface=computer",
            "--base-url",
            "http://127.0.0.1:9",
            "--limit",
            "1",
        ],
    )
    assert result.exit_code == 2 and "no computer-use tool" in result.output
