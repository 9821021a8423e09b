"""Every action the model can take: the closed action set (the paper's Table 3).

The prompt, the parser, the executor, the budgets and the feedback all come from here.
Adding an action is one module with its `SPECS` plus one line in `_MODULES`; it is
offered after the paper's actions unless its name is placed in `TABLE3` order. A spec
module kept outside this package (a plug-in, a test) joins the same catalogue with
`register(module)` before a harness is built, and leaves it with `unregister(module)`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import ModuleType

from webfovea.actions import (
    control,
    files,
    forms,
    keyboard,
    locate,
    outside_rules,
    pointer,
    reading,
    structure,
    templates,
    user_tools,
    zoom,
)
from webfovea.actions.spec import ActionSpec
from webfovea.actions.targets import by_reference
from webfovea.config import HarnessConfig
from webfovea.plugins import BUILTIN, Origin, Registry
from webfovea.types import ParamSpec

_MODULES = (
    pointer,
    control,
    forms,
    keyboard,
    reading,
    outside_rules,
    structure,
    locate,
    zoom,
    files,
    templates,
)

# The paper's Table 3, in its order: the order the prompt lists the actions in.
TABLE3 = (
    "click", "left_double", "right_single", "drag", "scroll", "wait", "hover", "select", "fill", "type",
    "hotkey", "find_text", "read_text", "back", "reload", "click_many", "finished",
)  # fmt: skip


def _by_name(modules: Sequence[ModuleType]) -> dict[str, ActionSpec]:
    by_name: dict[str, ActionSpec] = {}
    for module in modules:
        for spec in module.SPECS:
            if spec.name in by_name:
                raise ValueError(f"action {spec.name!r} is defined twice")
            by_name[spec.name] = spec
    order = [n for n in TABLE3 if n in by_name] + [n for n in by_name if n not in TABLE3]
    return {n: by_name[n] for n in order}


def _aliases(by_name: Mapping[str, ActionSpec]) -> dict[str, str]:
    out: dict[str, str] = {}
    for spec in by_name.values():
        for alias in spec.aliases:
            if alias in by_name or out.get(alias, spec.name) != spec.name:
                raise ValueError(f"alias {alias!r} of {spec.name!r} is taken")
            out[alias] = spec.name
    return out


def _specs_of(obj: object, _ep_name: str) -> list[ActionSpec] | None:
    # An entry point may name a module of specs (its SPECS), a list of them, or one spec.
    if isinstance(obj, (list, tuple)):
        return list(obj)
    specs = getattr(obj, "SPECS", None)
    return list(specs) if specs is not None else None


def _check(items: dict[str, ActionSpec]) -> None:
    _aliases(_ordered(items))  # an alias clash is refused before anything changes


def _ordered(items: Mapping[str, ActionSpec]) -> dict[str, ActionSpec]:
    order = [n for n in TABLE3 if n in items] + [n for n in items if n not in TABLE3]
    return {n: items[n] for n in order}


ACTIONS: Registry[ActionSpec] = Registry(
    "action", user_tools.ENTRY_POINT_GROUP, ActionSpec, expand=_specs_of, check=_check
)
BY_NAME: dict[str, ActionSpec] = {}
SPECS: tuple[ActionSpec, ...] = ()
# Names models use for offered actions; the parser applies one only when the alias
# itself is not an offered action.
ALIASES: dict[str, str] = {}


def _rebuild() -> None:
    # The dicts are updated in place because other modules hold them (the parser holds ALIASES).
    global SPECS
    by_name = _ordered(ACTIONS.loaded())
    aliases = _aliases(by_name)
    BY_NAME.clear()
    BY_NAME.update(by_name)
    ALIASES.clear()
    ALIASES.update(aliases)
    SPECS = tuple(BY_NAME.values())


ACTIONS.subscribe(_rebuild)
_BUILTIN_SPECS = _by_name(_MODULES)
for _spec in _BUILTIN_SPECS.values():
    ACTIONS.register(_spec, origin=Origin(BUILTIN))


def register(module: ModuleType) -> None:
    """Add a spec module's `SPECS` to the catalogue, after the built-in actions. Harnesses
    built afterwards offer, describe, parse and execute them like any other action."""
    new = {s.name: s for s in module.SPECS}
    held = ACTIONS.loaded()
    taken = [n for n, s in new.items() if held.get(n, s) is not s]
    if taken:
        raise ValueError(f"action {taken[0]!r} is defined twice")
    _check({**held, **new})
    for spec in new.values():
        ACTIONS.register(spec)


def unregister(module: ModuleType) -> None:
    """Take a module added with `register` out again (the built-in ones stay)."""
    for spec in module.SPECS:
        ACTIONS.unregister(spec)


def register_tools(*specs: ActionSpec) -> ModuleType:
    """Add your own tools (`user_tools.user_tool`) to the catalogue; harnesses built afterwards
    offer them. Returns the module holding them, for `unregister_tools`."""
    module = ModuleType(f"webfovea_user_tools_{'_'.join(s.name for s in specs)}")
    module.SPECS = list(specs)  # type: ignore[attr-defined]
    register(module)
    return module


def unregister_tools(module: ModuleType) -> None:
    unregister(module)


def _load_plugins() -> None:
    """Tools other packages declare (`webfovea.actions` entry points), once, on first use: a
    plug-in may import the spec helpers, which this module imports too."""
    ACTIONS.load_all()


def offered(
    config: HarnessConfig, *, snapshot: bool = False, refs: bool = False, points: bool = True
) -> list[ActionSpec]:
    """The actions this harness offers, in prompt order (the reference profile: those without a switch).

    The observation mode's flags: `snapshot` offers the snapshot actions (find, snapshot, look),
    `refs` gives pointer/form actions a `ref` target, `points` keeps start_box in their prompt line.
    """
    _load_plugins()
    specs = [s for s in BY_NAME.values() if s.offered(config.on, snapshot, config)]
    return [by_reference(s, points=points) if refs else s for s in specs]


def parser_specs(specs: Sequence[ActionSpec]) -> Mapping[str, Sequence[ParamSpec]]:
    return {s.name: s.params for s in specs}
