"""The catalogue's list views: a category page or a search, narrowed by facets (brand, price,
rating) and sorted, and the facet counts the sidebar shows — as a shop's search page computes
them: a brand's count is over everything the other filters leave, so ticking one brand does not
hide the others.

Query parameters (all optional): `category` (a slug), `q` (words of the name or brand),
`brand` (comma-separated), `min` / `max` (whole dollars), `rating` (the least average stars),
`sort` (one of SORTS; `featured` is the catalogue's own order). Bad values are refused by name.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from webfovea_breakingweb.apps.ecommerce.state import EcommerceState, Product
from webfovea_breakingweb.engine.store import Rejected

SORTS = {
    "featured": None,
    "price-asc": lambda p: (p.price, p.id),
    "price-desc": lambda p: (-p.price, p.id),
    "rating": lambda p: (-p.rating, -p.reviews, p.id),
    "reviews": lambda p: (-p.reviews, p.id),
}
RATINGS = ("4", "3", "2")


def _dollars(q: dict[str, str], key: str) -> int | None:
    raw = q.get(key, "").strip()
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        raise Rejected(f"{key}: {raw!r} is not a price in dollars") from None
    if value < 0:
        raise Rejected(f"{key}: a price cannot be negative")
    return round(value * 100)


def _scope(state: EcommerceState, q: dict[str, str]) -> list[Product]:
    """The products of the category or search, before any facet."""
    got = list(state.products)
    if q.get("category"):
        if not any(c.slug == q["category"] for c in state.categories):
            raise LookupError(f"No category {q['category']!r}.")
        got = [p for p in got if p.category == q["category"]]
    words = q.get("q", "").lower().split()
    if words:
        got = [p for p in got if all(w in f"{p.name} {p.brand}".lower() for w in words)]
    return got


def _priced(got: list[Product], q: dict[str, str]) -> list[Product]:
    lo, hi = _dollars(q, "min"), _dollars(q, "max")
    rating = q.get("rating", "")
    if rating and rating not in RATINGS:
        raise Rejected(f"rating: one of {', '.join(RATINGS)}, not {rating!r}")
    return [
        p for p in got
        if (lo is None or p.price >= lo) and (hi is None or p.price <= hi) and (not rating or p.rating >= int(rating))
    ]  # fmt: skip


def brands(q: dict[str, str]) -> list[str]:
    return [b for b in q.get("brand", "").split(",") if b]


def listing(state: EcommerceState, q: dict[str, str]) -> list[Product]:
    sort = q.get("sort", "featured") or "featured"
    if sort not in SORTS:
        raise Rejected(f"unknown sort {sort!r}; one of {', '.join(SORTS)}")
    got = _priced(_scope(state, q), q)
    chosen = brands(q)
    if chosen:
        got = [p for p in got if p.brand in chosen]
    key = SORTS[sort]
    return sorted(got, key=key) if key else got


def facets(state: EcommerceState, q: dict[str, str]) -> dict[str, Any]:
    """The sidebar: each brand's count under the other filters (ticked ones first kept), and the
    price range of the category or search."""
    scope = _scope(state, q)
    counts = Counter(p.brand for p in _priced(scope, q))
    shown = sorted(set(counts) | set(brands(q)))
    prices = [p.price for p in scope]
    return {
        "brands": [{"name": b, "count": counts.get(b, 0)} for b in shown],
        "price_range": [min(prices), max(prices)] if prices else None,
    }
