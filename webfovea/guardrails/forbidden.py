"""The closed action set: actions a model may ask for that the harness refuses, with the reason.

The parser rejects these by name (never executes them) and tells the model why, so a
model that tries `goto(url=...)` learns to use the site's own links instead.
"""

from __future__ import annotations

_NAV = "URL navigation is not available: reach pages through the site's own links and controls."
_JS = "JavaScript is not available: operate the page through its visible controls."
_HTTP = "HTTP requests are not available: read the data from the page itself."
_SEARCH = "Search engines and other sites are not allowed: answer only from the designated site."
_TABS = "Tabs are not available: stay on the current page and use its links and controls."

# Actions a model may ask for that the closed action set refuses, with the reason it is told.
DEFAULT_FORBIDDEN: dict[str, str] = {
    **dict.fromkeys(
        ["goto", "go_to", "open_url", "openurl", "navigate", "navigate_to", "visit", "open", "load_url",
         "browse", "set_url", "url"], _NAV),
    **dict.fromkeys(
        ["execute_javascript", "execute_js", "javascript", "js", "run_js", "run_javascript", "eval",
         "evaluate", "exec", "execute_script", "script"], _JS),
    **dict.fromkeys(
        ["fetch", "http_get", "http_post", "http", "request", "get", "post", "curl", "wget", "api_call",
         "download"], _HTTP),
    **dict.fromkeys(["search", "web_search", "google", "google_search", "bing", "search_engine"], _SEARCH),
    **dict.fromkeys(["new_tab", "open_tab", "switch_tab", "close_tab", "tab_focus"], _TABS),
}  # fmt: skip


def forbidden_for(offered: set[str]) -> dict[str, str]:
    """The refusals for a harness that offers `offered` (names and aliases of its actions).

    A profile that offers a refused kind of action (the `winner` profile's goto/evaluate) must
    not refuse it by name, nor refuse its other names with a reason that is no longer true:
    every name sharing a reason with an offered name is dropped with it."""
    lifted = {DEFAULT_FORBIDDEN[name] for name in offered if name in DEFAULT_FORBIDDEN}
    return {name: why for name, why in DEFAULT_FORBIDDEN.items() if why not in lifted}
