"""One way in for every extension (docs/plugins.md).

- `Registry`: the one registry type. Every kind of item a plug-in can add has one, with its
  entry-point group (`registries()` lists them): actions, observation modes, suites, sites,
  judge methods, model kinds, environments, plan ops, intervention families.
- Hooks (`hookimpl`, in the `webfovea.plugins` entry-point group): a plug-in's own bench/ab
  options, summary block, report section, end-of-run lines and post-run step.

Built-ins go through the same `register` calls and hooks as outside plug-ins.
"""

from webfovea.plugins.hooks import (
    PLUGIN_GROUP,
    SuiteOption,
    SummarySection,
    hook_plugins,
    hookimpl,
    hookspec,
    plugin_manager,
    plugin_problems,
)
from webfovea.plugins.registry import (
    BUILTIN,
    Origin,
    PluginConflict,
    PluginProblem,
    Registry,
    UnknownName,
    all_registries,
)

__all__ = [
    "BUILTIN",
    "PLUGIN_GROUP",
    "Origin",
    "PluginConflict",
    "PluginProblem",
    "Registry",
    "SuiteOption",
    "SummarySection",
    "UnknownName",
    "all_registries",
    "hook_plugins",
    "hookimpl",
    "hookspec",
    "plugin_manager",
    "plugin_problems",
]
