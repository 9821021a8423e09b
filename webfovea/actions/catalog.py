"""Every action the model can take: the closed action set (the paper's Table 3).

The prompt, the parser, the executor, the budgets and the feedback all come from here.
Adding an action is one module with its `SPECS` plus one line in `_MODULES`; it is
offered after the paper's actions unless its name is placed in `TABLE3` order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from webfovea.actions import (
    control,
    forms,
    keyboard,
    locate,
    outside_rules,
    pointer,
    reading,
    structure,
    zoom,
)
from webfovea.actions.spec import ActionSpec
from webfovea.actions.targets import by_reference
from webfovea.config import HarnessConfig
from webfovea.types import ParamSpec

_MODULES = (pointer, control, forms, keyboard, reading, outside_rules, structure, locate, zoom)

# The paper's Table 3, in its order: the order the prompt lists the actions in.
TABLE3 = (
    "click", "left_double", "right_single", "drag", "scroll", "wait", "hover", "select", "fill", "type",
    "hotkey", "find_text", "read_text", "back", "reload", "click_many", "finished",
)  # fmt: skip


def _register() -> dict[str, ActionSpec]:
    by_name: dict[str, ActionSpec] = {}
    for module in _MODULES:
        for spec in module.SPECS:
            if spec.name in by_name:
                raise ValueError(f"action {spec.name!r} is defined twice")
            by_name[spec.name] = spec
    order = [n for n in TABLE3 if n in by_name] + [n for n in by_name if n not in TABLE3]
    return {n: by_name[n] for n in order}


BY_NAME: dict[str, ActionSpec] = _register()
SPECS: tuple[ActionSpec, ...] = tuple(BY_NAME.values())


def _aliases() -> dict[str, str]:
    out: dict[str, str] = {}
    for spec in SPECS:
        for alias in spec.aliases:
            if alias in BY_NAME or out.get(alias, spec.name) != spec.name:
                raise ValueError(f"alias {alias!r} of {spec.name!r} is taken")
            out[alias] = spec.name
    return out


# Names models use for offered actions; the parser applies one only when the alias
# itself is not an offered action.
ALIASES: dict[str, str] = _aliases()


def offered(
    config: HarnessConfig, *, snapshot: bool = False, refs: bool = False, points: bool = True
) -> list[ActionSpec]:
    """The actions this harness offers, in prompt order (the reference profile: those without a switch).

    The observation mode's flags: `snapshot` offers the snapshot actions (find, snapshot, look),
    `refs` gives pointer/form actions a `ref` target, `points` keeps start_box in their prompt line.
    """
    specs = [s for s in SPECS if s.offered(config.on, snapshot)]
    return [by_reference(s, points=points) if refs else s for s in specs]


def parser_specs(specs: Sequence[ActionSpec]) -> Mapping[str, Sequence[ParamSpec]]:
    return {s.name: s.params for s in specs}
