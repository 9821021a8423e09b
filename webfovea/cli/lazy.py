"""The root command group, with sub-groups whose modules load only when they run.

`webfovea judge`'s options list every judge method, so its module imports the judge catalogue
and through it every method, the evidence filters and the action catalogue (Playwright):
about two thirds of the command line's start. `webfovea --help`, `bench` or `report` do not
need any of it. A lazy sub-group is listed by its name and short help; the module is imported
when the group is resolved, that is when it runs or its own help is asked for.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from difflib import get_close_matches
from typing import Any

import typer
from typer import _click as click
from typer.core import TyperGroup


@dataclass(frozen=True)
class LazyGroup:
    """A sub-group of the root: `module.attribute` is its Typer app; `help` its short help."""

    module: str
    attribute: str
    help: str


LAZY_GROUPS: dict[str, LazyGroup] = {
    "judge": LazyGroup(
        "webfovea.cli.judge",
        "judge_app",
        "Judge runs (NavEval, WebJudge, Autonomous Eval, AgentTrek Eval, WebVoyager, rule) and measure "
        "the judge.",
    ),
}


class RootGroup(TyperGroup):
    """Typer's group, with the sub-groups of `LAZY_GROUPS` listed before they are imported."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self._loaded: dict[str, typer.core.TyperGroup] = {}

    def list_commands(self, ctx: Any) -> list[str]:
        return [*super().list_commands(ctx), *(n for n in LAZY_GROUPS if n not in self.commands)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        cmd = super().get_command(ctx, cmd_name)
        if cmd is not None or cmd_name not in LAZY_GROUPS:
            return cmd
        if cmd_name in self._loaded:
            return self._loaded[cmd_name]
        # Listed in the root's help (or completed): its name and short help are enough.
        return TyperGroup(name=cmd_name, help=LAZY_GROUPS[cmd_name].help)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            name, cmd, rest = super().resolve_command(ctx, args)
        except click.exceptions.UsageError as e:
            # Typer suggests among the loaded commands only: a lazy group's name is one too.
            close = get_close_matches(args[0], list(LAZY_GROUPS)) if args else []
            if close and "Did you mean" not in e.message:
                e.message = f"{e.message.rstrip('.')}. Did you mean {close[0]!r}?"
            raise
        if name in LAZY_GROUPS and name not in self.commands:
            cmd = self._load(name)
        return name, cmd, rest

    def _load(self, name: str) -> typer.core.TyperGroup:
        if name not in self._loaded:
            where = LAZY_GROUPS[name]
            sub = getattr(importlib.import_module(where.module), where.attribute)
            group = typer.main.get_group(sub)
            group.name = name
            self._loaded[name] = group
        return self._loaded[name]
