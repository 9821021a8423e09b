"""Common date and time spellings -> the ISO value a native <input type=date|time|...> holds.

Typing into Chromium's segmented date control is unreliable (a click lands on the year
segment, the field order follows the locale), so `fill` sets these values directly.
"""

from __future__ import annotations

import datetime as dt
import re

_MONTHS = {
    name: i + 1
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ]
    )
    for name in names
}
_MONTH_RE = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\.?"
_DAY_RE = r"(\d{1,2})(?:st|nd|rd|th)?"


def _year(y: str) -> int:
    n = int(y)
    if len(y) <= 2:
        return 2000 + n if n < 70 else 1900 + n
    return n


def _valid(y: int, m: int, d: int) -> dt.date | None:
    try:
        return dt.date(y, m, d)
    except ValueError:
        return None


def parse_date(text: str) -> dt.date | None:
    """A calendar date from '2023-05-01', '2023/5/1', '05/01/2023' (US order unless the first
    number exceeds 12), '1.5.2023' (day first), '1 May 2023', 'May 1, 2023', '2023年5月1日'."""
    s = text.strip().lower()
    s = re.sub(r"^(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+", "", s)
    if m := re.fullmatch(r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?", s):
        return _valid(int(m[1]), int(m[2]), int(m[3]))
    if m := re.fullmatch(r"(\d{1,2})\.\s*(\d{1,2})\.\s*(\d{2,4})", s):
        return _valid(_year(m[3]), int(m[2]), int(m[1]))
    if m := re.fullmatch(r"(\d{1,2})\s*[-/]\s*(\d{1,2})\s*[-/]\s*(\d{2,4})", s):
        a, b, y = int(m[1]), int(m[2]), _year(m[3])
        return _valid(y, a, b) if a <= 12 else _valid(y, b, a)
    if m := re.fullmatch(_DAY_RE + r"\s*(?:of\s+)?[- ]?" + _MONTH_RE + r",?[- ]?\s*(\d{2,4})", s):
        return _valid(_year(m[3]), _MONTHS[m[2]], int(m[1]))
    if m := re.fullmatch(_MONTH_RE + r"\s*" + _DAY_RE + r",?\s*(\d{4})", s):
        return _valid(int(m[3]), _MONTHS[m[1]], int(m[2]))
    if m := re.fullmatch(r"(\d{4})(\d{2})(\d{2})", s):
        return _valid(int(m[1]), int(m[2]), int(m[3]))
    return None


def parse_time(text: str) -> dt.time | None:
    """'14:30', '14:30:15', '2:30 PM', '2pm', '2.30 p.m.'."""
    s = text.strip().lower().replace(".", ":").replace(" ", "")
    s = s.replace("a:m:", "am").replace("p:m:", "pm").replace("a:m", "am").replace("p:m", "pm")
    m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?(am|pm)?h?", s)
    if not m or (m[2] is None and m[4] is None):
        return None
    h, mi, se = int(m[1]), int(m[2] or 0), int(m[3] or 0)
    if m[4]:
        if not 1 <= h <= 12:
            return None
        h = h % 12 + (12 if m[4] == "pm" else 0)
    try:
        return dt.time(h, mi, se)
    except ValueError:
        return None


def _fmt_time(t: dt.time) -> str:
    return t.strftime("%H:%M:%S" if t.second else "%H:%M")


def parse_month(text: str) -> tuple[int, int] | None:
    s = text.strip().lower()
    if m := re.fullmatch(r"(\d{4})\s*[-/.年]\s*(\d{1,2})\s*月?", s):
        y, mo = int(m[1]), int(m[2])
    elif m := re.fullmatch(r"(\d{1,2})\s*[-/.]\s*(\d{4})", s):
        y, mo = int(m[2]), int(m[1])
    elif m := re.fullmatch(_MONTH_RE + r",?\s*(\d{4})", s):
        y, mo = int(m[2]), _MONTHS[m[1]]
    elif d := parse_date(s):
        y, mo = d.year, d.month
    else:
        return None
    return (y, mo) if 1 <= mo <= 12 else None


def to_input_value(text: str, input_type: str) -> str | None:
    """The value for an <input type=input_type>, or None when `text` is not recognisable."""
    s = text.strip()
    if input_type == "date":
        d = parse_date(s)
        return d.isoformat() if d else None
    if input_type == "time":
        t = parse_time(s)
        return _fmt_time(t) if t else None
    if input_type == "month":
        ym = parse_month(s)
        return f"{ym[0]:04d}-{ym[1]:02d}" if ym else None
    if input_type == "week":
        if m := re.fullmatch(r"(\d{4})-?w(\d{1,2})", s.lower()):
            return f"{int(m[1]):04d}-W{int(m[2]):02d}"
        d = parse_date(s)
        if not d:
            return None
        iso = d.isocalendar()
        return f"{iso[0]:04d}-W{iso[1]:02d}"
    if input_type == "datetime-local":
        # split off a trailing time: 'T14:30', ' 14:30', ', 2:30 PM'
        m = re.fullmatch(
            r"(.+?)(?:[T,]\s*|\s+(?:at\s+)?)(\d{1,2}(?:[:.]\d{2}){0,2}\s*(?:[ap]\.?m\.?)?)", s, re.I
        )
        d = parse_date(m[1]) if m else parse_date(s)
        t = parse_time(m[2]) if m else dt.time(0, 0)
        if d is None or t is None:
            return None
        return f"{d.isoformat()}T{_fmt_time(t)}"
    return None
