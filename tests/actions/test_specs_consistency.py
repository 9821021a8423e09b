"""One action = one spec: every action of Table 3 is described, parsed, executed and reported."""

import inspect

import pytest

from webfovea.actions.catalog import BY_NAME, SPECS, TABLE3, offered, parser_specs
from webfovea.config import OUTSIDE_RULES, Component, make_config
from webfovea.guardrails.forbidden import forbidden_for
from webfovea.observation.modes import get as get_mode
from webfovea.observation.prompt import system_prompt
from webfovea.parsing import parse_reply

SAMPLE_ARGS = {
    "point": "'<|box_start|>(10,20)<|box_end|>'",
    "points": "'<|box_start|>(10,20)<|box_end|> <|box_start|>(30,40)<|box_end|>'",
    "direction": "'down'",
    "text": "'abc'",
    "answer": "'abc'",
    "key": "'ctrl a'",
    "ref": "'e12'",
    "box": "'<|box_start|>(10,20,30,40)<|box_end|>'",
}
# Actions beyond the paper's Table 3 within the rules, each behind its own switch: zoom (the fovea),
# upload (files of the task's workspace into a file field).
BEYOND_TABLE3 = frozenset({Component.zoom, Component.upload})
# Actions beyond Table 3 with no switch, offered only when a setting gives them something to
# work on: find_template (the config's templates file).
ON_SETTING_ONLY = ("find_template",)


def test_catalog_is_table3_then_the_tools_outside_the_rules_and_the_snapshot_actions():
    closed = [
        s.name
        for s in SPECS
        if not s.needs_snapshot
        and s.component not in OUTSIDE_RULES | BEYOND_TABLE3
        and s.name not in ON_SETTING_ONLY
    ]
    assert [s.name for s in SPECS if s.component is None and s.needs_setting] == list(ON_SETTING_ONLY)
    assert tuple(closed) == TABLE3  # the paper's set is the closed set
    assert [s.name for s in SPECS if s.needs_snapshot] == ["find", "snapshot", "look", "locate"]
    extra = [
        s
        for s in SPECS
        if s.name not in TABLE3
        and not s.needs_snapshot
        and s.component not in BEYOND_TABLE3
        and s.name not in ON_SETTING_ONLY
    ]
    assert extra and all(s.component in OUTSIDE_RULES for s in extra)
    assert [s.name for s in SPECS if s.component in BEYOND_TABLE3] == ["zoom", "upload"]


@pytest.mark.parametrize(
    ("profile", "mode"),
    [("webfovea", "vision"), ("webfovea", "structured"), ("webfovea", "hybrid"), ("winner", "vision")],
)
def test_every_action_in_prompt_parser_executor_feedback(profile, mode):
    config = make_config(profile, observation=mode)
    flags = get_mode(mode)
    specs = offered(config, snapshot=flags.snapshot, refs=flags.refs, points=flags.points)
    closed = [
        s.name for s in specs if not s.needs_snapshot and s.component not in OUTSIDE_RULES | BEYOND_TABLE3
    ]
    # All of Table 3 the profile's components keep (webfovea: all of it; the winner has no
    # find_text, read_text or click_many: docs/profiles.md).
    kept = [n for n in TABLE3 if BY_NAME[n].component is None or config.on(BY_NAME[n].component)]
    assert closed == kept and (profile != "webfovea" or kept == list(TABLE3))
    zoom = ["zoom"] if config.on(Component.zoom) else []
    assert [s.name for s in specs if s.component in BEYOND_TABLE3] == zoom  # on in webfovea
    # The snapshot actions in the snapshot modes; locate also in the winner profile (its own tool).
    expected = (
        {"find", "snapshot", "look", "locate"}
        if flags.snapshot
        else ({"locate"} if profile == "winner" else set())
    )
    assert {s.name for s in specs if s.needs_snapshot} == expected
    assert bool([s for s in specs if s.component in OUTSIDE_RULES]) == (profile == "winner")
    prompt = system_prompt(specs, config)
    pspecs = parser_specs(specs)
    forbidden = forbidden_for({n for s in specs for n in (s.name, *s.aliases)})  # what this profile refuses
    for spec in specs:
        # prompt: the signature line is shown
        assert f"- {spec.signature}" in prompt, spec.name
        # parser: a call written exactly like the prompt's kind of arguments parses to this action
        args = ", ".join(f"{p.name}={SAMPLE_ARGS[p.kind]}" for p in spec.params)
        parsed = parse_reply(f"Thought: t\nAction: {spec.name}({args})", pspecs, forbidden=forbidden)
        assert parsed.action is not None and parsed.action.name == spec.name, (spec.name, parsed.rejection)
        for p in spec.params:
            assert p.name in parsed.action.args, (spec.name, p.name)
        # executor: a coroutine function taking (ctx, action)
        assert inspect.iscoroutinefunction(spec.execute), spec.name
        assert list(inspect.signature(spec.execute).parameters) == ["ctx", "action"], spec.name
        # feedback: the spec says what the model is told
        assert spec.feedback.strip(), spec.name


def test_paper_profile_has_no_zoom():
    # The paper's harness as published had no fovea action; the other profiles offer it.
    assert not make_config("paper").on(Component.zoom)
    assert make_config("webfovea").on(Component.zoom)


def test_budgets_match_paper():
    budgets = {s.name: s.budget for s in SPECS if s.budget is not None}
    assert budgets == {
        "find_text": 10,
        "read_text": 5,
        "back": 15,
        "reload": 2,
        "click_many": 6,
        "look": 20,
        "locate": 20,
        "zoom": 10,
        "find_template": 20,  # beyond the paper: as locate, its model-free counterpart
    }
    config = make_config("webfovea")
    prompt = system_prompt(offered(config), config)
    assert "find_text(text='words on the page')  #" in prompt and "At most 10 per task." in prompt


def test_switches_remove_actions_from_prompt_and_parser():
    config = make_config("webfovea", ["select", "hover", "find_text"])
    names = [s.name for s in offered(config)]
    assert "select" not in names and "hover" not in names and "find_text" not in names
    prompt = system_prompt(offered(config), config)
    assert "- select(" not in prompt and "- hover(" not in prompt
    parsed = parse_reply(
        "Thought: t\nAction: select(start_box='(1,2)', option='x')", parser_specs(offered(config))
    )
    assert parsed.action is None or parsed.rejection is not None


def test_reference_profile_is_the_naive_baseline():
    config = make_config("reference")
    assert config.max_steps == 40
    assert not config.on(Component.coord_align) and not config.on(Component.token_strip)
    names = {s.name for s in offered(config)}
    assert {"click", "type", "finished"} <= names
    assert not names & {"select", "fill", "hover", "find_text", "read_text", "click_many", "back", "reload"}
    prompt = system_prompt(offered(config), config)
    assert "## Hard constraints" not in prompt


def test_prompt_carries_hard_constraints_and_rules():
    config = make_config("webfovea")
    prompt = system_prompt(offered(config), config)
    assert "## Hard constraints" in prompt and "14. " in prompt
    assert "Do not type, guess or construct URLs" in prompt
    assert "finished only when the answer is visible on the current screenshot" in prompt
    assert "call read_text once on its label before finished" in prompt
    assert "Coordinates: pixels of the screenshot image" in prompt
    assert BY_NAME["hotkey"] in offered(make_config("reference"))
