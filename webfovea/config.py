"""Harness switches: every component is a named switch; a profile is a set of switches plus
the settings its source published.

`webfovea` turns every component on; `paper` is the paper's harness (seed 000, Table 7 and
its budgets); `winner` the challenge winner's published settings (seed 002); `reference` the
organisers' template the paper started from. Each profile's table, with the seed's numbers
and where they come from, is in docs/profiles.md (tests/package/test_profiles.py holds it
as data). `--disable NAME` turns one component off.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal

from pydantic import BaseModel, Field, field_serializer, field_validator, model_validator

from webfovea.secrets import NAME_RE, Secret


class Component(StrEnum):
    # parsing
    first_action = "first_action"  # keep only the first Thought/Action pair
    token_strip = "token_strip"  # strip chat-template tokens and trailing markup
    # execution
    coord_align = "coord_align"  # cap the screenshot, map by sent-image/viewport ratio
    select = "select"  # element-level select for native <select>
    fill = "fill"  # focus, clear, type, read back
    enter_on_newline = "enter_on_newline"  # type('...\n') presses Enter
    iframe_fallback = "iframe_fallback"  # DOM event sequence inside a child frame
    click_many = "click_many"  # image-grid CAPTCHA
    back_reload = "back_reload"  # back() and reload()
    # feedback
    feedback_notes = "feedback_notes"  # fingerprints before/after -> notes
    # observation
    hover = "hover"
    find_text = "find_text"
    read_text = "read_text"
    documents = "documents"  # a PDF/spreadsheet/CSV/JSON/text download opens as a page (docs/documents.md)
    ocr = "ocr"  # scanned pages of a document get a text layer from Tesseract, when it is installed
    upload = "upload"  # upload(start_box|ref, files): a file input gets files from the task's workspace
    zoom = "zoom"  # zoom(region): the region re-rendered at full resolution for the model (the fovea)
    tool_triggers = "tool_triggers"  # tool rules in the prompt
    # append-only image history with compaction every `compact_every` steps, so a caching
    # provider reads the prefix back; off (the paper's harness): the sliding window of N
    append_history = "append_history"
    # guardrails
    hard_constraints = "hard_constraints"  # the constraint list in the prompt
    hotkey_blocklist = "hotkey_blocklist"  # browser-level keys rejected
    budgets = "budgets"  # per-action budgets enforced by the executor
    scroll_breaker_needs_no_change = "scroll_breaker_needs_no_change"
    adaptive_settle = "adaptive_settle"  # quiet-page wait instead of a fixed sleep
    settle_aware = (
        "settle_aware"  # the wait also knows WebSocket replies, child frames, page timers, animations
    )
    person_pointer = "person_pointer"  # a click moves, lets hover happen, then presses; drags paced
    container_scroll = "container_scroll"  # scroll by a share of the scroll container under the point
    editor_hotkeys = "editor_hotkeys"  # page editing shortcuts pass when focus is in an editable element
    # context
    compress_history = "compress_history"  # summarise older turns when the context nears its budget
    # outside the challenge's rules: the winner's own tools (seed 002, see docs/glossary.md),
    # offered only by the `winner` profile
    evaluate = "evaluate"  # run a script in the page's main frame (evaluate(script))
    goto_seen_url = "goto_seen_url"  # goto(url) to a URL that appeared in the page's links or text
    # structured/hybrid observation (no effect in vision mode)
    snapshot_guards = "snapshot_guards"  # annotate obfuscated text, graphics, closed shadow roots
    snapshot_truncation = "snapshot_truncation"  # cut a snapshot over the byte budget by structure
    # on a big page, snapshot only the view-near rows, landmarks and small subtrees (observation/scope.py)
    snapshot_scoping = "snapshot_scoping"
    # a step whose view did not change (feedback/pixels.py) sends one sentence instead of a new image
    unchanged_view_text = "unchanged_view_text"
    loop_breaker = "loop_breaker"  # stop a task that repeats one action on one target with no effect
    verify = "verify"  # on a task that changes state, the first finished re-reads the real state first
    # every finished is checked by a verifier model in a fresh context (guardrails/verifier.py)
    verifier = "verifier"
    # the answer's digits are looked for in the OCR of its evidence and in the text read (Tesseract)
    ocr_check = "ocr_check"


# Tools the challenge's rules forbid (no JavaScript, no URL typing). They exist to re-run the
# winner's choices beside ours; any run that has one on is labelled outside the rules.
OUTSIDE_RULES: frozenset[Component] = frozenset({Component.evaluate, Component.goto_seen_url})
# Every component within the rules: the `webfovea` profile, and what `disabled()` counts from.
ALL_COMPONENTS: frozenset[Component] = frozenset(Component) - OUTSIDE_RULES

# The reference agent had basic mouse/keyboard actions only, a fixed wait, a scroll
# breaker that fires on 10 scrolls whatever the page does, and 40 steps.
REFERENCE_COMPONENTS: frozenset[Component] = frozenset()


NO_PRICES = (
    "a money budget (max_cost) needs the model's prices: the cost of a model with no known price "
    "cannot be counted. Give them (--prices FILE, prices= in Python): "
    '{"input": 3, "output": 15} in $ per million tokens (docs/costs.md), or cap tokens instead (max_tokens)'
)


class HarnessConfig(BaseModel):
    """Everything that shapes one harness. Serialisable so a run records how it was made."""

    profile: str = "webfovea"
    components: frozenset[Component] = Field(default_factory=lambda: ALL_COMPONENTS)
    viewport_width: int = 1920
    viewport_height: int = 1080
    screenshot_cap_width: int = 1440
    screenshot_cap_height: int = 810
    # The model-conventions row (webfovea/models/conventions.py) the cap was derived from:
    # recorded so a reader of run.json knows which provider rule the run was sized for.
    conventions: str = "default"
    coordinate_convention: str = "pixels"  # "pixels" of the sent image, "norm1000" or "norm999"
    # Who shrinks the capture to the cap: "browser" (Chromium renders it at the sent size, one
    # CDP call: no full-size PNG to decode or resize) or "python" (a full-size capture resized
    # with Pillow). Not pixel-identical (text is rasterised at the smaller scale); see docs/records.md.
    capture_scaling: Literal["browser", "python"] = "browser"
    # How the pixel check (the last word on "no change", feedback/watch.py) compares the capture
    # the model saw with the next one: "grid" (feedback/pixels.py: cells where >= 2.4 % of the
    # pixels moved by 24 levels) or "perceptual" (feedback/perceptual.py: low-passed, shift-
    # tolerant windows; sees faint canvas changes, ignores caret, re-encode and 1-px shifts).
    # docs/results/change-detection.md measures both.
    change_detection: Literal["grid", "perceptual"] = "grid"
    # Task-type checklists (webfovea/skills/checklists.py): "auto" appends the checklist of the
    # task's category (else one classified from its words) to the instruction the model reads;
    # `checklist_dir` adds or replaces <category>.md files. An A/B arm's `checklists=auto`.
    checklists: Literal["off", "auto"] = "off"
    checklist_dir: str | None = None
    # Reviewed operating notes per site (webfovea/skills/site_notes.py): a folder of <site>.md
    # (`webfovea notes --publish`); the task's site's notes are shown with its instruction.
    site_notes_dir: str | None = None
    screenshot_window: int = 5
    compact_every: int = 5  # append_history: every N steps all but the latest image become a stub
    max_steps: int = 80
    max_seconds: float = 1800.0
    # Spending caps of one task (guardrails/spend.py): once the tokens (every role's calls) or
    # the cost recorded so far reach one, the task ends `budget_exceeded` before its next model
    # call. `prices`: $ per million tokens (input, output, cache_read, cache_write) the cost is
    # counted with; a money cap without them is refused (no known price, no cost to cap).
    max_tokens: int | None = Field(default=None, ge=1)
    max_cost: float | None = Field(default=None, gt=0)
    prices: dict[str, float] | None = None
    # After an action that navigated, the settle wait lasts at least this long (the paper's
    # adaptive wait: "between 1 and 8 s" after a navigation, seed 000 §4.6), and at most
    # settle_max_ms; other actions are bounded by min(settle_max_ms, 3 s) and have no minimum.
    settle_min_ms: int = 30
    settle_quiet_ms: int = 60
    settle_max_ms: int = 8000
    fixed_wait_ms: int = 500  # used when adaptive_settle is off
    tool_timeout_s: float = 180.0
    scroll_breaker_limit: int = 10
    # The model's context budget in tokens (the conventions row's `context_tokens`); history
    # compression starts at 75% of it (observation/compress.py).
    context_tokens: int = 280_000
    # What the model is shown and how it names a target (webfovea/observation/modes/):
    # vision (a screenshot, points), structured (Playwright's AI snapshot, refs), hybrid (both).
    observation: str = "vision"
    snapshot_budget_bytes: int = 48_000  # the winner's measured budget (seed 002, docs/profiles.md)
    snapshot_timeout_ms: int = 10_000
    # snapshot_scoping: a page with more elements than this whose snapshot would exceed
    # snapshot_scope_bytes (estimated) is scoped, and what the model is shown of it is cut there
    # (12,000 bytes: about 2x one 1440x810 screenshot in tokens)
    snapshot_scope_elements: int = 300
    snapshot_scope_bytes: int = 12_000
    ref_timeout_ms: int = 1_500  # resolving a ref: never Playwright's 30 s default
    stale_ref_budget: int = 8  # stale references a task may send before it is stopped
    unresponsive_s: float = 10.0  # a page whose main thread answers nothing this long ends the task
    max_type_chars: int = 2000  # characters one type/fill may send (the rest is cut, and the model told)
    max_downloads: int = 5  # downloads one task may make
    max_download_mb: float = 50.0  # size of one download
    # upload: the folder whose files the model may put into a file input (None: nothing to
    # upload; the action is refused with a note), and the size of one file at most.
    workspace: str | None = None
    max_upload_mb: float = 20.0
    # Saved logins for a browser launched here: a Playwright storage state file (cookies, local
    # storage), or a Chromium profile folder kept between runs (each runner worker gets its own
    # sub-folder `worker-N`). None: a fresh, logged-out context.
    storage_state: str | None = None
    user_data_dir: str | None = None
    # Secrets the model types by name (`<secret>NAME</secret>`), each only on its origins
    # (webfovea/secrets.py). The values never reach JSON: a recorded config holds the origins.
    secrets: dict[str, Secret] = Field(default_factory=dict)
    site_guard: bool = True  # top-level navigations stay on the task's site (guardrails/site.py)
    allow_domains: list[str] = Field(default_factory=list)  # more domains the task's site includes
    # Templates of recurring widgets (a TOML file: an image and what each is, vision/templates.py):
    # find_template is offered when set, and the step router's template routes read them.
    templates: str | None = None
    # The per-step routing table (a TOML file, routing/table.py): before each model call a route
    # may hand the step to a rule, a template match or another model. None: the model takes all.
    step_routes: str | None = None
    # look/locate go to this separate model (same spec grammar as --model; None: the task's own
    # model answers them); its base URL, when not the provider's environment variable.
    vision_model: str | None = None
    vision_base_url: str | None = None
    # The verifier's model (`--verifier SPEC`; None: the task's own model, in a separate plain call)
    # and its base URL, when not the provider's environment variable.
    verifier_model: str | None = None
    verifier_base_url: str | None = None
    # What the verifier is shown: "full" (the screenshot marked where the agent last acted, the
    # page text it read, the URL, the OCR note) or "paper" (seed 000 §6.3 as written: only the
    # task, the final screenshot and the candidate answer) — an A/B arm's `verifier_evidence=paper`.
    verifier_evidence: Literal["full", "paper"] = "full"
    # The history summary's model (`--summary-model SPEC`, routes.toml `summarise`; None: the
    # task's own model; "rule": the rule-based fallback, no call) and its base URL.
    summary_model: str | None = None
    summary_base_url: str | None = None
    loop_breaker_limit: int = (
        6  # the same pointer action on the same spot, no page change, this many times in a row
    )
    # What a sampling model client is asked for (None: the client's own default, 0.0 and 1,024
    # tokens for the HTTP clients). A model spec's own options win; the oracle ignores both.
    temperature: float | None = None
    max_output_tokens: int | None = None

    @model_validator(mode="after")
    def _money_needs_prices(self) -> HarnessConfig:
        if self.prices is not None and not {"input", "output"} <= set(self.prices):
            raise ValueError(
                f"prices need at least input and output ($ per million tokens), not {self.prices}"
            )
        if self.max_cost is not None and not self.prices:
            raise ValueError(NO_PRICES)
        return self

    @field_validator("secrets")
    @classmethod
    def _secret_names(cls, secrets: dict[str, Secret]) -> dict[str, Secret]:
        bad = [n for n in secrets if not NAME_RE.match(n)]
        if bad:
            raise ValueError(f"secret names {bad}: use letters, digits, _ . - (a letter or _ first)")
        return secrets

    @field_validator("checklist_dir", "site_notes_dir")
    @classmethod
    def _guidance_folder(cls, folder: str | None) -> str | None:
        # refused when the config is made (a CLI start), not at each task's first model call
        from pathlib import Path

        if folder is not None and not Path(folder).is_dir():
            raise ValueError(f"{folder} is not a folder (of <category>.md checklists or <site>.md notes)")
        return folder

    def sampling(self) -> dict[str, Any]:
        """The client options this config asks a model for (only the ones it sets)."""
        out: dict[str, Any] = {}
        if self.temperature is not None:
            out["temperature"] = self.temperature
        if self.max_output_tokens is not None:
            out["max_tokens"] = self.max_output_tokens
        return out

    def on(self, c: Component | str) -> bool:
        return Component(c) in self.components

    def disabled(self) -> list[str]:
        """Every component that is off, sorted: all components minus this config's.

        The one definition of "which components were off": result.json, run.json and
        summary.json all record this list, so `--profile reference` lists every component.
        """
        return sorted(c.value for c in ALL_COMPONENTS - self.components)

    def outside_rules(self) -> list[str]:
        """The components on that the challenge's rules forbid (empty: the run is within the rules)."""
        return sorted(c.value for c in self.components & OUTSIDE_RULES)

    @field_serializer("components", when_used="json")
    def _sorted_components(self, components: frozenset[Component]) -> list[str]:
        # A frozenset has no stable order (string hashing is salted per process); records
        # written by two processes must compare equal, so JSON gets the names sorted.
        return sorted(c.value for c in components)


# The paper's harness: the components of its Table 7 and nothing else (seed 000, Appendix A;
# docs/profiles.md maps each row). Not in it: the append-only history (its five-screenshot
# window), zoom, the loop breaker (close to the idle breaker the paper reverted, §5.4),
# verify, the verifier and its OCR check, history compression, the page-aware settle parts, the person-like pointer,
# container scrolling, editor hotkeys, and the snapshot-only guards and truncation.
PAPER_COMPONENTS: frozenset[Component] = frozenset(
    {
        Component.first_action,  # Parsing: first-action truncation
        Component.token_strip,  # Parsing: special-token / trailing-markup stripping
        Component.coord_align,  # Execution: coordinate-space alignment (+ the 1440x810 cap)
        Component.select,  # Execution: select for native dropdowns (+ option list on failure)
        Component.fill,  # Execution: fill with date handling (+ read-back)
        Component.enter_on_newline,  # Execution: Enter on trailing \n
        Component.iframe_fallback,  # Execution: iframe DOM fallback
        Component.click_many,  # Execution: click_many (image-grid CAPTCHA only)
        Component.back_reload,  # Execution: back, reload
        Component.feedback_notes,  # Feedback: DOM + child-frame fingerprint + notes, text hash
        Component.hover,  # Observation: hover exposed to the model
        Component.find_text,  # Observation: find_text (frame-aware, returns no text)
        Component.read_text,  # Observation: read_text with de-obfuscation
        Component.tool_triggers,  # Observation: rule-based tool triggers
        Component.hard_constraints,  # Guardrails: 14 hard constraints
        Component.hotkey_blocklist,  # Guardrails: browser-level hotkey block-list
        Component.budgets,  # Guardrails: executor budgets (Table 3)
        Component.scroll_breaker_needs_no_change,  # Guardrails: scroll breaker (requires no change)
        Component.adaptive_settle,  # Guardrails: adaptive settle wait
    }
)

# The winner's published system (seed 002, docs/profiles.md has the line of each): the
# structured observation, its snapshot truncation, history compression and append-only
# message history, the Playwright MCP actions it was built on (click, type with submit, form
# filling, hover, back), tool errors returned to the model, and its two tools outside the
# rules. None of our additions it did not describe (per-action budgets, breakers, verify,
# snapshot guards, find_text/read_text, iframe fallback, ...).
WINNER_COMPONENTS: frozenset[Component] = (
    frozenset(
        {
            Component.first_action,  # one tool call per step: parallel tool calls disabled
            Component.token_strip,  # a native tool call carries no chat-template tokens
            Component.coord_align,  # locate maps its 0-1000 grid to the measured CSS viewport
            Component.select,
            Component.fill,
            Component.enter_on_newline,
            Component.back_reload,
            Component.hover,
            Component.feedback_notes,  # tool errors are returned to the model
            Component.hard_constraints,  # its prompt's rules (seen URLs only, evidence before finishing)
            Component.adaptive_settle,  # Playwright MCP settles each action before it returns
            Component.append_history,  # the ReAct memory appends every tool output
            Component.compress_history,  # summarise at 75% of 280,000 tokens, keep the last 10%
            Component.snapshot_truncation,  # structure-aware cut over 48,000 bytes
        }
    )
    | OUTSIDE_RULES
)

PROFILES = ("webfovea", "paper", "reference", "winner")
_PROFILE_COMPONENTS: dict[str, frozenset[Component]] = {
    "webfovea": ALL_COMPONENTS,
    "paper": PAPER_COMPONENTS,
    "reference": REFERENCE_COMPONENTS,
    "winner": WINNER_COMPONENTS,
}
# The settings each profile takes from its source (the config's defaults otherwise); a
# caller's own overrides (--max-steps, --observation, ...) win over them.
PROFILE_SETTINGS: dict[str, dict[str, Any]] = {
    "webfovea": {},
    # Seed 000: 80 steps / 1,800 s (Table 7, §4.6), the five most recent screenshots (§4.1),
    # after a navigation a wait of 1 to 8 s (§4.6).
    "paper": {
        "max_steps": 80,
        "max_seconds": 1800.0,
        "screenshot_window": 5,
        "settle_min_ms": 1000,
        "settle_max_ms": 8000,
    },
    # The template: 40 steps (seed 000 §4.2, Table 5), its scroll breaker on 10 scrolls (§4.6).
    "reference": {"max_steps": 40, "scroll_breaker_limit": 10},
    # Seed 002: snapshot first (structured), 100 ReAct iterations, temperature 0.2 and 8,192
    # output tokens, one hour per task, 180 s per tool call, a 48,000-byte snapshot budget and a
    # 280,000-token context; no scroll breaker (0: never fires).
    "winner": {
        "observation": "structured",
        "max_steps": 100,
        "max_seconds": 3600.0,
        "temperature": 0.2,
        "max_output_tokens": 8192,
        "tool_timeout_s": 180.0,
        "snapshot_budget_bytes": 48_000,
        "context_tokens": 280_000,
        "scroll_breaker_limit": 0,
    },
}


def ablated_components(profile: str | None, disabled: list[str] | None) -> list[str]:
    """The components a run turned off beyond what its profile leaves off (its `--disable`s).

    `disabled` lists every component that was off; for a label ("webfovea −select") only the
    ones the profile itself would have kept on are news. Unknown profile: all of them.
    """
    base = _PROFILE_COMPONENTS.get(profile or "")
    names = sorted(disabled or [])
    if base is None:
        return names
    on_in_profile = {c.value for c in base}
    return [d for d in names if d in on_in_profile]


def make_config(
    profile: str = "webfovea", disable: list[str] | None = None, **overrides: Any
) -> HarnessConfig:
    """Build a config from a profile name, a list of components to disable, and field overrides."""
    if profile not in _PROFILE_COMPONENTS:
        raise ValueError(f"unknown profile {profile!r}; choose one of: {', '.join(PROFILES)}")
    comps = set(_PROFILE_COMPONENTS[profile])
    base: dict[str, Any] = dict(PROFILE_SETTINGS[profile])
    for name in disable or []:
        try:
            comps.discard(Component(name))
        except ValueError:
            known = ", ".join(c.value for c in Component)
            raise ValueError(f"unknown component {name!r}; known components: {known}") from None
    base.update(overrides)
    return HarnessConfig(profile=profile, components=frozenset(comps), **base)
