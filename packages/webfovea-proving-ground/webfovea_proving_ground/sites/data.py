"""Seeded synthetic data shared by the sites and the task suite.

Everything is derived from `random.Random(seed)` at start-up, so the task suite can
compute each expected answer from the same object the pages render.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from functools import lru_cache


@dataclass(frozen=True)
class Country:
    code: str
    option: str  # how the portal spells it (the <select> option text)
    said: str  # how a task instruction spells it
    region: str


# Option texts differ from task spellings only by case, accents, spaces, punctuation
# or a parenthetical suffix, so exact -> normalised -> substring matching can find them.
COUNTRIES: list[Country] = [
    Country("AU", "Australia", "Australia", "Asia & Pacific"),
    Country("BO", "Bolivia (Plurinational State of)", "Bolivia", "Americas"),
    Country("BR", "Brazil", "Brazil", "Americas"),
    Country("CA", "Canada", "Canada", "Americas"),
    Country("CL", "Chile", "Chile", "Americas"),
    Country("CI", "Côte d’Ivoire", "Cote d'Ivoire", "Africa"),
    Country("CZ", "Czechia", "Czechia", "Europe"),
    Country("DE", "Germany", "Germany", "Europe"),
    Country("EG", "Egypt", "Egypt", "Africa"),
    Country("FR", "France", "France", "Europe"),
    Country("IN", "India", "India", "Asia & Pacific"),
    Country("ID", "Indonesia", "Indonesia", "Asia & Pacific"),
    Country("JP", "Japan", "Japan", "Asia & Pacific"),
    Country("KE", "Kenya", "Kenya", "Africa"),
    Country("MX", "Mexico", "Mexico", "Americas"),
    Country("NZ", "New-Zealand", "New Zealand", "Asia & Pacific"),
    Country("NG", "Nigeria", "Nigeria", "Africa"),
    Country("NO", "Norway", "Norway", "Europe"),
    Country("PE", "Peru", "Peru", "Americas"),
    Country("PH", "Philippines (the)", "Philippines", "Asia & Pacific"),
    Country("ST", "São Tomé and Príncipe", "Sao Tome and Principe", "Africa"),
    Country("ZA", "South Africa", "South Africa", "Africa"),
    Country("SE", "Sweden", "Sweden", "Europe"),
    Country("TR", "Türkiye", "Turkiye", "Europe"),
    Country("GB", "UNITED KINGDOM", "United Kingdom", "Europe"),
    Country("VN", "Viet Nam", "Vietnam", "Asia & Pacific"),
]
BY_CODE = {c.code: c for c in COUNTRIES}

INDICATORS: dict[str, str] = {
    "cpi": "Consumer price index (CPI), % y/y",
    "core": "Core consumer prices, % y/y",
    "unemp": "Unemployment rate, % of labour force",
    "ip": "Industrial production, % y/y",
    "exports": "Exports of goods, USD million",
    "retail": "Retail sales volume, % y/y",
}
FREQUENCIES = {"M": "Monthly", "Q": "Quarterly", "A": "Annual"}
FIRST_YEAR, LAST_YEAR = 2015, 2025
MONTHS = [f"{y}-{m:02d}" for y in range(FIRST_YEAR, LAST_YEAR + 1) for m in range(1, 13)]
DASH_YEARS = list(range(2019, 2026))


def _walk(rng: random.Random, n: int, start: float, step: float, lo: float, hi: float) -> list[float]:
    out, x = [], start
    for _ in range(n):
        x = min(hi, max(lo, x + rng.gauss(0, step)))
        out.append(x)
    return out


@dataclass
class World:
    seed: int
    series: dict[tuple[str, str], list[float]] = field(default_factory=dict)
    trade: dict[str, dict[str, object]] = field(default_factory=dict)

    def value(self, code: str, indicator: str, period: str) -> float:
        """Value for a month 'YYYY-MM', quarter 'YYYY-Qn' or year 'YYYY' (means, 1 decimal)."""
        months = period_months(period)
        vals = [self.series[(code, indicator)][MONTHS.index(m)] for m in months]
        return round(sum(vals) / len(vals), 1)

    def rows(self, code: str, indicator: str, freq: str, start: str, end: str) -> list[tuple[str, float]]:
        """The table body: periods whose months all fall in [start, end] (ISO dates), oldest first."""
        out = []
        for p in periods(freq):
            months = period_months(p)
            if months[0] + "-01" >= start[:10] and months[-1] + "-01" <= end[:10]:
                out.append((p, self.value(code, indicator, p)))
        return out

    def summary(self, code: str, indicator: str, freq: str, start: str, end: str) -> dict[str, str]:
        vals = [v for _, v in self.rows(code, indicator, freq, start, end)]
        if not vals:
            return {"avg": "–", "min": "–", "max": "–", "n": "0"}
        return {
            "avg": fmt(sum(vals) / len(vals), 2),
            "min": fmt(min(vals), 1),
            "max": fmt(max(vals), 1),
            "n": str(len(vals)),
        }


def fmt(x: float, nd: int = 1) -> str:
    return f"{x:,.{nd}f}"


def periods(freq: str) -> list[str]:
    if freq == "M":
        return list(MONTHS)
    if freq == "Q":
        return [f"{y}-Q{q}" for y in range(FIRST_YEAR, LAST_YEAR + 1) for q in range(1, 5)]
    return [str(y) for y in range(FIRST_YEAR, LAST_YEAR + 1)]


def period_months(period: str) -> list[str]:
    if "-Q" in period:
        y, q = period.split("-Q")
        return [f"{y}-{m:02d}" for m in range(3 * int(q) - 2, 3 * int(q) + 1)]
    if len(period) == 4:
        return [f"{period}-{m:02d}" for m in range(1, 13)]
    return [period]


@lru_cache(maxsize=8)
def world(seed: int) -> World:
    rng = random.Random(f"world-{seed}")
    w = World(seed)
    n = len(MONTHS)
    for c in COUNTRIES:
        w.series[(c.code, "cpi")] = [round(v, 1) for v in _walk(rng, n, rng.uniform(1, 8), 0.45, -1.5, 25)]
        w.series[(c.code, "core")] = [round(v, 1) for v in _walk(rng, n, rng.uniform(1, 6), 0.3, -1.0, 18)]
        w.series[(c.code, "unemp")] = [round(v, 1) for v in _walk(rng, n, rng.uniform(3, 12), 0.2, 1.5, 30)]
        w.series[(c.code, "ip")] = [round(v, 1) for v in _walk(rng, n, rng.uniform(-2, 5), 1.1, -20, 25)]
        w.series[(c.code, "retail")] = [round(v, 1) for v in _walk(rng, n, rng.uniform(-1, 4), 0.9, -15, 20)]
        scale = rng.uniform(800, 40000)
        w.series[(c.code, "exports")] = [
            round(v) for v in _walk(rng, n, scale, scale * 0.03, scale * 0.4, scale * 3)
        ]
    names = [c.option for c in COUNTRIES]
    for c in COUNTRIES:
        exports = [round(v, 1) for v in _walk(rng, len(DASH_YEARS), rng.uniform(5, 400), 12, 1, 900)]
        imports = [
            round(v, 1) for v in _walk(rng, len(DASH_YEARS), exports[0] * rng.uniform(0.7, 1.3), 12, 1, 900)
        ]
        partner = rng.choice([n for n in names if n != c.option])
        w.trade[c.code] = {"exports": exports, "imports": imports, "partner": partner}
    return w


def token(*parts: object, n: int = 8) -> str:
    """A stable short code derived from the parts (reference numbers, gate tokens)."""
    return hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:n].upper()
