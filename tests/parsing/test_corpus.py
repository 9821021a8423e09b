"""Every reply in corpus.jsonl parses to exactly its expected action or rejection."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.parsing.specs import SPEC_SETS
from webfovea.parsing import parse_reply

CORPUS = [
    json.loads(line) for line in Path(__file__).with_name("corpus.jsonl").read_text("utf-8").splitlines()
]


def _plain(value: Any) -> Any:
    """Tuples -> lists and floats rounded, so parsed args compare with JSON."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def test_corpus_file_matches_its_generator() -> None:
    from tests.parsing import make_corpus

    assert Path(make_corpus.OUT).read_text("utf-8") == make_corpus.render(), (
        "run tests/parsing/make_corpus.py"
    )


def test_corpus_is_large_and_covers_every_action() -> None:
    assert len(CORPUS) >= 200
    executed = {e["expect"]["action"] for e in CORPUS if "action" in e["expect"]}
    assert executed >= set(SPEC_SETS["paper"])


@pytest.mark.parametrize("entry", CORPUS, ids=[e["id"] for e in CORPUS])
def test_corpus_entry(entry: dict[str, Any]) -> None:
    reply = parse_reply(entry["reply"], SPEC_SETS[entry["specs"]], **entry.get("options", {}))
    expect = entry["expect"]
    if "rejection" in expect:
        assert reply.action is None
        assert reply.rejection is not None, f"expected a rejection, got {reply.action}"
        assert expect["rejection"] in reply.rejection.reason
    else:
        assert reply.rejection is None, reply.rejection.reason if reply.rejection else ""
        assert reply.action is not None
        assert reply.action.name == expect["action"]
        assert _plain(reply.action.args) == _plain(expect["args"])
        assert reply.action.raw and reply.action.raw in reply.cleaned
    for field in ("truncated", "thought", "cleaned"):
        if field in entry:
            assert getattr(reply, field) == entry[field], field
    if entry.get("options", {}).get("strip_tokens", True):
        assert "<|eot_id|>" not in reply.cleaned and "<|im_end|>" not in reply.cleaned
