"""The oracle's quirks: forced ones fire, zero rates never do, and everything is seeded."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from webfovea.actions.catalog import offered, parser_specs
from webfovea.config import make_config
from webfovea.models.base import ModelInput
from webfovea.observation.prompt import system_prompt
from webfovea.parsing import parse_reply
from webfovea.task import Task
from webfovea_proving_ground.oracle.model import OracleModel
from webfovea_proving_ground.oracle.quirks import CHAT_TOKENS, Quirks

CONFIG = make_config()
SYSTEM = system_prompt(offered(CONFIG), CONFIG)
SPECS = parser_specs(offered(CONFIG))
IMAGE = Image.new("RGB", (1440, 810), "white")

# Steps that need no page: the oracle never touches the browser for them, so these tests
# exercise the speech and quirk logic alone. (Grounding is tested in test_oracle.py.)
PLAN = [
    {"op": "type", "content": "Viet Nam", "submit": True},
    {"op": "type", "content": "2021", "submit": False},
    {"op": "type", "content": "GDP", "submit": True},
    {"op": "answer", "value": "4,321"},
]


async def run(task: Task, **knobs) -> tuple[list[str], OracleModel]:
    oracle = OracleModel(task, page=None, **knobs)  # type: ignore[arg-type]  # never used by these ops
    texts = []
    for step in range(len(task.plan)):
        inp = ModelInput(system=SYSTEM, task=task.task, history=[], images=[IMAGE], feedback=None, step=step)
        texts.append((await oracle.next_reply(inp)).text)
    return texts, oracle


def task(task_id: str = "q-1", **quirks) -> Task:
    return Task(task_id=task_id, task="t", website="http://x/", plan=PLAN, quirks=quirks)


async def test_contamination_inside_the_typed_text_when_forced():
    texts, oracle = await run(
        task(contaminate_from_step=1, contaminate_where="argument", contaminate_token="<|eot_id|>"),
        contaminate_rate=0.0,
        continuation_rate=0.0,
    )
    assert texts[0].endswith("Action: type(content='Viet Nam\\n')")  # before the onset: clean
    assert texts[1].endswith("Action: type(content='2021<|eot_id|>')")
    assert texts[2].endswith(
        "Action: type(content='GDP<|eot_id|>\\n')"
    )  # token before the submitting newline
    assert texts[3].endswith("Action: finished(content='4,321<|eot_id|>')")
    assert [e["call"] for e in oracle.quirk_log] == [1, 2, 3]
    # A harness that strips tokens gets the intended text; one that does not types the token.
    assert parse_reply(texts[2], SPECS).action.args["content"] == "GDP\n"
    assert "<|eot_id|>" in parse_reply(texts[2], SPECS, strip_tokens=False).action.args["content"]


async def test_contamination_at_the_end_of_the_reply():
    texts, oracle = await run(
        task(contaminate_from_step=0, contaminate_where="end", contaminate_token="<|im_end|>"),
        continuation_rate=0.0,
    )
    assert all(t.endswith(")<|im_end|>") for t in texts)
    assert {e["where"] for e in oracle.quirk_log} == {"end"}


async def test_continuation_when_forced():
    texts, oracle = await run(task(continuation_at_step=[0, 2]), contaminate_rate=0.0)
    for i in (0, 2):
        assert "\nObservation: " in texts[i] and texts[i].count("Action: ") >= 2
        assert texts[i].rstrip().endswith("')") and "Action: finished(content='" in texts[i]
        parsed = parse_reply(texts[i], SPECS)
        assert parsed.action.name == "type" and parsed.truncated  # the first action is the real one
    fake = [e["fake_answer"] for e in oracle.quirk_log if e["quirk"] == "continuation"]
    assert len(fake) == 2 and "4,321" not in fake
    assert "Observation" not in texts[1] and texts[3].endswith("finished(content='4,321')")


async def test_no_quirks_when_rates_are_zero():
    for i in range(30):
        texts, oracle = await run(task(f"z-{i}"), contaminate_rate=0.0, continuation_rate=0.0)
        assert oracle.quirk_log == []
        joined = "\n".join(texts)
        assert "Observation" not in joined and not any(tok in joined for tok in CHAT_TOKENS)
        assert all(t.count("Action: ") == 1 for t in texts)


async def test_deterministic_per_seed_and_task():
    a, _ = await run(task("d-1"), contaminate_rate=0.5, continuation_rate=0.5)
    b, _ = await run(task("d-1"), contaminate_rate=0.5, continuation_rate=0.5)
    c, _ = await run(task("d-1"), seed=1, contaminate_rate=0.5, continuation_rate=0.5)
    assert a == b and a != c


def test_default_rates_match_the_paper():
    n = 4000
    contaminated = sum(Quirks(task_id=f"r-{i}").contaminate_from is not None for i in range(n))
    assert abs(contaminated / n - 0.049) < 0.012
    rng = random.Random(0)
    quirks = Quirks(task_id="c", contaminate_rate=0.0)
    fired = sum(
        "Observation" in quirks.finish(i, "x", rng, has_argument=False, final=False) for i in range(n)
    )
    assert abs(fired / n - 0.03) < 0.01


def test_bad_quirk_knobs_are_refused():
    with pytest.raises(ValueError, match="contaminate_rate must be between 0 and 1"):
        Quirks(task_id="x", contaminate_rate=4.9)
    with pytest.raises(ValueError, match="contaminate_where must be one of"):
        Quirks(task_id="x", overrides={"contaminate_where": "middle"})


async def test_submit_without_newline_presses_enter_separately():
    texts, _ = await run(task("n-1"), submit_with_newline=False, contaminate_rate=0.0, continuation_rate=0.0)
    actions = [t.split("Action: ")[1] for t in texts]
    assert actions[:3] == ["type(content='Viet Nam')", "hotkey(key='enter')", "type(content='2021')"]
