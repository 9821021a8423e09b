"""The public surface, pinned (as httpx's test_exported_members.py pins its own): a name added to
or taken from these lists is a decision, made here and in CHANGELOG.md, not an accident."""

from __future__ import annotations

import webfovea
import webfovea.app
import webfovea.plugins
import webfovea.suites
from webfovea.plugins import Registry

SURFACE = {
    webfovea: [
        "BrowseResult", "Harness", "HarnessConfig", "PageAgent", "browse", "browse_sync", "make_config", "__version__",
    ],
    webfovea.app: [
        "AbOptions", "AbResult", "AppError", "BenchOptions", "BenchResult", "ReplayOptions",
        "ReplayResult", "Reporter", "run_ab", "run_bench", "run_replay",
    ],
    webfovea.plugins: [
        "BUILTIN", "PLUGIN_GROUP", "Origin", "PluginConflict", "PluginProblem", "Registry", "SuiteOption",
        "SummarySection", "UnknownName", "all_registries", "hook_plugins", "hookimpl", "hookspec",
        "plugin_manager", "plugin_problems",
    ],
    webfovea.suites: ["SUITES", "Suite", "SuiteError", "SuiteOptions", "not_accepted", "site_task_suite", "suite_option_specs"],
}  # fmt: skip


def test_exported_members_are_pinned() -> None:
    for module, names in SURFACE.items():
        assert sorted(module.__all__) == sorted(names), module.__name__
        for name in names:
            assert hasattr(module, name), f"{module.__name__}.{name}"


def test_the_registration_api_is_the_same_on_every_registry() -> None:
    api = ("register", "unregister", "get", "require", "names", "origin", "problems", "group", "kind")
    for name in api:
        assert hasattr(Registry, name) or name in ("group", "kind")
    from webfovea.cli.plugins_cmd import _registries

    registries = _registries()
    kinds = {r.kind for r in registries}
    assert {
        "action", "observation mode", "suite", "site", "judge method", "model kind", "environment kind",
        "plan op", "intervention family",
    } <= kinds  # fmt: skip
    assert len({r.group for r in registries}) == len(registries)  # one entry-point group each
    assert all(isinstance(r, Registry) and r.group.startswith("webfovea.") for r in registries)
