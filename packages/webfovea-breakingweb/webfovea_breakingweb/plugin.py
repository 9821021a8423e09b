"""BreakingWeb as a webfovea plug-in: its suite, its own bench/ab options, its block of
summary.json, its report section, its lines at the end of a run and its backend-state scoring.

Registered by entry points (pyproject.toml: `webfovea.suites` names `SUITE`, `webfovea.plugins`
names this module), through the same door as any outside plug-in; nothing in the product
imports it. What it adds is described in docs/breakingweb.md and docs/plugins.md.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from webfovea.plugins import SuiteOption, SummarySection, hookimpl
from webfovea.suites import Suite, SuiteError, SuiteOptions
from webfovea.task import Task

NAME = "breakingweb"
PAIRINGS = ("official", "sweep")
# webfovea: our own harness; text, gui: seed 003's contracts; browser-use: its own agent loop;
# human: a person at a headed browser
HARNESSES = ("webfovea", "text", "gui", "browser-use", "human")

OPTIONS = (
    SuiteOption(
        "paired",
        ("--paired",),
        "breakingweb: run each task clean and under each applicable intervention family, "
        "each from fresh state (= --pairing sweep).",
        kind="flag",
        suites=(NAME,),
        commands=("bench",),
    ),
    SuiteOption(
        "pairing",
        ("--pairing",),
        "breakingweb: official (each task clean and under one variant, chosen by seed: the seed "
        "paper's design) or sweep (under every applicable family).",
        suites=(NAME,),
    ),
    SuiteOption(
        "families",
        ("--families",),
        "breakingweb: comma-separated families (e.g. fabricated_success,save_drift); default the "
        "official ones (seed 003's catalogue), 'all' adds this project's extensions.",
        kind="list",
        suites=(NAME,),
    ),
    SuiteOption(
        "apps",
        ("--apps",),
        "breakingweb: comma-separated environments/apps (e.g. social,calendar); default the "
        "official environments with --pairing official, every app otherwise.",
        kind="list",
        suites=(NAME,),
    ),
    SuiteOption(
        "tiers",
        ("--tiers",),
        "breakingweb: comma-separated difficulty tiers (T1..T5; the first apps' easy, medium, hard).",
        kind="list",
        suites=(NAME,),
    ),
    SuiteOption(
        "panel",
        ("--panel",),
        "breakingweb: a panel of the official pairing: human-140 (seed 003's Human-140: 4 base "
        "tasks per environment x tier cell, each clean and under its official variant).",
        suites=(NAME,),
    ),
    SuiteOption(
        "harness",
        ("--harness",),
        "breakingweb: webfovea (default: webfovea's harness), text (seed 003's text harness: "
        "accessibility tree with bids, 26,000-token input budget) or gui (screenshot only, "
        "coordinates; viewport of --model-family), through the BrowserGym registration, or "
        "browser-use (browser-use's own agent loop, in its own venv), or "
        "human (a person at a headed browser: each task cold, then warm after a reset; "
        'docs/breakingweb.md, "People\'s runs").',
        suites=(NAME,),
        commands=("bench",),
    ),
    SuiteOption(
        "model_family",
        ("--model-family",),
        "breakingweb --harness gui: the viewport and coordinate space of Table 7 "
        "(gemini, qwen, claude, gpt; default claude).",
        suites=(NAME,),
        commands=("bench",),
    ),
    SuiteOption(
        "time_cap",
        ("--time-cap",),
        "breakingweb --harness text|gui|browser-use|human: the per-task (per-attempt for a person) "
        "wall-clock cap in seconds (default 600, the lower end of the paper's 600-1,200 s).",
        suites=(NAME,),
        commands=("bench",),
    ),
)


def _pairing(options: SuiteOptions) -> str | None:
    return options.get("pairing") or ("sweep" if options.get("paired") else None)


def _check(options: SuiteOptions) -> None:
    from webfovea_breakingweb.environments import chosen_apps
    from webfovea_breakingweb.panels import check_panel
    from webfovea_breakingweb.suite import select_families, select_tiers

    pairing = options.get("pairing")
    if pairing is not None and pairing not in PAIRINGS:
        raise SuiteError(f"unknown pairing {pairing!r}; use official or sweep")
    if pairing == "official" and options.get("paired"):
        raise SuiteError("--paired is --pairing sweep; give one of them")
    panel = options.get("panel")
    if panel and (pairing == "sweep" or options.get("paired")):
        raise SuiteError("--panel is drawn from the official pairing; leave out --pairing sweep / --paired")
    try:  # an unknown family, app, tier or panel is the user's mistake, named with the valid ones
        select_families(list(options.get("families") or []) or None)
        chosen_apps(list(options.get("apps") or []) or None)
        select_tiers(list(options.get("tiers") or []) or None)
        if panel:
            check_panel(panel)
    except ValueError as e:
        raise SuiteError(str(e)) from None
    if _check_harness(options)[0] == "browser-use":  # before any site starts: say it now
        from webfovea_breakingweb.harnesses.browser_use_runner import BrowserUseMissing, browser_use_python

        try:
            browser_use_python()
        except BrowserUseMissing as e:
            raise SuiteError(str(e)) from None


def _check_harness(options: SuiteOptions) -> tuple[str, str | None, float]:
    harness = options.get("harness") or "webfovea"
    if harness not in HARNESSES:
        raise SuiteError(f"unknown harness {harness!r}; one of: {', '.join(HARNESSES)}")
    family, cap = options.get("model_family"), options.get("time_cap")
    if harness != "gui" and family:
        raise SuiteError("--model-family applies to --harness gui only")
    if harness == "webfovea" and cap:
        raise SuiteError(
            "--time-cap applies to --harness text|gui|browser-use|human "
            "(webfovea's harness: --max-seconds of the profile)"
        )
    if harness == "gui":
        from webfovea_breakingweb.gym.viewports import UnknownFamily, viewport_of

        family = family or "claude"
        try:
            viewport_of(family)
        except UnknownFamily as e:
            raise SuiteError(str(e)) from None
    try:
        seconds = float(cap) if cap else 600.0
    except ValueError:
        raise SuiteError(f"--time-cap takes seconds, got {cap!r}") from None
    if seconds <= 0:
        raise SuiteError("--time-cap must be positive")
    return harness, family, seconds


def _own_runner(options: SuiteOptions) -> Any:
    """--harness text|gui: the tasks run through the BrowserGym registration's contract;
    --harness browser-use: through browser-use's own agent loop."""
    harness, family, seconds = _check_harness(options)
    if harness == "webfovea":
        return None
    if harness == "human":
        return _people_runner(seconds)
    from webfovea_breakingweb.harnesses.runner import check_model, run_tasks

    def run(tasks: list[Task], out_dir: Path, run: Any) -> bool:
        try:  # a model it cannot drive, a folder of another harness: the user's to fix
            check_model(str(run.get("model")))
            if harness == "browser-use":
                from webfovea_breakingweb.harnesses import browser_use_runner as bu

                try:
                    return bu.run_tasks(tasks, out_dir, run, time_cap_s=seconds)
                except bu.BrowserUseMissing as e:
                    raise SuiteError(str(e)) from None
            return run_tasks(tasks, out_dir, run, harness=harness, model_family=family, time_cap_s=seconds)
        except ValueError as e:
            raise SuiteError(str(e)) from None

    return run


def _people_runner(seconds: float) -> Any:
    from webfovea_breakingweb.people.browser import NoDisplay
    from webfovea_breakingweb.people.runner import PeopleRunError, run_people

    def run(tasks: list[Task], out_dir: Path, run: Any) -> bool:
        try:  # no display, another harness's folder: the user's to fix
            return run_people(tasks, out_dir, run, time_cap_s=seconds)
        except (PeopleRunError, NoDisplay) as e:
            raise SuiteError(str(e)) from None

    return run


def _load(handle: Any, seed: int, options: SuiteOptions) -> list[Task]:
    from webfovea_breakingweb.suite import load_breakingweb_suite

    def names(key: str) -> list[str] | None:
        return list(options.get(key) or []) or None

    return load_breakingweb_suite(
        handle,
        seed,
        families=names("families"),
        pairing=_pairing(options),
        apps=names("apps"),
        tiers=names("tiers"),
        panel=options.get("panel"),
    )


def _catalogue(seed: int) -> dict[str, Any]:
    from webfovea_breakingweb.suite import catalogue

    return catalogue(seed)


def _catalogue_view(data: dict[str, Any]) -> list[Any]:
    from webfovea_breakingweb.catalogue_view import catalogue_tables

    return catalogue_tables(data)


def _meta(options: SuiteOptions) -> dict[str, Any]:
    pairing = "official" if options.get("panel") else _pairing(options)
    out: dict[str, Any] = {"paired": True, "pairing": pairing} if pairing else {}
    if options.get("panel"):
        out["panel"] = options.get("panel")
    if pairing:  # the report over runs refuses runs of different catalogues (report/runs.py)
        from webfovea_breakingweb.pairing import catalogue_fingerprint

        out["catalogue"] = catalogue_fingerprint()
    harness, family, seconds = _check_harness(options)
    if harness != "webfovea":  # a run through webfovea's own harness keeps the meta it had
        out.update({"harness": harness, "time_cap_s": seconds})
    if harness == "human":  # whatever --model said: the run's answers are a person's
        out["model"] = "human"
    if family:
        out["model_family"] = family
    return out


SUITE = Suite(
    NAME,
    "stateful apps scored by backend state; --pairing official|sweep adds paired drops "
    "(seed 42, 40 steps by default), --list the catalogue; see docs/breakingweb.md",
    _load,
    accepts=frozenset(o.dest for o in OPTIONS),
    # every variant of every app, the extensions too: a run may hold any of them
    replay_options=SuiteOptions({"paired": True, "families": ("all",)}),
    default_seed=42,  # seed 003 §3: "the public seed s=42" (breakingweb/pairing.py)
    default_max_steps=40,  # seed 003 §3: "a fixed 40-action cap"
    catalogue=_catalogue,
    catalogue_view=_catalogue_view,
    run_meta=_meta,
    check_options=_check,
    own_runner=_own_runner,
)


def _stateful(tasks: list[Any]) -> bool:
    return any((t.model_extra or {}).get("stateful_app") for t in tasks)


def _block(summary: dict[str, Any]) -> dict[str, Any] | None:
    # A summary written before the block existed kept these keys at its top level.
    block = (summary.get("extensions") or {}).get(NAME)
    if block is None and summary.get("per_family"):
        block = summary
    return block


@hookimpl
def webfovea_registries() -> Sequence[Any]:
    from webfovea_breakingweb.apps import APPS
    from webfovea_breakingweb.interventions import FAMILIES

    return (APPS, FAMILIES)


@hookimpl
def webfovea_suite_options() -> Sequence[SuiteOption]:
    return OPTIONS


@hookimpl
def webfovea_summary_section(per_task: dict[str, Any], tasks: list[Any]) -> SummarySection | None:
    if not any((t.model_extra or {}).get("family") for t in tasks):
        return None
    from webfovea_breakingweb.paired import paired_summary

    data = {
        k: ({kk: _json(vv) for kk, vv in v.items()} if isinstance(v, dict) else _json(v))
        for k, v in paired_summary(per_task, tasks).items()
    }
    # Until 0.2 the same keys stood at the top of summary.json (CHANGELOG): kept there one release.
    return SummarySection(NAME, data, deprecated_top_level=dict(data))


def _json(value: Any) -> Any:
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    return value


@hookimpl
def webfovea_report_section(summary: dict[str, Any], escape: Callable[[Any], str]) -> str | None:
    block = _block(summary)
    if not block:
        return None
    from webfovea_breakingweb.report_charts import paired_section

    return paired_section({**block, "meta": summary.get("meta") or {}}, escape)


@hookimpl
def webfovea_terminal_summary(summary: dict[str, Any]) -> Sequence[str] | None:
    block = _block(summary)
    if not block or not block.get("paired"):
        return None
    from webfovea_breakingweb.terminal import paired_lines

    meta = summary.get("meta") or {}
    return paired_lines(block, meta.get("pairing"), meta.get("harness"))


@hookimpl
def webfovea_after_tasks(tasks: list[Any], out_dir: Path, sites: Any) -> None:
    if sites is None or not _stateful(tasks):
        return
    from webfovea_breakingweb.scoring import attach_states

    with sites.control() as control:
        attach_states(out_dir, tasks, control)


@hookimpl
def webfovea_live_judge(tasks: list[Any], sites: Any) -> Callable[[Any, Any], bool | None] | None:
    if sites is None or not _stateful(tasks):
        return None
    from webfovea_breakingweb.scoring import live_state_judge

    return live_state_judge(sites)
