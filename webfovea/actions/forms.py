"""Element-level form actions: select (native dropdowns) and fill (focus, clear, type, read back)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from webfovea.actions.keyboard import capped, typing_line
from webfovea.actions.pointer import BOX
from webfovea.actions.spec import ActionSpec, ExecContext, Outcome
from webfovea.config import Component
from webfovea.execution.forms import fill_at, select_at
from webfovea.types import Action, ParamSpec


async def exec_select(ctx: ExecContext, action: Action) -> Outcome:
    x, y = ctx.css(action.args.get("start_box"))
    option = str(action.args.get("option", ""))
    res = await select_at(ctx.page, x, y, option, shown=ctx.view.to_model(x, y))
    if res.ok:
        how = "" if res.how == "exact" else f" (matched '{option}' {res.how})"
        return Outcome(point=(x, y), note=f"Selected '{res.chosen}'{how}.", check_change=False)
    listed = "; ".join(f"'{o}'" for o in (res.options or [])[:40])
    more = f" (+{len(res.options) - 40} more)" if res.options and len(res.options) > 40 else ""
    err = res.error or "no matching option"
    note = f"select failed: {err}."
    if res.options:
        note += f" Available options: {listed}{more}."
    return Outcome(ok=False, point=(x, y), note=note, check_change=False)


async def exec_fill(ctx: ExecContext, action: Action) -> Outcome:
    x, y = ctx.css(action.args.get("start_box"))
    content = str(action.args.get("content", ""))
    enter = content.endswith("\n")
    text, cut = capped(content.rstrip("\n"), ctx)
    res = await fill_at(ctx.page, x, y, text, shown=ctx.view.to_model(x, y), typist=ctx.typist)
    if not res.ok:
        return Outcome(ok=False, point=(x, y), note=f"fill failed: {res.error}", check_change=False)
    note = f"The box now contains '{res.value}'." + (f" {cut}" if cut else "")
    if enter and ctx.on(Component.enter_on_newline) and not cut:
        await ctx.page.keyboard.press("Enter")
        note += " Pressed Enter."
    # The executor's before/after check runs as for pointer actions; a navigation that Enter
    # starts is waited for when it starts (the settle wait sees its request).
    return Outcome(point=(x, y), note=note)


def _select_line(args: Mapping[str, Any], said: str) -> str:
    """The manual's line: the dropdown by its name when the records name it."""
    return f"Choose '{args.get('option', '')}' in {args.get('element') or 'the drop-down list'}.{said}"


SPECS = [
    ActionSpec(
        name="select",
        targets=True,
        watch=False,
        params=(ParamSpec("start_box", "point"), ParamSpec("option", "text")),
        signature=f"select(start_box={BOX}, option='option text')",
        purpose="Choose an option in the dropdown at the point (native dropdowns cannot be opened by clicking).",
        execute=exec_select,
        component=Component.select,
        pointer=True,
        rule="For a dropdown (<select>), always use select, never click its options.",
        feedback="The option chosen (and how it matched); on failure, the list of available options.",
        manual=_select_line,
    ),
    ActionSpec(
        name="fill",
        targets=True,
        params=(ParamSpec("start_box", "point"), ParamSpec("content", "text")),
        signature=f"fill(start_box={BOX}, content='text')",
        purpose="Focus the text box at the point, clear it, type content (end with \\n to press Enter).",
        execute=exec_fill,
        secret_params=("content",),
        component=Component.fill,
        pointer=True,
        rule="To enter text in a box, use fill (not click then type); dates may be written in any common format.",
        feedback="The value actually in the box after typing, and what else changed (suggestions, results); "
        "on failure, what is under the point.",
        manual=typing_line,
    ),
]
