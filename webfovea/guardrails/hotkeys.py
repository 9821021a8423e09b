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
    "meta [", "meta ]",
})


def blocked_hotkey(key: str) -> bool:
    """True for a key combination (lower-cased, space-separated) that acts on the browser."""
    return key in BROWSER_HOTKEYS


# Blocked browser keys that editors on the page also bind (underline, insert link, centre,
# justify): they reach the page when the focus is in an editable element (switch:
# `editor_hotkeys`); everywhere else they stay blocked.
EDITOR_HOTKEYS: frozenset[str] = frozenset({"ctrl u", "ctrl k", "ctrl e", "ctrl j", "meta u", "meta k"})


def editor_hotkey(key: str) -> bool:
    """True for a blocked key that page editors handle (see EDITOR_HOTKEYS)."""
    return key in EDITOR_HOTKEYS
