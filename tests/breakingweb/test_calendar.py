"""The calendar without a browser: its task generator (enough templates and tasks, every
tier, deterministic by seed, truth from the content the server serves), its time-zone and
recurrence rules, and its JSON API (a write changes only what differs; bad input is a 422
that leaves nothing written; only your own events can be edited)."""

from __future__ import annotations

from collections import Counter

import httpx

from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.apps.calendar.times import local, series, to_utc
from webfovea_breakingweb.apps.calendar.views import occurrences
from webfovea_breakingweb.engine.determinism import canonical
from webfovea_breakingweb.interventions import FAMILIES
from webfovea_breakingweb.pairing import catalogue
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.serve import SitesHandle


def _tasks(seed: int = 0) -> list:
    return APPS["calendar"].tasks(seed)  # type: ignore[misc]


def test_templates_tiers_counts_and_determinism() -> None:
    tasks = _tasks()
    templates = Counter(t.targets["template"] for t in tasks)
    assert len(templates) >= 10 and len(tasks) >= 105
    assert set(Counter(t.targets["tier"] for t in tasks)) == {"easy", "medium", "hard"}
    assert {t.state_changing for t in tasks} == {True, False}
    assert all(t.task_id in stateful_tasks(0) and t.plan[-1]["op"] == "answer" for t in tasks)
    first = canonical([t.model_dump() for t in tasks])
    assert first == canonical([t.model_dump() for t in _tasks(0)])
    assert first != canonical([t.model_dump() for t in _tasks(1)])


def test_every_family_applies_to_at_least_three_apps_and_the_suite_passes_500() -> None:
    data = catalogue(42)
    assert data["counts"]["base_tasks"] >= 500 and data["counts"]["apps"] >= 8
    few = {f["name"]: f["apps"] for f in data["families"] if len(f["apps"]) < 3}
    assert few == {}, few
    calendar = {f["name"] for f in data["families"] if "calendar" in f["apps"]}
    # All but the phishing family: the calendar keeps no messages a phishing one could hide among
    # (AppSpec.phishing), and a banner above the app is not what the paper's family is.
    assert calendar == set(FAMILIES) - {"seed/phishing_content"}


def test_a_series_keeps_its_wall_time_across_daylight_saving() -> None:
    state = APPS["calendar"].initial("t", 0)
    weekly = next(e for e in state.events if e.repeat == "weekly" and e.zone == "Europe/Oslo")
    ev = weekly.model_copy(
        update={"start": to_utc(local("2025-03-17T08:00Z", "Europe/Oslo"), "Europe/Oslo"), "count": 3}
    )
    # 09:00 in Oslo on 17, 24 and 31 March: UTC 08:00, 08:00, then 07:00 after the 30 March change.
    assert [utc for _, utc in series(ev)] == ["2025-03-17T08:00Z", "2025-03-24T08:00Z", "2025-03-31T07:00Z"]
    assert {o["time"] for o in occurrences(state, ev)} == {"09:00"}
    assert [o["time"] for o in occurrences(state, ev, "America/New_York")] == ["04:00", "04:00", "03:00"]


def _client(sites: SitesHandle, task: str) -> tuple[httpx.Client, str]:
    with sites.control() as control:
        sid = control.create(task, 0, None)["session_id"]
    return httpx.Client(base_url=sites.main_url, cookies={"wf_session": sid}, trust_env=False), sid


def _diff(sites: SitesHandle, sid: str) -> list[dict]:
    with sites.control() as control:
        return [c for c in control.diff(sid)["diff"] if c["entity"] != "_settings"]


def test_calendar_api_changes_only_what_differs_and_refuses_bad_input(sites: SitesHandle) -> None:
    http, sid = _client(sites, "calendar-reschedule-01")
    state = APPS["calendar"].initial("t", 0)
    mine = next(e for e in state.events if e.organizer == "Me" and e.repeat == "none")
    theirs = next(e for e in state.events if e.organizer != "Me")
    detail = http.get(f"/api/calendar/events/{mine.id}").json()
    same = {**detail["form"], "title": mine.title, "minutes": mine.minutes, "zone": mine.zone,
            "calendar": mine.calendar, "location": mine.location}  # fmt: skip
    assert http.put(f"/api/calendar/events/{mine.id}", json=same).json()["message"] == "No changes to save."
    assert http.put(f"/api/calendar/events/{mine.id}", json={**same, "time": "25:00"}).status_code == 422
    assert http.put(f"/api/calendar/events/{mine.id}", json={**same, "zone": "Mars/Base"}).status_code == 422
    assert http.put(f"/api/calendar/events/{theirs.id}", json={"title": "Mine now"}).status_code == 422
    assert http.post("/api/calendar/events", json={"title": "x"}).status_code == 422
    assert http.post(f"/api/calendar/events/{mine.id}/skip", json={"occ": "2025-03-01"}).status_code == 422
    assert _diff(sites, sid) == []  # nothing written by any of these
    moved = http.put(f"/api/calendar/events/{mine.id}", json={**same, "date": "2025-04-02", "time": "07:30"})
    assert moved.json()["record"]["start"] == "2025-04-02T05:30Z"  # 07:30 in Oslo (summer time)
    assert {(c["id"], c["field"]) for c in _diff(sites, sid)} == {(mine.id, "start"), (mine.id, "updated")}
    assert http.get("/api/tracker/tickets").status_code == 409  # another app's session
