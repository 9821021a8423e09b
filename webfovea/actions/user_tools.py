"""Your own tools: a Python function the model can call like a built-in action.

    from webfovea.actions.catalog import register_tools
    from webfovea.actions.user_tools import user_tool

    async def two_factor_code(ctx, service: str) -> str:
        return await my_vault.code(service)          # what the model is told

    register_tools(user_tool("two_factor_code", two_factor_code,
                             purpose="The current 2FA code for a service.", params=("service",)))

A tool is an `ActionSpec` like every action: it appears in the prompt, in the native tool
schemas and in the MCP server's tool list, is parsed, budgeted and recorded in the trajectory.
Its function gets the `ExecContext` (the page is `ctx.page`) and the call's arguments by name,
and returns the sentence the model reads (or None; at most read_text's 600 characters, the rest is
cut with a mark). An exception it raises becomes a note
("two_factor_code failed: ...") and the task goes on. Packages register tools through the
`webfovea.actions` entry points: each names a module with a `SPECS` list (docs/embedding.md).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from webfovea.actions.spec import ActionSpec, ExecContext, Outcome
from webfovea.browser.session import BrowserLost
from webfovea.browser.textsearch import READ_CHARS
from webfovea.browser.world import PageUnresponsive
from webfovea.config import Component
from webfovea.feedback.quote import capped
from webfovea.types import Action, ParamSpec

ENTRY_POINT_GROUP = "webfovea.actions"
ToolFunction = Callable[..., Awaitable[str | None]]


def _executor(name: str, fn: ToolFunction) -> Callable[[ExecContext, Action], Awaitable[Outcome]]:
    async def execute(ctx: ExecContext, action: Action) -> Outcome:
        try:
            told = await fn(ctx, **action.args)
        except (PageUnresponsive, BrowserLost):
            raise  # the page or the browser is gone: the task driver ends the task
        except Exception as e:  # noqa: BLE001 - a tool's own failure is the model's news, not a crash
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            return Outcome(ok=False, check_change=False, note=f"{name} failed: {first[:300]}")
        # What a tool returns is held to read_text's budget: the model never gets more from a
        # tool than it would from reading the page (a tool may relay a page or a mailbox).
        return Outcome(
            check_change=False, note=capped(str(told), READ_CHARS) if told is not None else f"{name} done."
        )

    return execute


def user_tool(  # noqa: PLR0913 -- the spec's own fields, all but the first two optional
    name: str,
    fn: ToolFunction,
    *,
    purpose: str,
    params: Sequence[str | ParamSpec] = (),
    component: Component | None = None,
    told: str = "",
) -> ActionSpec:
    """The spec of a tool: `params` are text parameters by name (or ParamSpecs, e.g. optional)."""
    specs = tuple(p if isinstance(p, ParamSpec) else ParamSpec(p, "text") for p in params)
    if not name.isidentifier():
        raise ValueError(f"a tool's name must be an identifier, not {name!r}")
    signature = f"{name}({', '.join(f'{p.name}=' + repr(p.name) for p in specs)})"
    return ActionSpec(
        name=name,
        params=specs,
        signature=signature,
        purpose=purpose,
        execute=_executor(name, fn),
        component=component,
        watch=False,  # a tool reports its own result; the page is not expected to change
        feedback=told or "What the tool returned; if it failed, why.",
    )
