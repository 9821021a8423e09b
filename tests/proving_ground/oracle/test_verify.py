"""The oracle under the verify gate and its realistic quirks, on real Chromium against a small
stateful site (tests/support/saves.py). Every assertion about success is on the server's state."""

from __future__ import annotations

import pytest

from tests.support.saves import serve_saves
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.eval.taxonomy import Checks, classify
from webfovea.record import read_trajectory
from webfovea.task import Task
from webfovea_proving_ground.oracle.stress import REALISTIC, Stress
from webfovea_proving_ground.plan import L, answer_value, click, fill, text_has

TITLE = "Water data 2024"
# One Chromium for the module (the `session` fixture): each run still gets its own page.
ASYNC = pytest.mark.asyncio(loop_scope="session")


def saving_task(site, *, quirks: dict | None = None) -> Task:
    answer = answer_value("saved")
    answer["verify"] = {"state": text_has(L("#items"), TITLE)}
    plan = [fill(L("#title"), TITLE), click(L("#save"), expect=text_has(L("#toast"), "Saved")), answer]
    return Task(
        task_id="save-1",
        task=f"Save a data request titled '{TITLE}'.",
        website=site.url("/form"),
        state_changing=True,
        plan=plan,
        quirks=quirks or {},
    )


async def run(
    tmp_path,
    session,
    *,
    verify: bool,
    model: str = "oracle",
    max_steps: int = 14,
    disable: tuple = (),
    **misbehaviour,
):
    config = make_config(disable=[*disable, *([] if verify else ["verify"])], max_steps=max_steps)
    with serve_saves(**misbehaviour) as site:
        result = await run_task(
            saving_task(site), tmp_path / "t", model=model, config=config, capture=False, session=session
        )
        items, answers = list(site.items), list(site.answers)
    steps = read_trajectory(tmp_path / "t")
    return result, steps, items, answers


def names(steps) -> list[str]:
    return [(s.action or {}).get("name", "?") for s in steps]


@ASYNC
async def test_forged_success_fools_the_oracle_without_verify(tmp_path, session):
    result, steps, items, _ = await run(tmp_path, session, verify=False, lie_first=1)
    assert result.status == "finished" and names(steps) == ["fill", "click", "finished"]
    assert items == []
    assert classify(result, steps, Checks(positives_ok=False)) == "misleading_success_taken"


@ASYNC
async def test_with_verify_the_oracle_sees_the_missing_item_and_saves_again(tmp_path, session):
    result, steps, items, _ = await run(tmp_path, session, verify=True, lie_first=1)
    assert result.status == "finished"
    assert names(steps) == ["fill", "click", "finished", "fill", "click", "finished"]
    assert [s.verification_requested for s in steps].count(True) == 1 and steps[2].verification_requested
    assert items == [TITLE]


@ASYNC
async def test_with_verify_an_honest_save_is_confirmed_once(tmp_path, session):
    result, steps, items, _ = await run(tmp_path, session, verify=True)
    assert names(steps) == ["fill", "click", "finished", "finished"]
    assert result.status == "finished" and items == [TITLE]  # saved once, not twice


@ASYNC
async def test_trusting_the_toast_misses_a_503_unless_verify_catches_it(tmp_path, session):
    # The default oracle sees "Could not save" and retries.
    result, steps, items, answers = await run(tmp_path / "a", session, verify=False, fail_first=1)
    assert answers == [503, 200] and items == [TITLE]
    # Trusting the toast: finished right after the click, the 503 unseen.
    result, steps, items, answers = await run(
        tmp_path / "b", session, verify=False, fail_first=1, model="oracle:trust_toast_rate=1.0"
    )
    assert answers == [503] and items == [] and names(steps) == ["fill", "click", "finished"]
    result, steps, items, answers = await run(
        tmp_path / "c", session, verify=True, fail_first=1, model="oracle:trust_toast_rate=1.0"
    )
    assert answers == [503, 200] and items == [TITLE]


@ASYNC
async def test_the_oracle_waits_out_a_429_and_the_quirk_retries_too_fast(tmp_path, session):
    result, steps, items, answers = await run(tmp_path / "a", session, verify=False, limit_s=3)
    assert items == [TITLE] and answers == [429, 200]
    assert "wait" in names(steps)
    result, steps, items, answers = await run(
        tmp_path / "b", session, verify=False, limit_s=3, model="oracle:fast_retry_rate=1.0"
    )
    assert items == [] and set(answers) == {429} and len(answers) >= 3
    assert "wait" not in names(steps)


@ASYNC
async def test_reclicking_a_covered_button_loops_until_the_loop_breaker_fires(tmp_path, session):
    result, steps, items, _ = await run(tmp_path / "a", session, verify=False, overlay=True)
    assert items == [] and result.status == "finished"  # the default oracle gives up after its retries
    assert names(steps).count("click") == 4
    result, steps, items, _ = await run(
        tmp_path / "b", session, verify=False, overlay=True, model="oracle:reclick_rate=1.0"
    )
    # The first click may still move the focus out of the text box (a change); then six dead ones.
    assert items == [] and result.status == "loop_breaker" and names(steps)[-6:] == ["click"] * 6
    assert [s.changed for s in steps[-6:]] == [False] * 6 and names(steps).count("click") <= 7
    assert classify(result, steps, Checks(positives_ok=False)) == "retry_loop"
    # Without the breaker only the step budget ends it.
    result, steps, items, _ = await run(
        tmp_path / "c",
        session,
        verify=False,
        overlay=True,
        max_steps=9,
        disable=("loop_breaker",),
        model="oracle:reclick_rate=1.0",
    )
    assert result.status == "max_steps" and names(steps).count("click") == 8


def test_quirk_draws_are_seeded_per_task_and_off_by_default():
    off = Stress.from_knobs("t1", 0, {})
    assert not any(off.fires.values())
    realistic = Stress.from_knobs("t1", 0, {"realistic": True})
    assert realistic.rates == REALISTIC
    again = Stress.from_knobs("t1", 0, {"realistic": True})
    assert realistic.fires == again.fires  # same (seed, task): same episode
    fired = [Stress.from_knobs(f"t{i}", 0, {"realistic": True}).fires["trust_toast_rate"] for i in range(200)]
    assert 0.45 < sum(fired) / len(fired) < 0.75  # the preset's 0.6, drawn per task
    assert Stress.from_knobs("t1", 0, {"realistic": True, "reclick_rate": 0.0}).fires["reclick_rate"] is False
    with pytest.raises(ValueError, match="between 0 and 1"):
        Stress.from_knobs("t1", 0, {"fast_retry_rate": 2})
