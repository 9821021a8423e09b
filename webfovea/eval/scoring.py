"""Scoring one answer against its expected value: exact, numeric, date, list, empty.

Rules (the documentation users read when a score surprises them):

* **exact** — both sides normalised: Unicode NFKC, case-folded, whitespace collapsed, surrounding
  quotes/brackets and trailing sentence punctuation removed.
* **numeric** — when both sides read as one number, they match within a relative tolerance of 0.5%
  (``|answer - expected| <= 0.005 * |expected|``, computed in exact decimal arithmetic, so 1.005×
  passes and 1.0051× fails). An expected 0 needs an exact 0. A number may carry a sign (``-``, ``−``,
  or accounting parentheses), thousands separators (``1,234,567`` or ``1 234 567`` — groups of
  exactly three digits; ``3,5`` is *not* a decimal comma; accounting parentheses are not a sign),
  a currency symbol or code, a trailing
  ``%``, a scale word (thousand/k, million/m/mn, billion/bn/b, trillion/tn) and one trailing unit
  word (``97.3 years``). Digits grouped by spaces (``993 884 163``) must match digit for digit,
  spaces optional: that format is as common for identifiers (organisation numbers) as for amounts. Scale: when the expected value carries no scale word, the answer is tried
  both with and without its scale word (tasks often say "in millions" and models echo the unit);
  otherwise both sides are scaled. Percent: ``12.5%`` reads as 12.5; when exactly one side has a
  ``%`` the other is also tried ×100 (``0.125`` vs ``12.5%``). Units: if both sides carry a unit
  word, they must be equal.
* **date** — years must have four digits. ISO ``2023-05-01``/``2023/5/1``/``2023.05.01``, month
  names (``May 1, 2023``, ``1 May 2023``, ``1st of May, 2023``, with or without a weekday), months
  (``May 2023``, ``2023-05``). Numeric ``01/05/2023`` is ambiguous: it stands for every reading that
  is a valid date (day-first and month-first). An answer passes when *every* reading of it is a
  reading of the expected value — so ``13/05/2023`` (only day-first is valid) matches 2023-05-13,
  while ``01/05/2023`` matches neither 2023-05-01 nor 2023-01-05 (we cannot tell which the model
  meant) unless the expected value is itself written ambiguously the same way. Precision must
  agree: ``May 2023`` matches ``2023-05`` but not ``2023-05-01``.
* **list** — when the expected value is a list (or ``{"type": "list"}``), or a string holding ``;``
  or a newline ("Piraeus; Genoa; Koper" — task files often write lists so; ``{"type": "exact"}``
  opts out) and the answer is not an exact match of the whole string. The answer is split on
  ``;``/newlines, then also on ``,`` (never inside ``1,234``), then also on `` and ``; a JSON list
  is read as such, bullets and numbering are dropped. The first split that matches wins. Same
  length required; elements are scored by the scalar rules above; order is ignored unless
  ``"ordered": true``.
* **empty** — an expected ``None``/``""``/``[]`` passes only for an empty answer; an empty answer to
  a non-empty expected value fails.

``expected`` may be a string, a number, a list, or a dict ``{"value": ..., "type":
"list"|"number"|"date"|"exact"|"string", "ordered": bool}``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from webfovea.eval.dates import DateReading, parse_date_readings

How = Literal["exact", "numeric", "date", "list", "empty", "mismatch", "state", "typed"]

TOLERANCE = Decimal("0.005")


@dataclass(frozen=True)
class Score:
    passed: bool
    how: How
    detail: str = ""
    credit: float | None = None  # partial credit (a stateful task's share of obligations met)

    @property
    def score(self) -> float:
        if self.credit is not None:  # all obligations met but something else broken: 1.0, not passed
            return 1.0 if self.passed else self.credit
        return 1.0 if self.passed else 0.0


# ---------------------------------------------------------------- normalisation

_QUOTES = "\"'`“”‘’«»„‚‹›「」『』"
_EDGE = _QUOTES + "()[]{}<>*_"
_TRAILING = ".,;:!?。，；：！？"


def normalise(text: str) -> str:
    import unicodedata

    s = unicodedata.normalize("NFKC", text).casefold()
    s = " ".join(s.split())
    # Peel layers like '"Paris."' or '**42**' until stable.
    prev = None
    while prev != s:
        prev = s
        s = s.strip().rstrip(_TRAILING).strip()
        if len(s) >= 2 and s[0] in _EDGE and s[-1] in _EDGE:
            s = s[1:-1]
    return s


def _is_empty(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, str):
        return normalise(value) == ""
    if isinstance(value, list | tuple):
        return all(_is_empty(v) for v in value)
    return False


# ---------------------------------------------------------------- numbers

_CURRENCY = r"(?:[$€£¥₹₩₽₺₫]|us\$|usd|eur|gbp|jpy|cny|rmb|inr|aud|cad|chf)"
_SCALES: dict[str, Decimal] = {
    "thousand": Decimal(10) ** 3,
    "k": Decimal(10) ** 3,
    "million": Decimal(10) ** 6,
    "millions": Decimal(10) ** 6,
    "mn": Decimal(10) ** 6,
    "m": Decimal(10) ** 6,
    "mio": Decimal(10) ** 6,
    "billion": Decimal(10) ** 9,
    "billions": Decimal(10) ** 9,
    "bn": Decimal(10) ** 9,
    "b": Decimal(10) ** 9,
    "trillion": Decimal(10) ** 12,
    "tn": Decimal(10) ** 12,
}
_NUM_RE = re.compile(
    rf"""^
    (?P<neg1>[-−–])?\s*
    (?P<cur1>{_CURRENCY})?\s*
    (?P<neg2>[-−–])?\s*
    (?P<num>\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d{{1,3}}(?:\ \d{{3}})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)
    \s*(?P<pct>%|percent|per\ cent)?
    \s*(?:(?P<scale>{"|".join(sorted(_SCALES, key=len, reverse=True))})\b)?
    \s*(?P<cur2>{_CURRENCY})?
    \s*(?P<unit>[^\W\d_][\w/²³°]*)?
    $""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class Number:
    value: Decimal  # with the scale word applied
    bare: Decimal  # as written, before the scale word
    has_scale: bool
    percent: bool
    unit: str | None
    spaced: bool = False  # digits grouped by spaces: "993 884 163"


def parse_number(text: str | int | float | Decimal) -> Number | None:
    """Read one number from a whole string (documented in the module docstring), else None."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int | float | Decimal):
        d = Decimal(str(text))
        return Number(d, d, False, False, None)
    # Accounting parentheses are not read as a sign: normalise() drops brackets, and a model
    # writing "(5)" far more often means 5 than -5.
    m = _NUM_RE.match(normalise(text))
    if not m:
        return None
    try:
        bare = Decimal(m["num"].replace(",", "").replace(" ", ""))
    except InvalidOperation:
        return None
    if m["neg1"] or m["neg2"]:
        bare = -bare
    scale_word = m["scale"]
    unit = m["unit"]
    # "5 m" could be metres; a scale word directly followed by a unit ("5 m people") is fine.
    value = bare * _SCALES[scale_word] if scale_word else bare
    return Number(value, bare, bool(scale_word), bool(m["pct"]), unit, " " in m["num"])


def _numbers_match(answer: Number, expected: Number) -> bool:
    if answer.unit and expected.unit and answer.unit != expected.unit:
        return False
    candidates = [answer.value]
    if answer.has_scale and not expected.has_scale:
        candidates.append(answer.bare)
    if answer.percent != expected.percent:
        factor = Decimal(100) if expected.percent else Decimal("0.01")
        candidates += [c * factor for c in list(candidates)]
    target = expected.value
    if expected.spaced or answer.spaced:
        return answer.value == target  # may be an identifier: digit for digit
    for c in candidates:
        if target == 0:
            if c == 0:
                return True
        elif abs(c - target) <= TOLERANCE * abs(target):
            return True
    return False


# ---------------------------------------------------------------- scalars


def _dates_match(answer: set[DateReading], expected: set[DateReading]) -> bool:
    return bool(answer) and answer <= expected


def score_scalar(answer: str, expected: Any, kind: str | None = None) -> Score:
    """Score one non-empty answer string against one non-list expected value."""
    exp_text = _as_text(expected)
    if normalise(answer) == normalise(exp_text):
        return Score(True, "exact")
    if kind in ("exact", "string"):
        return Score(False, "mismatch", f"{answer!r} != {exp_text!r}")
    if kind in (None, "date"):
        exp_dates = parse_date_readings(exp_text)
        if exp_dates:
            ans_dates = parse_date_readings(answer)
            if ans_dates:
                ok = _dates_match(ans_dates, exp_dates)
                detail = "" if ok else f"date {sorted(ans_dates)} vs {sorted(exp_dates)}"
                return Score(ok, "date" if ok else "mismatch", detail)
    if kind in (None, "number", "numeric"):
        exp_num = parse_number(expected if isinstance(expected, int | float) else exp_text)
        ans_num = parse_number(answer)
        if exp_num is not None and ans_num is not None:
            ok = _numbers_match(ans_num, exp_num)
            detail = "" if ok else f"{ans_num.value} vs {exp_num.value} (±0.5%)"
            return Score(ok, "numeric" if ok else "mismatch", detail)
    return Score(False, "mismatch", f"{answer!r} != {exp_text!r}")


def _as_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


# ---------------------------------------------------------------- lists

_STRONG_SEPARATOR = re.compile(r"[;\n]")
_BULLET = re.compile(r"^\s*(?:[-*•·]|\d+[.)])\s+")
_THOUSANDS_COMMA = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_SENTINEL = "\x00"


def _clean_items(parts: list[str]) -> list[str]:
    items = [_BULLET.sub("", p).strip() for p in parts]
    return [i for i in items if normalise(i)]


def list_splits(answer: str) -> list[list[str]]:
    """Candidate readings of an answer as a list, from the most to the least conservative."""
    text = answer.strip()
    out: list[list[str]] = []
    if text.startswith("["):
        try:
            loaded = json.loads(text)
            if isinstance(loaded, list):
                out.append([_as_text(v) for v in loaded])
        except ValueError:
            pass
        text = text.strip("[]")
    protected = _THOUSANDS_COMMA.sub(_SENTINEL, text)
    level1 = re.split(r"[;\n|]", protected)
    level2 = [p for part in level1 for p in part.split(",")]
    level3 = [p for part in level2 for p in re.split(r"\s+(?:and|&)\s+", part)]
    for parts in (level1, level2, level3):
        items = _clean_items([p.replace(_SENTINEL, ",") for p in parts])
        if items not in out:
            out.append(items)
    return out


def _match_unordered(items: list[str], expected: list[Any], kind: str | None) -> bool:
    ok = [[score_scalar(a, e, kind).passed for e in expected] for a in items]
    owner: dict[int, int] = {}  # expected index -> answer index (bipartite matching)

    def assign(i: int, seen: set[int]) -> bool:
        for j, good in enumerate(ok[i]):
            if good and j not in seen:
                seen.add(j)
                if j not in owner or assign(owner[j], seen):
                    owner[j] = i
                    return True
        return False

    return all(assign(i, set()) for i in range(len(items)))


def score_list(answer: str, expected: list[Any], *, ordered: bool = False, kind: str | None = None) -> Score:
    expected = [e for e in expected if not _is_empty(e)]
    for items in list_splits(answer):
        if len(items) != len(expected):
            continue
        if ordered:
            good = all(score_scalar(a, e, kind).passed for a, e in zip(items, expected, strict=True))
        else:
            good = _match_unordered(items, expected, kind)
        if good:
            return Score(True, "list")
    return Score(
        False, "mismatch", f"list of {len(expected)} expected ({'ordered' if ordered else 'any order'})"
    )


# ---------------------------------------------------------------- entry point


def score_answer(answer: str | None, expected: Any) -> Score:
    """Score a model's answer against the task's expected value (rules in the module docstring)."""
    kind: str | None = None
    ordered = False
    if isinstance(expected, dict):
        kind = expected.get("type")
        ordered = bool(expected.get("ordered", False))
        expected = expected.get("value")
    if _is_empty(expected):
        if answer is None or _is_empty(answer):
            return Score(True, "empty")
        return Score(False, "mismatch", "expected an empty answer")
    if answer is None or _is_empty(answer):
        return Score(False, "empty", "no answer")
    if kind is None and isinstance(expected, str) and _STRONG_SEPARATOR.search(expected.strip()):
        if normalise(answer) == normalise(expected):
            return Score(True, "exact")
        kind = "list"
    if isinstance(expected, list | tuple) or kind == "list":
        if isinstance(expected, list | tuple):
            values = list(expected)
        else:  # a list written as one string ("Paris; London"): its first real split
            splits = list_splits(_as_text(expected))
            values = next((v for v in splits if len(v) > 1), splits[0])
        if len(values) == 1 and not ordered:
            # A one-element list is also met by the bare value.
            single = score_scalar(answer, values[0])
            if single.passed:
                return single
        return score_list(answer, values, ordered=ordered, kind=None if kind == "list" else kind)
    return score_scalar(answer, expected, kind)
