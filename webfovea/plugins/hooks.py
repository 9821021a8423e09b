"""Hooks: what a plug-in adds to a run beyond registered items — its own bench/ab options, its
own block in summary.json, its own section of the HTML report, its own lines at the end of a
run, and its own step after the tasks ran (in the manner of pytest's hookspecs: `addoption`,
`terminal_summary`; pytest's `junitxml.py` adds its options and summary line this way).

A plug-in is a module (or object) with functions marked `@hookimpl` and named as below; it is
registered by an entry point in the `webfovea.plugins` group, or in code with
`plugin_manager().register(obj)`. Hooks observe a finished run and add to what is written; they
never steer a step.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import pluggy

from webfovea.plugins.registry import PluginProblem, _origin_of

__all__ = [
    "PLUGIN_GROUP",
    "SuiteOption",
    "SummarySection",
    "hookimpl",
    "hookspec",
    "plugin_manager",
    "plugin_problems",
]

PLUGIN_GROUP = "webfovea.plugins"
hookspec = pluggy.HookspecMarker("webfovea")
hookimpl = pluggy.HookimplMarker("webfovea")
log = logging.getLogger("webfovea.plugins")


@dataclass(frozen=True)
class SuiteOption:
    """An option a plug-in adds to `webfovea bench` and `webfovea ab` for its suites.

    `kind`: "flag" (a boolean switch), "text" (one value), "list" (comma-separated values).
    Its value reaches the suite's loader as `SuiteOptions.extra[dest]`; a suite that does not
    name `dest` in its `accepts` refuses it with a clear error."""

    dest: str
    flags: tuple[str, ...]
    help: str
    kind: str = "text"
    suites: tuple[str, ...] = ()  # the suites it belongs to, for the help text
    commands: tuple[str, ...] = ("bench", "ab")


@dataclass
class SummarySection:
    """A plug-in's block of summary.json: `summary.extensions[name]`, its schema the plug-in's.

    `deprecated_top_level`: keys a former release wrote at the top of summary.json, written
    there too for one more release so their readers keep working (CHANGELOG says which)."""

    name: str
    data: dict[str, Any]
    deprecated_top_level: dict[str, Any] = field(default_factory=dict)


class HookSpecs:
    @hookspec
    def webfovea_registries(self) -> Sequence[Any]:
        """The registries this plug-in owns (for `webfovea plugins` to list what is in them)."""
        raise NotImplementedError

    @hookspec
    def webfovea_suite_options(self) -> Sequence[SuiteOption]:
        """Options this plug-in adds to `bench` and `ab`."""
        raise NotImplementedError

    @hookspec
    def webfovea_summary_section(self, per_task: dict[str, Any], tasks: list[Any]) -> SummarySection | None:
        """The plug-in's block of summary.json for this run (None when the run is not its concern).
        `per_task`: task id -> the summary's row (TaskRow); `tasks`: the run's Task records."""
        raise NotImplementedError

    @hookspec
    def webfovea_report_section(self, summary: dict[str, Any], escape: Callable[[Any], str]) -> str | None:
        """HTML for the run report (escape every value with `escape`), or None."""
        raise NotImplementedError

    @hookspec
    def webfovea_terminal_summary(self, summary: dict[str, Any]) -> Sequence[str] | None:
        """Lines printed after a run's summary table (None or empty: nothing)."""
        raise NotImplementedError

    @hookspec
    def webfovea_after_tasks(self, tasks: list[Any], out_dir: Path, sites: Any) -> None:
        """After the tasks ran, before summary.json is written, while the sites still run
        (`sites`: the running proving ground's handle, or None): write what the plug-in scores
        into the task folders."""
        raise NotImplementedError

    @hookspec(firstresult=True)
    def webfovea_live_judge(self, tasks: list[Any], sites: Any) -> Callable[[Any, Any], bool | None] | None:
        """A judge of a finished task for the progress line (task, result -> passed, or None)."""
        raise NotImplementedError


_PM: pluggy.PluginManager | None = None
_PROBLEMS: list[PluginProblem] = []
_ORIGINS: dict[str, str] = {}


def plugin_manager() -> pluggy.PluginManager:
    """The process's plug-in manager, the `webfovea.plugins` entry points loaded on first use."""
    global _PM
    if _PM is None:
        pm = pluggy.PluginManager("webfovea")
        pm.add_hookspecs(HookSpecs)
        _PM = pm
        for ep in entry_points(group=PLUGIN_GROUP):
            _load(pm, ep)
    return _PM


def _load(pm: pluggy.PluginManager, ep: Any) -> None:
    origin = _origin_of(ep)
    try:
        if pm.has_plugin(ep.name):
            held = pm.get_plugin(ep.name)
            raise ValueError(f"the name {ep.name!r} is already taken by {getattr(held, '__name__', held)}")
        pm.register(ep.load(), name=ep.name)
        _ORIGINS[ep.name] = str(origin)
    except Exception as e:  # one broken plug-in must not take the others down
        problem = PluginProblem("hooks", ep.name, origin, f"{type(e).__name__}: {e}")
        _PROBLEMS.append(problem)
        log.warning("%s", problem)


def plugin_problems() -> list[PluginProblem]:
    plugin_manager()
    return list(_PROBLEMS)


def hook_plugins() -> list[tuple[str, str]]:
    """(name, origin) of every hook plug-in loaded."""
    pm = plugin_manager()
    return [(name, _ORIGINS.get(name, "registered in code")) for name, _ in pm.list_name_plugin() if name]
