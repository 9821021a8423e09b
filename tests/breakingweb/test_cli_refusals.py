"""Bad input to `webfovea bench breakingweb` is refused before any browser starts, naming what
is valid: an unknown environment/app, family, tier or panel, a panel with the sweep pairing, a
seed that is not an integer. Through the real command (Typer's runner); the run folder a run
would write first is never made."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from webfovea.cli.main import app

CASES = [
    (["--apps", "social,atlantis"], ["unknown environment/app 'atlantis'", "travel (official)", "calendar"]),
    (
        ["--pairing", "official", "--apps", "gmail"],
        ["unknown environment/app 'gmail'", "registered: email, finance"],
    ),
    (
        ["--families", "fabricated_success,nope"],
        ["unknown intervention family 'nope'", "client/misleading_toast"],
    ),
    (["--tiers", "T1,T9"], ["unknown tier 'T9'", "T1, T2, T3, T4, T5"]),
    (["--panel", "human-999"], ["unknown panel 'human-999'", "human-140"]),
    (["--panel", "human-140", "--pairing", "sweep"], ["drawn from the official pairing"]),
    (["--seed", "forty-two"], ["--seed", "integer"]),
]


@pytest.mark.parametrize(("args", "said"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_refused_before_any_browser_with_the_valid_names(
    args: list[str], said: list[str], tmp_path: Path
) -> None:
    out = tmp_path / "run"
    res = CliRunner().invoke(app, ["bench", "breakingweb", "--model", "oracle", "--out", str(out), *args])
    text = " ".join(res.output.split())
    assert res.exit_code == 2, text[-800:]
    for words in said:
        assert words in text, (words, text[-800:])
    assert not out.exists()  # the run never began: no folder, no browser


def test_the_listing_refuses_the_same_way() -> None:
    res = CliRunner().invoke(app, ["bench", "breakingweb", "--list", "--apps", "atlantis"])
    assert res.exit_code != 0 and "unknown environment/app 'atlantis'" in " ".join(res.output.split())
