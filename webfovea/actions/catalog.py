"""Every action the model can take: the closed action set (the paper's Table 3).

The prompt, the parser, the executor, the budgets and the feedback all come from here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from webfovea.actions import control, forms, keyboard, pointer, reading
from webfovea.actions.spec import ActionSpec
from webfovea.actions.types import ParamSpec
from webfovea.config import HarnessConfig

SPECS: tuple[ActionSpec, ...] = (
    *pointer.SPECS[:5],  # click, left_double, right_single, drag, scroll
    control.SPECS[0],  # wait
    pointer.SPECS[5],  # hover
    *forms.SPECS,  # select, fill
    *keyboard.SPECS,  # type, hotkey
    *reading.SPECS,  # find_text, read_text
    *control.SPECS[1:3],  # back, reload
    pointer.SPECS[6],  # click_many
    control.SPECS[3],  # finished
)

BY_NAME: dict[str, ActionSpec] = {s.name: s for s in SPECS}

TABLE3 = (
    "click", "left_double", "right_single", "drag", "scroll", "wait", "hover", "select", "fill", "type",
    "hotkey", "find_text", "read_text", "back", "reload", "click_many", "finished",
)  # fmt: skip


def offered(config: HarnessConfig) -> list[ActionSpec]:
    """The actions this harness offers, in prompt order."""
    reference = config.profile == "reference"
    return [s for s in SPECS if s.offered(config.on, reference)]


def parser_specs(specs: Sequence[ActionSpec]) -> Mapping[str, Sequence[ParamSpec]]:
    return {s.name: s.params for s in specs}
