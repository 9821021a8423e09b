"""The hard constraints the system prompt states (switch: `hard_constraints`).

Written from the challenge's validity criteria (step-by-step interaction, real-time
autonomy, source compliance) and the paper's guardrails. Numbered in the prompt so the
model can cite them. Stating a rule is not enforcing it: the closed action set
(`forbidden.py`), the hotkey block list and the budgets enforce what can be enforced.
"""

from __future__ import annotations

from collections.abc import Callable

from webfovea.config import Component

HARD_CONSTRAINTS: tuple[str, ...] = (
    "Stay on the task's website and the pages it links to; never leave it for another site.",
    "Do not use search engines, third-party sites or any other outside source of data.",
    "Do not type, guess or construct URLs; reach every page through the site's own links, menus and controls.",
    "Do not call data APIs, download endpoints or hidden URLs directly; use the page as a person would.",
    "Set every filter the task names (country, year, indicator, unit ...) through the page's own controls, exactly as named.",
    "Answer only from what you have seen on this site in this session; never from memory or prior knowledge.",
    "If the answer cannot be reached, call finished with an empty answer: finished(content='').",
    "Call finished only when the answer is visible on the current screenshot, with the task's filters still applied.",
    "Give exactly what the task asks for (the value, unit and format it asks for), without explanations.",
    "Do exactly one action per reply, and write nothing after it: the page's reaction comes in the next message.",
    "Never invent observations, page contents or results of actions you have not seen.",
    "If an action had no effect, do not repeat it unchanged: try a different element, tool or approach.",
    "Dismiss cookie banners and pop-ups through their own buttons before working with the page.",
    "Do not try to bypass logins, paywalls or rate limits; solve an image-grid CAPTCHA only by selecting its tiles.",
)

_NO_URLS = HARD_CONSTRAINTS[2]
# A component outside the rules that is on changes the constraint it would contradict.
RELAXED_BY: dict[Component, tuple[str, str]] = {
    Component.goto_seen_url: (
        _NO_URLS,
        "Do not guess or construct URLs: open by URL (goto) only addresses you have seen on this site's "
        "pages; otherwise use the site's own links, menus and controls.",
    ),
}


def hard_constraints(on: Callable[[Component], bool]) -> tuple[str, ...]:
    """The constraints the prompt states for a harness with these switches."""
    replace = {old: new for c, (old, new) in RELAXED_BY.items() if on(c)}
    return tuple(replace.get(c, c) for c in HARD_CONSTRAINTS)
