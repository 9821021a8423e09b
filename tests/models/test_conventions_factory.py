"""The conventions table, Retry-After parsing, and model spec strings."""

from __future__ import annotations

import time
from email.utils import formatdate

import pytest

from webfovea.models.anthropic_client import AnthropicModel
from webfovea.models.conventions import CONVENTIONS_TABLE, DEFAULT_CONVENTIONS, conventions_for
from webfovea.models.endpoint import ModelConfigError, is_loopback
from webfovea.models.factory import describe_specs, make_model, parse_options
from webfovea.models.openai_client import OpenAIModel
from webfovea.models.retry import RetryPolicy, parse_retry_after, retryable_status


@pytest.mark.parametrize(
    ("spec", "family", "space"),
    [
        ("anthropic:claude-opus-4-6", "claude-opus-4.5", "pixels"),
        ("anthropic:claude-sonnet-4-5", "claude", "pixels"),
        ("openai:anthropic/claude-3.5-sonnet", "claude", "pixels"),  # OpenRouter-style name
        ("openai:gpt-4o", "gpt-4o", "pixels"),
        ("openai:gpt-4.1-mini", "gpt-4o", "pixels"),
        ("openai:o3", "openai-reasoning", "pixels"),
        ("openai:gpt-5", "openai-reasoning", "pixels"),
        ("openai:ByteDance-Seed/UI-TARS-1.5-7B", "ui-tars-1.5", "pixels"),
        ("openai:ui-tars-72b-dpo", "ui-tars", "norm1000"),
        ("openai:doubao-1.5-ui-tars", "ui-tars", "norm1000"),
        ("openai:Qwen/Qwen2.5-VL-72B-Instruct", "qwen2.5-vl", "pixels"),
        ("openai:Qwen/Qwen3-VL-8B-Instruct", "qwen-vl-norm1000", "norm1000"),
        ("openai:gemini-2.5-pro", "gemini", "norm999"),
        ("openai:llava-1.6", "default", "pixels"),
        ("oracle", "default", "pixels"),
        ("replay:/runs/x", "default", "pixels"),
    ],
)
def test_conventions_lookup(spec, family, space):
    row = conventions_for(spec)
    assert row.family == family
    assert row.coordinate_space == space
    assert row.grammar == "uitars"


def test_provider_sizes_match_documented_limits():
    claude = conventions_for("claude-opus-4-6")
    # The paper: 1920x1080 reached the model at about 1440x810, while 1440x810 arrived unscaled.
    w, h = claude.provider_size(1920, 1080)
    assert 1420 <= w <= 1470 and 795 <= h <= 830
    assert claude.fits(1440, 810)
    assert claude.provider_size(3000, 1000)[0] == 1568  # long-edge rule
    gpt = conventions_for("gpt-4o")
    assert gpt.provider_size(1920, 1080) == (1365, 768)  # short side to 768 px
    assert DEFAULT_CONVENTIONS.provider_size(1920, 1080) == (1920, 1080)
    with pytest.raises(ValueError, match="positive"):
        gpt.provider_size(0, 10)


def test_table_rows_have_distinct_families():
    families = [row.family for _, row in CONVENTIONS_TABLE]
    assert len(families) == len(set(families))


def test_retry_after_forms():
    assert parse_retry_after("2") == 2.0
    assert parse_retry_after("0.5") == 0.5
    now = time.time()
    assert parse_retry_after(formatdate(now + 30, usegmt=True), now=now) == pytest.approx(30, abs=1)
    assert parse_retry_after(formatdate(now - 30, usegmt=True), now=now) == 0.0
    assert parse_retry_after("soon") is None and parse_retry_after(None) is None
    assert [s for s in (400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 529) if retryable_status(s)] == [
        403,
        408,
        429,
        500,
        502,
        529,
    ]
    with pytest.raises(ValueError):
        RetryPolicy(max_attempts=0)


def test_loopback_detection():
    assert is_loopback("http://127.0.0.1:8000/v1")
    assert is_loopback("http://localhost:11434")
    assert is_loopback("http://[::1]:8000")
    assert is_loopback("http://0.0.0.0:8000/v1")
    assert not is_loopback("https://api.openai.com/v1")


def test_make_model_http_specs(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    m = make_model(
        "openai:qwen2.5-vl:7b",  # Ollama-style names keep their colon
        options={"max_tokens": 99, "budget_s": 30, "max_attempts": 2, "image_detail": "high"},
    )
    assert isinstance(m, OpenAIModel)
    assert m.model == "qwen2.5-vl:7b" and m.max_tokens == 99 and m.image_detail == "high"
    assert (m.retry.budget_s, m.retry.max_attempts) == (30, 2)
    assert m.conventions.family == "qwen2.5-vl"
    a = make_model("anthropic:claude-opus-4-6", base_url="http://127.0.0.1:9", api_key=None)
    assert isinstance(a, AnthropicModel) and a.endpoint == "http://127.0.0.1:9/v1/messages"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gpt-4o", "unknown kind"),
        ("openai:", "needs a model name"),
        ("anthropic", "needs a model name"),
        ("replay:", "needs a path"),
        ("", "empty"),
        ("oracle:seed", "not KEY=VALUE"),
    ],
)
def test_make_model_errors_list_the_accepted_forms(spec, message):
    with pytest.raises(ValueError, match=message) as info:
        make_model(spec)
    assert isinstance(info.value, ModelConfigError)
    for form in ("oracle", "replay:PATH", "openai:MODEL", "anthropic:MODEL"):
        assert form in str(info.value)


def test_unknown_client_option_is_named():
    with pytest.raises(ModelConfigError, match="unknown option.*max_token\\b"):
        make_model("openai:gpt-4o", base_url="http://127.0.0.1:9", options={"max_token": 5})
    with pytest.raises(ModelConfigError, match="image_detail"):
        make_model("anthropic:claude-x", base_url="http://127.0.0.1:9", options={"image_detail": "low"})


def test_oracle_options_and_help():
    assert parse_options("seed=3,contaminate=0.05,quirks=off,name=a b", "oracle:...") == {
        "seed": 3,
        "contaminate": 0.05,
        "quirks": False,
        "name": "a b",
    }
    text = describe_specs()
    # one line per kind; a kind another test registered on this worker may add one
    starts = [line.split()[0] for line in text.splitlines()]
    builtin = ["replay:PATH", "script:FILE", "openai:MODEL", "anthropic:MODEL", "gemini:MODEL", "oracle"]
    assert all(k in starts for k in builtin) and len(starts) == len(set(starts)), starts
    assert "OPENAI_BASE_URL" in text and "script:FILE" in text
    assert "gemini:MODEL" in text and "GEMINI_API_KEY" in text


def test_the_profiles_sampling_reaches_the_request_and_a_spec_option_wins(monkeypatch):
    # The winner's temperature 0.2 and 8,192 output tokens (seed 002, line 59; docs/profiles.md)
    # go into the Chat Completions body; the webfovea profile asks nothing (the client's 0.0).
    from webfovea.config import make_config
    from webfovea.models.base import ModelInput

    monkeypatch.setenv("OPENAI_API_KEY", "sk-x")
    inp = ModelInput(system="s", task="t", history=[], images=[], feedback=None, step=0)
    winner = make_model("openai:gpt-4o", sampling=make_config("winner").sampling())
    body = winner.request_body(inp)
    assert (body["temperature"], body["max_tokens"]) == (0.2, 8192)
    ours = make_model("openai:gpt-4o", sampling=make_config("webfovea").sampling())
    assert ours.request_body(inp)["temperature"] == 0.0
    spec_wins = make_model("openai:gpt-4o?temperature=0.7", sampling={"temperature": 0.2})
    assert spec_wins.request_body(inp)["temperature"] == 0.7
