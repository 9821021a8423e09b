"""The registration (ids as browsergym-miniwob's, from a file kept in step with the registries)
and the two contracts' grammars, without a browser."""

from __future__ import annotations

import pytest

pytest.importorskip("browsergym.core.registration", reason="BrowserGym is an optional extra")

import gymnasium as gym  # noqa: E402

from webfovea_breakingweb.gym import ENV_IDS  # noqa: E402
from webfovea_breakingweb.gym.grammar import ActionRefused, contract  # noqa: E402
from webfovea_breakingweb.gym.ids import live_ids, stored_ids  # noqa: E402
from webfovea_breakingweb.gym.viewports import UnknownFamily  # noqa: E402
from webfovea_breakingweb.pairing import DEFAULT_SEED  # noqa: E402


def test_ids_json_matches_the_registries() -> None:
    # Stale after an app, task or family changed: `python -m webfovea_breakingweb.gym` rewrites it.
    assert stored_ids() == live_ids(DEFAULT_SEED)


def test_every_task_and_its_official_variant_is_registered() -> None:
    tasks = stored_ids()["tasks"]
    assert len(ENV_IDS) == len(tasks) + sum(1 for f in tasks.values() if f)
    assert "browsergym/breakingweb.calendar-accept-02" in gym.registry
    paired = next(tid for tid, short in tasks.items() if short and tid.startswith("social-"))  # official
    assert f"browsergym/breakingweb.{paired}.{tasks[paired]}" in gym.registry
    with pytest.raises(ValueError, match="fixed by the environment id"):
        gym.make("browsergym/breakingweb.calendar-accept-02", task_kwargs={"task_id": "x"}).reset()


def test_the_bid_grammar_refuses_before_anything_runs() -> None:
    text = contract("text")
    shown = frozenset({"a51", "12"})
    assert text.check("click('a51')", shown) == "click(bid='a51')"
    assert text.check("fill('12', 'hello')", shown) == "fill(bid='12', value='hello')"
    for action, why in [
        ("click(12)", "not a quoted string"),
        ("click('a52')", "not in the current observation"),
        ("drag_and_drop('a51', 'zz')", "not in the current observation"),
        ("goto('http://example.com')", "not in the text contract's grammar"),
        ("click('a51') click('12')", "one action per step"),
        ("click()", "missing a required argument"),
        ("", "empty action"),
    ]:
        with pytest.raises(ActionRefused, match=why):
            text.check(action, shown)
    for verb in ("send_msg_to_user('done')", "report_infeasible('no such case')", "noop()"):
        assert text.check(verb, frozenset())


def test_points_are_rescaled_only_for_grid_families() -> None:
    assert (
        contract("gui", "gemini").check("mouse_click(500, 500)", frozenset())
        == "mouse_click(x=640.0, y=360.0)"
    )
    assert (
        contract("gui", "GPT").check("mouse_click(800, 450)", frozenset()) == "mouse_click(x=800.0, y=450.0)"
    )
    with pytest.raises(ActionRefused, match="outside the screenshot"):
        contract("gui", "claude").check("mouse_click(1100, 10)", frozenset())
    with pytest.raises(UnknownFamily, match="gemini, qwen, claude, gpt"):
        contract("gui", "llama")
    with pytest.raises(ValueError, match="needs model_family"):
        contract("gui")
