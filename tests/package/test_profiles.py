"""Each profile against its source's table, held here as data with the seed's words beside it.

Seeds: 000 is the WebFovea paper (Appendix A Table 7: the component list; Table 3: the action
space; §4.1, §4.6: window, budgets, settle), 002 the challenge winner's report (line numbers of
/work/shared/seeds/002_*.txt), and the organisers' template as the paper describes it. The same
tables, in prose, are docs/profiles.md: a profile that drifts from its table fails here.
"""

from __future__ import annotations

from webfovea.actions.catalog import TABLE3, offered
from webfovea.config import ALL_COMPONENTS, OUTSIDE_RULES, Component, make_config
from webfovea.execution import script
from webfovea.guardrails.budgets import MAX_CONSECUTIVE_TOOL_TIMEOUTS
from webfovea.guardrails.constraints import HARD_CONSTRAINTS
from webfovea.models.retry import RetryPolicy
from webfovea.observation import compress, grid
from webfovea.observation.modes import get as get_mode

C = Component

# Seed 000, Appendix A, Table 7 ("Component inventory"): every row -> the switch that holds it
# (None: no switch, always there). Rows that share a switch are listed under it.
PAPER_TABLE7: dict[str, Component | None] = {
    "Parsing: first-action truncation": C.first_action,
    "Parsing: special-token / trailing-markup stripping": C.token_strip,
    "Parsing: answer extraction from finished": None,
    "Execution: coordinate-space alignment": C.coord_align,
    "Execution: select for native dropdowns": C.select,
    "Execution: fill with date handling": C.fill,
    "Execution: Enter on trailing \\n": C.enter_on_newline,
    "Execution: iframe DOM fallback": C.iframe_fallback,
    "Execution: click_many (image-grid CAPTCHA only)": C.click_many,
    "Execution: back, reload": C.back_reload,
    "Feedback: DOM fingerprint + notes": C.feedback_notes,
    "Feedback: child-frame fingerprint": C.feedback_notes,
    "Feedback: tooltip text hash": C.feedback_notes,
    "Feedback: fill read-back; select option list": None,  # part of fill and select themselves
    "Observation: 5-screenshot window + full text history": None,  # screenshot_window=5, no append
    "Observation: screenshot size cap (1440x810)": C.coord_align,
    "Observation: hover exposed to the model": C.hover,
    "Observation: find_text (frame-aware, returns no text)": C.find_text,
    "Observation: read_text with de-obfuscation": C.read_text,
    "Observation: rule-based tool triggers": C.tool_triggers,
    "Guardrails: closed action set; goto rejected": None,  # OUTSIDE_RULES stay off
    "Guardrails: browser-level hotkey block-list": C.hotkey_blocklist,
    "Guardrails: 14 hard constraints": C.hard_constraints,
    "Guardrails: executor budgets; 80 steps / 1,800 s": C.budgets,
    "Guardrails: scroll breaker (requires no change)": C.scroll_breaker_needs_no_change,
    "Guardrails: no task retries; model-call retries": None,
    "Guardrails: shared-queue dispatch; adaptive settle wait": C.adaptive_settle,
}
# Seed 000's numbers: setting -> (value, where).
PAPER_SETTINGS = {
    "max_steps": (80, "Table 7 'executor budgets; 80 steps / 1,800 s'; §4.6 'Each task gets 80 steps'"),
    "max_seconds": (1800.0, "Table 7; §4.6 'and 1,800 s'"),
    "screenshot_window": (5, "Table 7 '5-screenshot window'; §4.1 'the five most recent screenshots'"),
    "screenshot_cap_width": (1440, "Table 7 'screenshot size cap (1440x810)'; §4.3"),
    "screenshot_cap_height": (810, "Table 7; §4.3"),
    "settle_min_ms": (1000, "§4.6 'After navigation, the executor waits between 1 and 8 s'"),
    "settle_max_ms": (8000, "§4.6 (the same sentence)"),
    "scroll_breaker_limit": (10, "§4.6 'ended a task after 10 consecutive scrolls' (kept, plus no change)"),
    "observation": ("vision", "§4.1 'the model receives no DOM or accessibility tree'"),
    "temperature": (None, "not stated: the client's default"),
}
# Seed 000, Table 3 ("Final action space"): the per-task budgets.
TABLE3_BUDGETS = {"find_text": 10, "read_text": 5, "back": 15, "reload": 2, "click_many": 6}

# Seed 002 (line numbers of the seed text): our component -> on?, and the line that says so.
WINNER_SEED002: dict[Component, tuple[bool, str]] = {
    C.first_action: (True, "59: parallel tool calls are disabled: one call per step"),
    C.token_strip: (True, "13: native tool calls carry no chat-template text"),
    C.coord_align: (True, "23-27: locate maps 0-1000 to the measured CSS viewport"),
    C.select: (True, "13: Playwright MCP form filling"),
    C.fill: (True, "13: text input, form filling"),
    C.enter_on_newline: (True, "13: text input (Playwright MCP's type submits)"),
    C.iframe_fallback: (False, "not described"),
    C.click_many: (False, "not described"),
    C.back_reload: (True, "13: page navigation"),
    C.feedback_notes: (True, "47: errors are first returned to the main model"),
    C.hover: (True, "13: Playwright MCP, its hover tool"),
    C.find_text: (False, "not described (JavaScript inspection instead, 15)"),
    C.read_text: (False, "not described (JavaScript inspection instead, 15)"),
    C.zoom: (False, "not described"),
    C.documents: (False, "not described: no document view"),
    C.ocr: (False, "not described: no document view"),
    C.upload: (False, "not described (Playwright MCP has a file-upload tool; the report lists none)"),
    C.tool_triggers: (False, "not described"),
    C.append_history: (True, "11: each tool output is appended to the context"),
    C.hard_constraints: (True, "15, 53: its prompt's rules (seen URLs only, evidence before the answer)"),
    C.hotkey_blocklist: (False, "not described"),
    C.budgets: (False, "no per-action budgets: 100 iterations (59), 1 h (51), 180 s per tool (47)"),
    C.scroll_breaker_needs_no_change: (False, "no scroll breaker"),
    C.adaptive_settle: (True, "13: Playwright MCP settles each action before it returns"),
    C.settle_aware: (False, "not described"),
    C.person_pointer: (False, "not described"),
    C.container_scroll: (False, "not described"),
    C.editor_hotkeys: (False, "not described"),
    C.compress_history: (True, "37: summarise at 75% of 280,000 tokens, keep the last 10%"),
    C.evaluate: (True, "13, 15: JavaScript execution (outside the rules)"),
    C.goto_seen_url: (True, "15: URLs supplied or observed (outside the rules)"),
    C.snapshot_guards: (False, "not described (the guards it lacked)"),
    C.snapshot_truncation: (True, "33: structure-aware truncation over 48,000 bytes"),
    C.snapshot_scoping: (False, "not described (ours: the whole tree is snapshotted, then cut)"),
    C.unchanged_view_text: (False, "not described (ours)"),
    C.loop_breaker: (False, "47: only the prompt limits repeated failed actions"),
    C.verify: (False, "55: no separate task-success verifier"),
    C.verifier: (False, "55: does not employ a separate task-success verifier"),
    C.ocr_check: (False, "not described (ours: OCR cross-check of the answer)"),
}
WINNER_SETTINGS = {
    "observation": ("structured", "9: structured interaction first, visual perception on demand"),
    "max_steps": (100, "59: up to 100 ReAct iterations"),
    "temperature": (0.2, "59: the model temperature is set to 0.2"),
    "max_output_tokens": (8192, "59: a maximum output length of 8192 tokens"),
    "max_seconds": (3600.0, "51: the total execution time for a single task is limited to one hour"),
    "tool_timeout_s": (180.0, "47: the timeout for a single tool invocation is set to 180 seconds"),
    "snapshot_budget_bytes": (48_000, "33: smaller than 48,000 bytes, it is retained in full"),
    "context_tokens": (280_000, "37: the context budget of the main agent is set to 280,000 tokens"),
    "scroll_breaker_limit": (0, "no scroll breaker (0: never fires)"),
}


def test_paper_profile_is_table7_and_nothing_else():
    config = make_config("paper")
    assert config.components == {c for c in PAPER_TABLE7.values() if c is not None}
    assert not config.outside_rules()  # 'closed action set; goto rejected'
    for name, (value, where) in PAPER_SETTINGS.items():
        assert getattr(config, name) == value, (name, where)
    # Table 3 is the action space, with its budgets; 14 hard constraints; retries 6 in 240 s (§4.6).
    specs = offered(config)
    assert tuple(s.name for s in specs) == TABLE3
    assert {s.name: s.budget for s in specs if s.budget is not None} == TABLE3_BUDGETS
    assert len(HARD_CONSTRAINTS) == 14
    assert (RetryPolicy().max_attempts, RetryPolicy().budget_s) == (6, 240.0)


def test_winner_profile_is_seed_002():
    config = make_config("winner")
    assert set(WINNER_SEED002) == set(Component)  # every component has its line
    assert config.components == {c for c, (on, _) in WINNER_SEED002.items() if on}
    assert config.outside_rules() == sorted(c.value for c in OUTSIDE_RULES)
    for name, (value, where) in WINNER_SETTINGS.items():
        assert getattr(config, name) == value, (name, where)
    assert config.sampling() == {"temperature": 0.2, "max_tokens": 8192}
    # Structured first, visual tools on demand: no screenshot unless the model asks (look, locate).
    mode = get_mode(config.observation)
    assert not mode.image and mode.snapshot and mode.refs
    names = {s.name for s in offered(config, snapshot=mode.snapshot, refs=mode.refs, points=mode.points)}
    assert {"look", "locate", "evaluate", "goto", "snapshot"} <= names
    assert not names & {"find_text", "read_text", "click_many", "zoom"}
    # Seed 002's other numbers, where the code keeps them.
    assert (script.OUTPUT_BUDGET_BYTES, script.LONG_STRING_BYTES) == (24_000, 480)  # line 35
    assert (compress.COMPRESS_AT, compress.KEEP_RECENT, compress.SUMMARY_MAX_CHARS) == (
        0.75,
        0.10,
        6000,
    )  # 37
    assert MAX_CONSECUTIVE_TOOL_TIMEOUTS == 3  # line 47: a third consecutive timeout ends the task
    assert (grid.COLUMNS, grid.ROWS) == (16, 12)  # line 21


def test_reference_profile_is_the_organisers_template():
    # Seed 000 §3 "Starting point" and §4: the UI-TARS template: basic mouse/keyboard actions,
    # coordinates taken as full-size pixels (§4.3), no token stripping (§4.2), 40 steps (§4.2,
    # Table 5 "Step limit 40 -> 80"), a scroll breaker on 10 consecutive scrolls whatever the page
    # does (§4.6), a fixed wait (§4.6), the 5-screenshot window (Table 7: inherited).
    config = make_config("reference")
    assert config.components == frozenset() and not config.outside_rules()
    assert (config.max_steps, config.scroll_breaker_limit, config.screenshot_window) == (40, 10, 5)
    assert config.observation == "vision" and config.temperature is None
    names = [s.name for s in offered(config)]
    assert names == [
        "click",
        "left_double",
        "right_single",
        "drag",
        "scroll",
        "wait",
        "type",
        "hotkey",
        "finished",
    ]


def test_webfovea_profile_is_every_component_within_the_rules():
    config = make_config("webfovea")
    assert config.components == ALL_COMPONENTS and not config.outside_rules()
    assert (config.max_steps, config.max_seconds, config.settle_min_ms, config.observation) == (
        80,
        1800.0,
        30,
        "vision",
    )
    assert config.sampling() == {}  # the model client's own defaults


def test_a_callers_override_wins_over_the_profile():
    assert make_config("winner", max_steps=7, observation="vision").max_steps == 7
    assert make_config("winner", observation="vision").observation == "vision"
    assert make_config("paper", settle_min_ms=0).settle_min_ms == 0


def test_a_scroll_breaker_limit_of_zero_never_fires():
    # The winner had no scroll breaker; the reference's fires on the 10th scroll whatever happens.
    from webfovea.guardrails.breaker import ScrollBreaker

    none = ScrollBreaker(make_config("winner"))
    assert not any(none.fires(True, False) for _ in range(200))
    ref = ScrollBreaker(make_config("reference"))
    assert [ref.fires(True, True) for _ in range(10)][-1] is True
