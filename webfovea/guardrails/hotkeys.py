"""Browser-level key combinations the `hotkey` action refuses (switch: `hotkey_blocklist`)."""

from __future__ import annotations

# Keys that act on the browser rather than the page: they would navigate, open tabs,
# reload or open developer tools — paths around the site's own interface.
BROWSER_HOTKEYS: frozenset[str] = frozenset({
    "ctrl l", "ctrl t", "ctrl n", "ctrl w", "ctrl shift t", "ctrl shift n", "ctrl shift w", "ctrl r",
    "ctrl shift r", "f5", "ctrl f5", "shift f5", "alt left", "alt right", "alt home", "alt d", "f6",
    "ctrl tab", "ctrl shift tab", "ctrl pageup", "ctrl pagedown", "ctrl h", "ctrl j", "ctrl d", "ctrl o",
    "ctrl p", "ctrl s", "ctrl u", "ctrl k", "ctrl e", "ctrl shift i", "ctrl shift j", "ctrl shift c",
    "f11", "f12", "alt f4", "ctrl q", "ctrl shift delete", "browserback", "browserforward",
    "browserrefresh", "meta l", "meta t", "meta n", "meta w", "meta r", "meta left", "meta right",
    "meta [", "meta ]", "ctrl f4", "ctrl shift q", "ctrl shift b", "ctrl shift o", "ctrl shift m",
    "alt f", "alt e", "shift escape", "meta shift t", "meta shift n", "meta q", "meta alt i",
    *(f"ctrl {n}" for n in "123456789"), *(f"meta {n}" for n in "123456789"), *(f"alt {n}" for n in "123456789"),
})  # fmt: skip

_MODIFIERS = {
    "ctrl": "ctrl",
    "control": "ctrl",
    "shift": "shift",
    "alt": "alt",
    "option": "alt",
    "meta": "meta",
    "cmd": "meta",
    "command": "meta",
    "win": "meta",
    "super": "meta",
}
_ORDER = ("ctrl", "meta", "alt", "shift")


def canonical(key: str) -> str:
    """One spelling per combination: modifiers named one way, in one order, without repeats
    ('shift ctrl T' and 'control shift t' are both 'ctrl shift t')."""
    mods: set[str] = set()
    rest: list[str] = []
    for part in key.lower().split():
        if part in _MODIFIERS:
            mods.add(_MODIFIERS[part])
        else:
            rest.append(part)
    return " ".join([m for m in _ORDER if m in mods] + rest)


_BLOCKED = frozenset(canonical(k) for k in BROWSER_HOTKEYS)


def blocked_hotkey(key: str) -> bool:
    """True for a key combination that acts on the browser, whatever the order of its modifiers."""
    return canonical(key) in _BLOCKED


# Blocked browser keys that editors on the page also bind (underline, insert link, centre,
# justify): they reach the page when the focus is in an editable element (switch:
# `editor_hotkeys`); everywhere else they stay blocked.
EDITOR_HOTKEYS: frozenset[str] = frozenset({"ctrl u", "ctrl k", "ctrl e", "ctrl j", "meta u", "meta k"})
_EDITOR = frozenset(canonical(k) for k in EDITOR_HOTKEYS)


def editor_hotkey(key: str) -> bool:
    """True for a blocked key that page editors handle (see EDITOR_HOTKEYS), in any spelling."""
    return canonical(key) in _EDITOR
