"""Keyboard actions: type and hotkey."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from webfovea.actions.spec import ActionSpec, ExecContext, Outcome
from webfovea.browser.frames import MAX_FRAME_DEPTH
from webfovea.browser.world import PageUnresponsive, worlds
from webfovea.config import Component
from webfovea.feedback import notes
from webfovea.guardrails.hotkeys import blocked_hotkey, editor_hotkey
from webfovea.types import Action, ParamSpec

_KEY_NAMES = {
    "ctrl": "Control",
    "control": "Control",
    "shift": "Shift",
    "alt": "Alt",
    "meta": "Meta",
    "cmd": "Meta",
    "enter": "Enter",
    "return": "Enter",
    "esc": "Escape",
    "escape": "Escape",
    "tab": "Tab",
    "space": " ",
    "backspace": "Backspace",
    "delete": "Delete",
    "del": "Delete",
    "home": "Home",
    "end": "End",
    "pageup": "PageUp",
    "pagedown": "PageDown",
    "up": "ArrowUp",
    "down": "ArrowDown",
    "left": "ArrowLeft",
    "right": "ArrowRight",
    "arrowup": "ArrowUp",
    "arrowdown": "ArrowDown",
    "arrowleft": "ArrowLeft",
    "arrowright": "ArrowRight",
    "insert": "Insert",
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
    stopped = await ctx.type_text(text)
    if stopped:  # a secret's field lost the focus: nothing more is typed, Enter included
        return Outcome(ok=False, note=stopped)
    if enter and ctx.on(Component.enter_on_newline) and not cut:
        await ctx.page.keyboard.press("Enter")
        # No navigation wait unless one starts (the settle wait sees its request and switches).
        return Outcome(note="Typed the text and pressed Enter.")
    return Outcome(note=cut)


async def exec_hotkey(ctx: ExecContext, action: Action) -> Outcome:
    key = str(action.args.get("key", "")).strip().lower()
    if not key:
        return Outcome(ok=False, check_change=False, note="hotkey needs a key, e.g. hotkey(key='enter').")
    if (
        ctx.on(Component.hotkey_blocklist)
        and blocked_hotkey(key)
        and not (ctx.on(Component.editor_hotkeys) and editor_hotkey(key) and await _editing(ctx))
    ):
        return Outcome(
            ok=False,
            check_change=False,
            refused=True,
            note=(
                f"hotkey '{key}' was blocked: it acts on the browser (address bar, tabs, reload, history, "
                "developer tools), not on the page. Use the site's own links and controls."
            ),
        )
    await ctx.page.keyboard.press(playwright_combo(key))
    return Outcome()


_EDITING = """() => { if (!document.hasFocus()) return false; const a = document.activeElement;
  if (!a) return false; if (a.isContentEditable) return true;
  if (a.tagName === 'TEXTAREA') return !a.readOnly && !a.disabled;
  return a.tagName === 'INPUT' && !a.readOnly && !a.disabled &&
    !/^(button|submit|reset|checkbox|radio|image|file|range|color|hidden)$/i.test(a.type); }"""
_FOCUSED_FRAME = """() => { const a = document.hasFocus() && document.activeElement;
  return a && /^(IFRAME|FRAME)$/.test(a.tagName) ? a : null; }"""


async def _editing(ctx: ExecContext) -> bool:
    """Whether the keyboard focus is in an editable element, in whichever frame holds it. Read
    in the harness's isolated worlds, following the focused <iframe> down: a page faking
    `activeElement` or `hasFocus` cannot unlock a browser key."""
    w = worlds(ctx.page)
    try:
        ref = await w.main()
        for _ in range(MAX_FRAME_DEPTH):
            host = await w.handle(ref, _FOCUSED_FRAME)
            if host is None:
                return bool(await w.call(ref, _EDITING))
            try:
                child = await w.frame_of(host)
            finally:
                await w.release(host)
            if child is None:
                return False
            ref = child
    except PageUnresponsive:
        raise
    except Exception:
        return False
    return False


def typing_line(args: Mapping[str, Any], said: str) -> str:
    """The manual's line for typed text (fill, type): with Enter when the text ends in a newline."""
    text = str(args.get("content", ""))
    into = str(args.get("element") or "the field")  # the element the step hit (judge/manuals/facts.py)
    return f"Type '{text.strip()}' into {into}" + (" and press Enter." if text.endswith("\n") else ".")


SPECS = [
    ActionSpec(
        name="type",
        aliases=("type_text", "input"),
        params=(ParamSpec("content", "text"),),
        signature="type(content='text')",
        purpose="Type into the focused element. End content with \\n to press Enter afterwards.",
        execute=exec_type,
        secret_params=("content",),
        feedback="Whether Enter was pressed; if nothing changed, a note that the keystrokes may have gone nowhere.",
        manual=typing_line,
        uitars="type(content={content})",
    ),
    ActionSpec(
        name="hotkey",
        aliases=("press", "key", "keypress", "press_key", "hotkeys"),
        params=(ParamSpec("key", "key"),),
        signature="hotkey(key='ctrl c')",
        purpose="Press a key combination on the page (space-separated, e.g. 'enter', 'ctrl a', 'escape').",
        execute=exec_hotkey,
        feedback="Browser-level keys (ctrl l, ctrl t, F5, alt left ...) are refused with the reason; editing "
        "shortcuts (ctrl u/k/e/j) pass when the focus is in an editable element.",
        uitars="hotkey(key={key})",
    ),
]
