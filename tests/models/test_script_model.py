"""`script:FILE`: replies read from a file, one per act call, in either layout; clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from webfovea.models.base import ModelError, ModelInput, verify_refusal
from webfovea.models.endpoint import ModelConfigError
from webfovea.models.factory import make_model, model_kind
from webfovea.models.script import ScriptModel

pytestmark = pytest.mark.asyncio


def _inp(purpose: str = "act") -> ModelInput:
    return ModelInput(system="", task="t", history=[], images=[], feedback=None, step=0, purpose=purpose)


async def test_a_text_script_gives_its_lines_in_order_then_fails(tmp_path: Path) -> None:
    path = tmp_path / "s.txt"
    path.write_text(
        "# comment\nThought: a\\nAction: scroll(direction='down')\n\n  Action: finished(content='x')  \n"
    )
    model = make_model(f"script:{path}")
    assert isinstance(model, ScriptModel) and verify_refusal(model) is not None
    assert (await model.next_reply(_inp())).text == "Thought: a\nAction: scroll(direction='down')"
    assert (await model.next_reply(_inp())).text == "Action: finished(content='x')"
    with pytest.raises(ModelError, match="script exhausted after 2 replies"):
        await model.next_reply(_inp())
    kind = model_kind("script")
    assert kind is not None and not kind.can_verify


async def test_a_jsonl_script_takes_strings_and_reply_objects(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_text('"Thought: one\\nAction: wait()"\n{"reply": "Action: finished(content=\'2\')"}\n')
    model = ScriptModel(path)
    assert [(await model.next_reply(_inp())).text for _ in range(2)] == [
        "Thought: one\nAction: wait()",
        "Action: finished(content='2')",
    ]
    with pytest.raises(ModelError, match="'look' call"):
        await model.next_reply(_inp("look"))


async def test_bad_scripts_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ModelConfigError, match="script needs a file"):
        make_model("script:")
    with pytest.raises(ModelConfigError, match="does not exist"):
        make_model(f"script:{tmp_path / 'none.txt'}")
    (tmp_path / "empty.jsonl").write_text("\n")
    with pytest.raises(ModelConfigError, match="holds no reply"):
        make_model(f"script:{tmp_path / 'empty.jsonl'}")
    (tmp_path / "bad.jsonl").write_text('"ok"\n{"text": 1}\n')
    with pytest.raises(ModelConfigError, match="line 2 must be a JSON string"):
        make_model(f"script:{tmp_path / 'bad.jsonl'}")
    (tmp_path / "broken.jsonl").write_text("{oops\n")
    with pytest.raises(ModelConfigError, match="line 1 is not JSON"):
        make_model(f"script:{tmp_path / 'broken.jsonl'}")
    with pytest.raises(ModelConfigError, match="not a regular file"):
        make_model(f"script:{tmp_path}")
