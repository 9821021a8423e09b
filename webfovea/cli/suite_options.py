"""The options plug-ins add to `bench` and `ab` (`webfovea_suite_options`: BreakingWeb's
`--pairing`, `--families`, ...), made into real command-line options.

Typer reads a command's options from its function's signature, so the command is wrapped in a
function whose signature is the command's own plus one keyword per plug-in option; the wrapper
hands the plug-in options to the command as one `suite_options` dict (only those given). Their
help, their errors and `--help` are Typer's own.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Annotated, Any, get_type_hints

import typer

from webfovea.plugins import SuiteOption
from webfovea.suites import suite_option_specs

__all__ = ["with_suite_options"]

SUITE_OPTIONS = "suite_options"  # the command's parameter that receives them


def _annotation(spec: SuiteOption) -> tuple[Any, Any]:
    option = typer.Option(*spec.flags, help=spec.help)
    if spec.kind == "flag":
        return Annotated[bool, option], False
    return Annotated[str | None, option], None


def _value(spec: SuiteOption, raw: Any) -> Any:
    if spec.kind == "list" and isinstance(raw, str):
        return tuple(v.strip() for v in raw.split(",") if v.strip()) or None
    return raw


def with_suite_options(command: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn` (which takes `suite_options`) with every plug-in option for `command` as its own."""
    specs = suite_option_specs(command)
    hints = get_type_hints(fn, include_extras=True)
    own = [
        p.replace(annotation=hints.get(p.name, p.annotation))
        for p in inspect.signature(fn).parameters.values()
        if p.name != SUITE_OPTIONS
    ]
    taken = {p.name for p in own}
    extra = []
    for spec in specs:
        if spec.dest in taken:
            raise ValueError(f"a plug-in's option {spec.dest!r} clashes with the {command} command's own")
        annotation, default = _annotation(spec)
        extra.append(
            inspect.Parameter(
                spec.dest, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
            )
        )

    @functools.wraps(fn)
    def wrapper(**kwargs: Any) -> Any:
        given = {s.dest: _value(s, kwargs.pop(s.dest, None)) for s in specs}
        return fn(**kwargs, **{SUITE_OPTIONS: {k: v for k, v in given.items() if v not in (None, False)}})

    params = own + extra
    wrapper.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params}
    return wrapper
