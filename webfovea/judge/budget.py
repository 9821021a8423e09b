"""The newest requests that fit the judge's token budget, formatted only as far as needed.

The recipe keeps the newest requests that fit the budget and drops the older ones, so a
50 MB capture (tens of thousands of requests) needs only its last few hundred formatted:
cleaning bodies, collapsing repeats and serialising are done newest first, and stop once the
budget is decided. Every request still gets its line in `dropped`.

What the judge is shown is exactly what formatting every request would give: the same
requests, the same `repeated` counts (a run of identical requests is followed to its oldest
member, even past the budget), the same exact token count at the cut. Only the reasons of
requests older than the cut are cheaper: there, repeats are found by comparing requests as
captured (the capture entries themselves, not cleaned), so two that differ only in what cleaning removes (noise
keys, empty values) are two budget drops rather than a budget drop and its duplicate.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Selected = list[tuple[int, dict[str, Any]]]  # (capture index, capture entry), oldest first
Formatter = Callable[[dict[str, Any]], dict[str, Any]]  # a capture entry as the judge sees it


@dataclass
class _Entry:
    request: dict[str, Any]  # {"index": oldest member, **formatted, ["repeated": n]}
    members: list[int]  # capture indices, newest first


class _NewestFirst:
    """The collapsed requests, newest first, built only as far as they are asked for."""

    def __init__(self, selected: Selected, collapse: bool, formatted: Formatter) -> None:
        self.selected = selected
        self.formatted = formatted
        self.pos = len(selected) - 1  # the next request to take, going back in time
        self.collapse = collapse
        self.entries: list[_Entry] = []
        self.pieces: list[str] = []  # each entry serialised, as the budget counts it
        self._peek: tuple[int, dict[str, Any]] | None = None  # took, formatted, not yet placed
        # The last entry formatted, as captured and as formatted: formatting is a pure
        # function, so an identical capture entry (polling) is not formatted again.
        self._last: tuple[dict[str, Any], dict[str, Any]] | None = None

    def _take(self) -> tuple[int, dict[str, Any]] | None:
        if self._peek is not None:
            taken, self._peek = self._peek, None
            return taken
        if self.pos < 0:
            return None
        index, req = self.selected[self.pos]
        self.pos -= 1
        if self._last is None or self._last[0] != req:
            self._last = (req, self.formatted(req))
        return index, self._last[1]

    def has(self, m: int) -> bool:
        """Whether at least `m` entries exist (building them when needed)."""
        while len(self.entries) < m:
            first = self._take()
            if first is None:
                return False
            index, formatted = first
            members = [index]
            while self.collapse and (nxt := self._take()) is not None:
                if nxt[1] != formatted:
                    self._peek = nxt
                    break
                members.append(nxt[0])
            request = {"index": members[-1], **formatted}
            if len(members) > 1:
                request["repeated"] = len(members)
            self.entries.append(_Entry(request, members))
            self.pieces.append(json.dumps(request, ensure_ascii=False))
        return True

    def rest(self) -> Selected:
        """The requests never placed in an entry, oldest first."""
        end = self.pos + 1 + (1 if self._peek is not None else 0)
        return self.selected[:end]


def _largest(
    fits: Callable[[int], bool], guess: int, exists: Callable[[int], bool], total: Callable[[], int]
) -> int:
    """The largest m with fits(m) — fits monotone (keeping more never makes the list shorter),
    fits(0) true, m no more than the entries that exist: gallop from `guess`, then bisect."""
    if fits(guess):
        lo, step = guess, 1  # fits(lo); look for a larger m that fits too
        while True:
            if not exists(lo + step):
                n = total()
                if fits(n):
                    return n
                hi = n
                break
            if not fits(lo + step):
                hi = lo + step
                break
            lo, step = lo + step, step * 2
    else:
        hi, step = guess, 1  # not fits(hi); look for a smaller m that fits
        while not fits(max(0, hi - step)):
            hi, step = max(0, hi - step), step * 2
        lo = max(0, hi - step)
    while hi - lo > 1:  # fits(lo), not fits(hi)
        mid = (lo + hi) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return lo


def newest_within(
    selected: Selected,
    dropped: list[dict[str, Any]],
    max_tokens: int,
    *,
    collapse: bool,
    count: Callable[[str], int],
    formatted: Formatter,
) -> list[dict[str, Any]]:
    """The kept requests, oldest first, each `{"index", method, url, json_data?, repeated?}`;
    every other selected request appended to `dropped` with its reason."""
    nf = _NewestFirst(selected, collapse, formatted)

    def fits(m: int) -> bool:  # the newest m entries (all of them, when fewer exist) fit, exactly
        if m > 0 and not nf.has(m):
            m = len(nf.entries)
        return m == 0 or count("[" + ", ".join(reversed(nf.pieces[:m])) + "]") <= max_tokens

    # Estimate: `[`, `]` and each `, ` cost one token, a request what it costs alone.
    total, m = 1, 0
    while nf.has(m + 1) and total + count(nf.pieces[m]) + 1 <= max_tokens:
        total += count(nf.pieces[m]) + 1
        m += 1
    m = _largest(fits, m, nf.has, lambda: len(nf.entries))
    over = f"budget: over {max_tokens} tokens"
    for j, entry in enumerate(nf.entries):
        oldest = entry.request["index"]
        url = entry.request["url"]
        if j >= m:
            dropped.append({"index": oldest, "url": url, "reason": over})
        dropped += [
            {"index": i, "url": url, "reason": f"duplicate of request {oldest}"} for i in entry.members[:-1]
        ]
    _drop_rest(nf.rest(), dropped, over, collapse)
    return [e.request for e in reversed(nf.entries[:m])]


def _drop_rest(rest: Selected, dropped: list[dict[str, Any]], over: str, collapse: bool) -> None:
    """Requests older than every entry: budget drops, repeats (as captured) their duplicates."""
    from urllib.parse import unquote

    first: tuple[int, dict[str, Any]] | None = None  # the oldest of the current run
    for index, req in rest:
        url = unquote(str(req.get("url") or ""))
        if collapse and first is not None and req == first[1]:
            dropped.append({"index": index, "url": url, "reason": f"duplicate of request {first[0]}"})
            continue
        first = (index, req)
        dropped.append({"index": index, "url": url, "reason": over})


__all__ = ["Selected", "newest_within"]
