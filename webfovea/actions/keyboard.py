"""Keyboard actions: type and hotkey."""

from __future__ import annotations

from webfovea.actions.spec import ActionSpec, ExecContext, Outcome
from webfovea.config import Component
from webfovea.feedback import notes
from webfovea.guardrails.hotkeys import blocked_hotkey
from webfovea.types import Action, ParamSpec

_KEY_NAMES = {
    "ctrl": "Control", "control": "Control", "shift": "Shift", "alt": "Alt", "meta": "Meta", "cmd": "Meta",
    "enter": "Enter", "return": "Enter", "esc": "Escape", "escape": "Escape", "tab": "Tab", "space": " ",
    "backspace": "Backspace", "delete": "Delete", "del": "Delete", "home": "Home", "end": "End",
    "pageup": "PageUp", "pagedown": "PageDown", "up": "ArrowUp", "down": "ArrowDown", "left": "ArrowLeft",
    "right": "ArrowRight", "arrowup": "ArrowUp", "arrowdown": "ArrowDown", "arrowleft": "ArrowLeft",
    "arrowright": "ArrowRight", "insert": "Insert",
}


def playwright_combo(key: str) -> str:
    parts = key.split()
    out = []
    for p in parts:
        if p in _KEY_NAMES:
            out.append(_KEY_NAMES[p])
        elif len(p) >= 2 and p[0] == "f" and p[1:].isdigit():
            out.append(p.upper())
        else:
            out.append(p if len(p) == 1 else p.capitalize())
    return "+".join(out)


def capped(text: str, ctx: ExecContext) -> tuple[str, str]:
    """The text one action may type, and the note when it was cut (guardrail: max_type_chars)."""
    cap = ctx.config.max_type_chars
    return (text, "") if len(text) <= cap else (text[:cap], notes.typed_capped(cap, len(text)))


async def exec_type(ctx: ExecContext, action: Action) -> Outcome:
    content = str(action.args.get("content", ""))
    enter = content.endswith("\n")
    text, cut = capped(content.rstrip("\n"), ctx)
    await ctx.page.keyboard.type(text)
    if enter and ctx.on(Component.enter_on_newline) and not cut:
        await ctx.page.keyboard.press("Enter")
        return Outcome(navigated=True, note="Typed the text and pressed Enter.")
    return Outcome(note=cut)


async def exec_hotkey(ctx: ExecContext, action: Action) -> Outcome:
    key = str(action.args.get("key", "")).strip().lower()
    if not key:
        return Outcome(ok=False, check_change=False, note="hotkey needs a key, e.g. hotkey(key='enter').")
    if ctx.on(Component.hotkey_blocklist) and blocked_hotkey(key):
        return Outcome(
            ok=False,
            check_change=False,
            note=(
                f"hotkey '{key}' was blocked: it acts on the browser (address bar, tabs, reload, history, "
                "developer tools), not on the page. Use the site's own links and controls."
            ),
        )
    await ctx.page.keyboard.press(playwright_combo(key))
    return Outcome(navigated=key in ("enter", "return"))


SPECS = [
    ActionSpec(
        name="type",
        aliases=("type_text", "input"),
        params=(ParamSpec("content", "text"),),
        signature="type(content='text')",
        purpose="Type into the focused element. End content with \\n to press Enter afterwards.",
        execute=exec_type,
        feedback="Whether Enter was pressed; if nothing changed, a note that the keystrokes may have gone nowhere.",
    ),
    ActionSpec(
        name="hotkey",
        aliases=("press", "key", "keypress", "press_key", "hotkeys"),
        params=(ParamSpec("key", "key"),),
        signature="hotkey(key='ctrl c')",
        purpose="Press a key combination on the page (space-separated, e.g. 'enter', 'ctrl a', 'escape').",
        execute=exec_hotkey,
        feedback="Browser-level keys (ctrl l, ctrl t, F5, alt left ...) are refused with the reason.",
    ),
]
