"""Time zones and recurrence: what the server shows and what the task truth is computed with.

Events are stored in UTC with the zone they were scheduled in; a series keeps its wall time in
that zone (a weekly 09:00 Oslo meeting stays 09:00 in Oslo across a daylight-saving change).
An occurrence is named by its date in the event's zone (its `occ` key). The page shows every
time in your zone (the profile's), so a task may need a conversion. The calendar's "today" is
fixed (Monday 10 March 2025): no clock is read.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

from webfovea_breakingweb.apps.calendar.state import Event

TODAY = date(2025, 3, 10)
HOME = "Europe/Oslo"
ZONES: tuple[tuple[str, str], ...] = (
    ("Europe/Oslo", "Oslo"),
    ("Europe/London", "London"),
    ("America/New_York", "New York"),
    ("America/Los_Angeles", "Los Angeles"),
    ("Asia/Tokyo", "Tokyo"),
    ("Australia/Sydney", "Sydney"),
)
ZONE_NAMES = dict(ZONES)
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")  # fmt: skip
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@lru_cache(maxsize=16)
def tz(zone: str) -> ZoneInfo:
    if zone not in ZONE_NAMES:
        raise ValueError(f"zone: unknown time zone {zone!r}")
    return ZoneInfo(zone)


def to_utc(local: datetime, zone: str) -> str:
    """A wall time in `zone` as the stored UTC string."""
    return local.replace(tzinfo=tz(zone)).astimezone(UTC).strftime("%Y-%m-%dT%H:%MZ")


def parse_utc(stored: str) -> datetime:
    return datetime.strptime(stored, "%Y-%m-%dT%H:%MZ").replace(tzinfo=UTC)


def local(stored: str, zone: str) -> datetime:
    """The stored UTC time as a wall time in `zone` (naive)."""
    return parse_utc(stored).astimezone(tz(zone)).replace(tzinfo=None)


def _add_months(d: datetime, n: int) -> datetime:
    y, m = divmod(d.month - 1 + n, 12)
    return d.replace(year=d.year + y, month=m + 1, day=min(d.day, 28))


def series(ev: Event) -> list[tuple[str, str]]:
    """Every occurrence that is not skipped: (occ key, UTC start), in order."""
    first = local(ev.start, ev.zone)
    out = []
    for k in range(ev.count if ev.repeat != "none" else 1):
        if ev.repeat == "daily":
            at = first + timedelta(days=k)
        elif ev.repeat == "weekly":
            at = first + timedelta(days=7 * k)
        elif ev.repeat == "monthly":
            at = _add_months(first, k)
        else:
            at = first
        key = at.strftime("%Y-%m-%d")
        if key not in ev.skipped:
            out.append((key, to_utc(at, ev.zone)))
    return out


def occurrence_keys(ev: Event) -> list[str]:
    return [k for k, _ in series(ev)]


def hhmm(d: datetime) -> str:
    return d.strftime("%H:%M")


def day_label(d: date) -> str:
    """'Thursday 13 March 2025' (as instructions and the page name a day)."""
    return f"{DAYS[d.weekday()]} {d.day} {MONTHS[d.month - 1]} {d.year}"


def short_day(d: date) -> str:
    return f"{d.day} {MONTHS[d.month - 1]}"


def monday_of(d: date) -> date:
    return d - timedelta(days=d.weekday())


def month_grid(year: int, month: int) -> list[list[date]]:
    """The weeks (Monday first) covering the month."""
    first = date(year, month, 1)
    start = monday_of(first)
    weeks = []
    while True:
        week = [start + timedelta(days=i) for i in range(7)]
        if week[0].month != month and week[0] > first:
            break
        weeks.append(week)
        start += timedelta(days=7)
    return weeks
