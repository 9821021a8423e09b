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
