"""Reading dates written in the common formats, keeping every plausible reading.

A reading is ``(year, month, day)``; ``day`` is None for a month ("May 2023", "2023-05"). A string
that is ambiguous (``01/05/2023``) yields every valid reading (day-first and month-first); the
scorer decides what an ambiguous answer may match. Two-digit years and bare years are not dates
(a bare year is scored as a number).
"""

from __future__ import annotations

import datetime as _dt
import re
import unicodedata

DateReading = tuple[int, int, int | None]

_MONTHS = {
    "january": 1,
    "february": 2,
    "march": 3,
    "april": 4,
    "may": 5,
    "june": 6,
    "july": 7,
    "august": 8,
    "september": 9,
    "october": 10,
    "november": 11,
    "december": 12,
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "sept": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_WEEKDAYS = {
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "mon",
    "tue",
    "tues",
    "wed",
    "thu",
    "thur",
    "thurs",
    "fri",
    "sat",
    "sun",
}
_FILLER = {"of", "the"}

_ISO = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[t ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?z?)?$")
_ISO_MONTH = re.compile(r"^(\d{4})[-/](\d{1,2})$")
_NUMERIC = re.compile(r"^(\d{1,2})[-/.](\d{1,2})[-/.](\d{4})$")
_MONTH_YEAR = re.compile(r"^(\d{1,2})[-/.](\d{4})$")
_CJK = re.compile(r"^(\d{4})年(\d{1,2})月(?:(\d{1,2})日)?$")
_ORDINAL = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)?$")


def _valid(y: int, m: int, d: int | None) -> DateReading | None:
    if not 1 <= m <= 12 or not 1000 <= y <= 9999:
        return None
    if d is None:
        return (y, m, None)
    try:
        _dt.date(y, m, d)
    except ValueError:
        return None
    return (y, m, d)


def _readings(*cands: DateReading | None) -> set[DateReading]:
    return {c for c in cands if c is not None}


def parse_date_readings(text: str) -> set[DateReading]:
    """Every reading of ``text`` as a date or a month; empty when it is not one."""
    s = unicodedata.normalize("NFKC", str(text)).casefold().strip().strip("\"'“”‘’.").strip()
    if not s or len(s) > 60:
        return set()
    if m := _ISO.match(s):
        return _readings(_valid(int(m[1]), int(m[2]), int(m[3])))
    if m := _ISO_MONTH.match(s):
        return _readings(_valid(int(m[1]), int(m[2]), None))
    if m := _NUMERIC.match(s):
        a, b, y = int(m[1]), int(m[2]), int(m[3])
        return _readings(_valid(y, b, a), _valid(y, a, b))  # day-first, month-first
    if m := _MONTH_YEAR.match(s):
        return _readings(_valid(int(m[2]), int(m[1]), None))
    if m := _CJK.match(s):
        return _readings(_valid(int(m[1]), int(m[2]), int(m[3]) if m[3] else None))
    return _readings(_from_words(s))


def _from_words(s: str) -> DateReading | None:
    """Dates with a month name: 'May 1, 2023', '1st of May 2023', 'Mon, 1 May 2023', 'May 2023'."""
    tokens = [t for t in re.split(r"[\s,./-]+", s) if t and t not in _FILLER and t not in _WEEKDAYS]
    month = year = day = None
    for t in tokens:
        if t in _MONTHS and month is None:
            month = _MONTHS[t]
        elif re.fullmatch(r"\d{4}", t) and year is None:
            year = int(t)
        elif (m := _ORDINAL.match(t)) and day is None:
            day = int(m[1])
        else:
            return None  # an unknown word: not a date we can read safely
    if month is None or year is None:
        return None
    return _valid(year, month, day)
