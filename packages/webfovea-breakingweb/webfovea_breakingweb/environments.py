"""The official environments of seed 003 (A.1) and which apps a run covers.

`OFFICIAL_ENVIRONMENTS` are the seven the paper names: email (Gmail), finance (Robinhood),
e-commerce (Amazon), social (Reddit), healthcare (a patient portal), education (an LMS), travel
(Booking). An app registered under one of these names is an official environment; every other
registered app (the first apps: mail, shop, bank, booking, tracker, calendar, requests, cases,
or a plug-in's) is an extension, run only when named with `--apps`. The official catalogue
(`--pairing official` without `--apps`) covers the official environments that are registered;
`missing_official()` names the others, so a listing says how far from the paper's it is.

`QUOTAS` is how many base tasks (one pair each) each environment gives the official catalogue:
519 (seed 003: "519 clean/intervention task pairs across seven self-hosted websites") split as
evenly as it goes, the odd one to the first environment (docs/breakingweb.md, "Numbers": the
paper's Figure 3 gives the split as a chart only, so the numbers are chosen).
"""

from __future__ import annotations

from collections.abc import Sequence

from webfovea_breakingweb.apps import APPS

OFFICIAL_ENVIRONMENTS = ("email", "finance", "ecommerce", "social", "healthcare", "education", "travel")
# What each environment's page draws once its first view holds the server's data (not the
# "Loading…" placeholder): where "page ready" ends (benchmarks/breakingweb_page_ready.py, tests).
READY = {
    "email": "#threads",
    "finance": "#positions tbody tr",
    "ecommerce": "#picks article.product",
    "social": "#posts article.post",
    "healthcare": "#home",
    "education": ".course-card",
    "travel": ".stay-card",
}
OFFICIAL_PAIRS = 519  # seed 003, abstract and §2.2
HUMAN_PANEL_SIZE = 140  # seed 003 §5: 4 per environment x difficulty cell


def _quotas(total: int, names: Sequence[str]) -> dict[str, int]:
    base, extra = divmod(total, len(names))
    return {name: base + (1 if i < extra else 0) for i, name in enumerate(names)}


QUOTAS = _quotas(OFFICIAL_PAIRS, OFFICIAL_ENVIRONMENTS)  # email 75, the six others 74


def present_official() -> list[str]:
    """The official environments registered now, in the paper's order."""
    return [name for name in OFFICIAL_ENVIRONMENTS if name in APPS]


def missing_official() -> list[str]:
    return [name for name in OFFICIAL_ENVIRONMENTS if name not in APPS]


def extensions() -> list[str]:
    """The registered apps outside the official seven."""
    return [name for name in APPS if name not in OFFICIAL_ENVIRONMENTS]


class UnknownApp(ValueError):
    pass


def chosen_apps(names: Sequence[str] | None) -> list[str]:
    """The apps a run covers: those named (official or not), else the official environments
    present. UnknownApp names every valid name."""
    if not names:
        return present_official()
    unknown = [n for n in names if n not in APPS]
    if unknown:
        raise UnknownApp(
            f"unknown environment/app {', '.join(map(repr, unknown))}; registered: "
            f"{', '.join(present_official())} (official), {', '.join(extensions())} (extensions)"
            + (
                f"; official but not registered yet: {', '.join(missing_official())}"
                if missing_official()
                else ""
            )
        )
    return list(dict.fromkeys(names))


__all__ = [
    "HUMAN_PANEL_SIZE",
    "OFFICIAL_ENVIRONMENTS",
    "OFFICIAL_PAIRS",
    "QUOTAS",
    "UnknownApp",
    "chosen_apps",
    "extensions",
    "missing_official",
    "present_official",
]
