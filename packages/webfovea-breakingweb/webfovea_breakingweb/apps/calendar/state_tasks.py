"""The calendar's state-task templates. Obligations name every change; anything else that
changes breaks an invariant. `readback` holds only when the server really holds the change,
on the view the task ends on and on `verify_path` after a fresh load."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from typing import Any

from webfovea_breakingweb.apps.calendar import plans as p
from webfovea_breakingweb.apps.calendar import views as v
from webfovea_breakingweb.apps.calendar.retrieval import first, lookalike, make, singles
from webfovea_breakingweb.apps.calendar.state import CALENDARS, ME, REPEATS, CalendarState
from webfovea_breakingweb.apps.calendar.times import HOME, ZONE_NAMES, ZONES, day_label, to_utc
from webfovea_breakingweb.apps.mail.common import pick
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, Step, answer, answer_value, text_has, visible

CAL = {i: n for i, n, _ in CALENDARS}
REPEAT = dict(REPEATS)
NEW = ("Quarter close", "Team lunch", "Board prep", "Offsite planning", "Customer visit", "Mentoring chat",
       "Interview loop", "Data clinic", "Town hall", "Launch rehearsal")  # fmt: skip
PLACES = ("Main office", "Café Fjord", "Online", "Client site")


def update(entity: str, rid: str, **fields: Any) -> dict[str, Any]:
    return {"entity": entity, "op": "update", "id": rid, "fields": fields}


def write(
    route: list[str],
    shown: str,
    step: int,
    readback: dict,
    verify: str,
    redo: int,
    submit: str | None,
    **more: Any,
) -> dict[str, Any]:
    """The targets of a write; `shown` is what the page re-reads after it."""
    out = {"main": route, "write": route, "list": ["GET", p.API + shown], "submit_step": step,
           "readback": readback, "verify_path": p.view_path(verify), "redo_from": redo}  # fmt: skip
    return {**out, **({"submit": submit} if submit else {}), **more}


def _titles(state: CalendarState) -> dict[str, str]:
    return {e.id: e.title for e in state.events}


def _other(state: CalendarState, sender: str) -> str:
    """Another colleague's name (the sender of a look-alike invitation; seed/decoys)."""
    names = [c.name for c in state.contacts]
    return names[(names.index(sender) + 1) % len(names)]


def _answer_invite(state: CalendarState, r: random.Random, action: str) -> Iterator[StatefulTask]:
    titles = _titles(state)
    status = {"accept": "accepted", "decline": "declined"}[action]
    pool = [i for i in state.invitations if i.status != status]
    for n, inv in enumerate(pick(r, pool, 8), 1):
        row = f'#invites tr[data-id="{inv.id}"]'
        check = text_has(L(f"{row} td.status"), status)
        plan = [p.tab("invites"), p.toast_after(f"{row} .{action}", check)]
        yield make(
            action,
            n,
            f"In the calendar's invitations, {action} the invitation from {inv.sender} to “{titles[inv.event]}”. "
            f"Change nothing else. {p.SIGN_IN}",
            [*plan, answer_value("done")],
            obligations=[update("invitations", inv.id, status=status)],
            targets=write(
                ["POST", f"{p.API}/invitations/{inv.id}/{action}"],
                "/invitations",
                1,
                check,
                "invites",
                0,
                f"{row} .{action}",
                decoy_of=inv.id,
                decoy={"sender": _other(state, inv.sender)},
            ),  # fmt: skip
        )


def accept(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    yield from _answer_invite(state, r, "accept")


def decline(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    yield from _answer_invite(state, r, "decline")


def accept_in_calendar(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    """A pending invitation found on its day in the month view, accepted on the event's page."""
    pending = {i.event: i for i in state.invitations if i.status == "pending"}
    for n, ev in enumerate(pick(r, [e for e in state.events if e.id in pending], 8), 1):
        inv, occ = pending[ev.id], first(state, ev)
        day = date.fromisoformat(occ["date"])
        check = text_has(L("#e-invite .status"), "accepted")
        plan = [*p.open_event(ev.id, occ["occ"], day), p.toast_after("#e-accept", check)]
        step = len(plan) - 1
        yield make(
            "accept-in-calendar",
            n,
            f"Your calendar shows the invitation “{ev.title}” on {day_label(day)}. Open it there and accept it. "
            f"Change nothing else. {p.SIGN_IN}",
            [*plan, answer_value("done")],
            obligations=[update("invitations", inv.id, status="accepted")],
            targets=write(
                ["POST", f"{p.API}/invitations/{inv.id}/accept"],
                f"/events/{ev.id}",
                step,
                check,
                f"e/{ev.id}",
                step - 1,
                "#e-accept",
                **lookalike(ev),
            ),  # fmt: skip
        )


def _new_event(
    title: str, cal: str, day: date, time: str, minutes: int, zone: str, place: str, series: tuple[str, int] = ("none", 1)
) -> tuple[list[Step], dict[str, Any]]:  # fmt: skip
    """The New event form filled and sent; the fields the created event carries."""
    repeat, count = series
    steps: list[Step] = [
        p.tab("new"),
        p.typed("#n-title", title),
        *([p.chosen("#n-calendar", CAL[cal], cal)] if cal != "work" else []),
        p.typed("#n-date", day.isoformat()),
        p.typed("#n-time", time),
        *([p.typed("#n-minutes", str(minutes))] if minutes != 60 else []),
        *([p.chosen("#n-zone", ZONE_NAMES[zone], zone)] if zone != HOME else []),
        *([p.typed("#n-location", place)] if place else []),
    ]
    if repeat != "none":
        steps += [p.chosen("#n-repeat", REPEAT[repeat], repeat), p.typed("#n-count", str(count))]
    steps.append(p.toast_after("#n-create", text_has(L("#recent"), title)))
    start = to_utc(datetime.fromisoformat(f"{day.isoformat()}T{time}"), zone)
    fields = {"title": title, "calendar": cal, "start": start, "minutes": minutes, "zone": zone, "location": place,
              "organizer": ME, "repeat": repeat, "count": count, "attendees": [], "skipped": []}  # fmt: skip
    return steps, fields


def _created(fields: dict[str, Any]) -> dict[str, Any]:
    return {"entity": "events", "op": "create", "count": 1, "fields": fields}


def _create_targets(plan: list[Step], title: str) -> dict[str, Any]:
    step = len(plan) - 1
    return write(["POST", f"{p.API}/events"], "/recent", step, text_has(L("#recent"), title), "new", 0,
                 "#n-create", form=True)  # fmt: skip


def _free_day(r: random.Random) -> date:
    while True:
        d = date(2025, 3, 17) + timedelta(days=r.randrange(40))
        if d.weekday() < 5:
            return d


def create(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    for n in range(1, 11):
        title, cal = NEW[n - 1], r.choice(list(CAL))
        day, time = _free_day(r), f"{r.randint(8, 16):02d}:{r.choice(('00', '30'))}"
        minutes, place = r.choice((30, 45, 60, 90)), r.choice(PLACES)
        steps, fields = _new_event(title, cal, day, time, minutes, HOME, place)
        yield make(
            "create",
            n,
            f"In the calendar, create the event “{title}” on your {CAL[cal]} calendar on {day_label(day)} at {time} "
            f"(your time zone, Oslo) for {minutes} minutes, location “{place}”. Report the new event's reference. "
            f"{p.SIGN_IN}",
            [*steps, answer(L("#toast .ref"))],
            obligations=[_created(fields)],
            targets=_create_targets(steps, title),
        )


def create_in_zone(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    """The start is given in another city's time: choose that zone in the form (or convert)."""
    abroad = [z for z, _ in ZONES if z != HOME]
    for n in range(1, 9):
        zone = abroad[(n - 1) % len(abroad)]
        title = f"Call with {ZONE_NAMES[zone]} office {n}"
        day, time = _free_day(r), f"{r.choice((8, 9, 10, 15, 16)):02d}:00"
        steps, fields = _new_event(title, "work", day, time, 30, zone, "")
        fields.pop("zone")  # entered in that zone or converted to Oslo time: the same start
        yield make(
            "create-in-zone",
            n,
            f"In the calendar, schedule “{title}” on your Work calendar for 30 minutes, starting at {time} "
            f"{ZONE_NAMES[zone]} time ({zone}) on {day_label(day)} there. Report the new event's reference. {p.SIGN_IN}",
            [*steps, answer(L("#toast .ref"))],
            obligations=[_created(fields)],
            targets=_create_targets(steps, title),
        )


def recurring(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    names = ("Language class", "Running club", "Budget office hours", "Reading group", "Design critique",
             "Standing one-to-one")  # fmt: skip
    for n, title in enumerate(names, 1):
        repeat, count = r.choice((("weekly", r.randint(3, 8)), ("daily", r.randint(3, 5)), ("monthly", 3)))
        cal = r.choice(list(CAL))
        day, time = _free_day(r), f"{r.randint(8, 17):02d}:{r.choice(('00', '15', '30'))}"
        steps, fields = _new_event(title, cal, day, time, 60, HOME, "", (repeat, count))
        yield make(
            "recurring",
            n,
            f"In the calendar, create “{title}” on your {CAL[cal]} calendar, starting {day_label(day)} at {time} "
            f"(Oslo time), one hour, repeating {REPEAT[repeat].lower()}, {count} times in all. Report the new "
            f"event's reference. {p.SIGN_IN}",
            [*steps, answer(L("#toast .ref"))],
            obligations=[_created(fields)],
            targets=_create_targets(steps, title),
        )


def _edit_steps(ev: Any, occ: dict[str, Any], new_day: date, new_time: str) -> tuple[list[Step], int, dict]:
    day = date.fromisoformat(occ["date"])
    check = {
        "all": [
            text_has(L("#e-meta .when .day"), day_label(new_day)),
            text_has(L("#e-meta .when .time"), new_time),
        ]
    }
    plan = [
        *p.open_event(ev.id, occ["occ"], day),
        p.typed("#e-date", new_day.isoformat()),
        p.typed("#e-time", new_time),
        p.toast_after("#e-save", check),
    ]
    return plan, len(plan) - 1, check


def reschedule(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    pool = [e for e in singles(state, own=True) if e.zone == HOME]
    for n, ev in enumerate(pick(r, pool, 10), 1):
        occ = first(state, ev)
        while True:  # a day whose day-of-month <= 12 differs from its month: a swapped date is another day
            new_day = date(2025, 4, 1) + timedelta(days=r.randrange(12))
            if new_day.weekday() < 5 and new_day.isoformat() != occ["date"] and new_day.day != 4:
                break
        new_time = f"{r.randint(8, 16):02d}:{r.choice(('00', '30'))}"
        plan, step, check = _edit_steps(ev, occ, new_day, new_time)
        start = to_utc(datetime.fromisoformat(f"{new_day.isoformat()}T{new_time}"), HOME)
        drift = {"field": "date", "kind": "swap_day_month", "value": new_day.isoformat(), "input": "#e-date"}
        yield make(
            "reschedule",
            n,
            f"In the calendar, move “{ev.title}” (now on {occ['label']}) to {day_label(new_day)} at {new_time}, "
            f"Oslo time, keeping its length. Change nothing else. {p.SIGN_IN}",
            [*plan, answer_value("done")],
            obligations=[update("events", ev.id, start=start)],
            targets=write(
                ["PUT", f"{p.API}/events/{ev.id}"],
                f"/events/{ev.id}",
                step,
                check,
                f"e/{ev.id}",
                step - 2,
                "#e-save",
                form=True,
                drift=drift,
                **lookalike(ev),
            ),  # fmt: skip
        )


def delete_event(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    for n, ev in enumerate(pick(r, singles(state, own=True), 8), 1):
        occ = first(state, ev)
        day = date.fromisoformat(occ["date"])
        left = len(v.chips(state, {occ["date"]})[occ["date"]]) - 1
        check = visible(L(f'#month td[data-date="{occ["date"]}"][data-n="{left}"]'))
        plan = [*p.open_event(ev.id, occ["occ"], day), p.toast_after("#e-delete", check)]
        step = len(plan) - 1
        yield make(
            "delete-event",
            n,
            f"In the calendar, delete your event “{ev.title}” on {day_label(day)}. Change nothing else. {p.SIGN_IN}",
            [*plan, answer_value("done")],
            obligations=[{"entity": "events", "op": "delete", "id": ev.id}],
            targets=write(
                ["DELETE", f"{p.API}/events/{ev.id}"],
                "/month",
                step,
                check,
                f"month/{occ['date'][:7]}",
                0,
                "#e-delete",
                **lookalike(ev),
            ),  # fmt: skip
        )


def skip_occurrence(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    pool = [(e, o) for e in state.events if e.organizer == ME and e.repeat != "none"
            for o in v.occurrences(state, e)[1:]]  # fmt: skip
    for n, (ev, occ) in enumerate(pick(r, pool, 8), 1):
        day = date.fromisoformat(occ["date"])
        left = len(v.occurrences(state, ev)) - 1
        check = visible(L(f'#occurrences[data-n="{left}"]'))
        plan = [
            *p.open_event(ev.id, occ["occ"], day),
            p.toast_after(f'#occurrences .skip[data-occ="{occ["occ"]}"]', check),
        ]
        step = len(plan) - 1
        yield make(
            "skip-occurrence",
            n,
            f"The recurring event “{ev.title}” does not take place on {day_label(day)}: delete only that "
            f"occurrence in the calendar, keep the rest of the series. Change nothing else. {p.SIGN_IN}",
            [*plan, answer_value("done")],
            obligations=[update("events", ev.id, skipped=sorted({*ev.skipped, occ["occ"]}))],
            targets=write(
                ["POST", f"{p.API}/events/{ev.id}/skip"],
                f"/events/{ev.id}",
                step,
                check,
                f"e/{ev.id}",
                step - 1,
                f'#occurrences .skip[data-occ="{occ["occ"]}"]',
                **lookalike(ev),
            ),  # fmt: skip
        )


def set_zone(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    cities = ("a trip", "a conference", "a month of remote work", "a family visit", "a project")
    for n, (zone, name) in enumerate(pick(r, [z for z in ZONES if z[0] != v.my_zone(state)], 5), 1):
        check = text_has(L("#p-current .zone"), name)
        plan = [p.tab("settings"), p.chosen("#p-zone", name, zone), p.toast_after("#p-save", check)]
        yield make(
            "set-zone",
            n,
            f"You are in {name} for {cities[n - 1]}: set the calendar's time zone to {name} ({zone}) so times show "
            f"in local time there. Change nothing else. {p.SIGN_IN}",
            [*plan, answer_value("done")],
            obligations=[update("profile", "me", zone=zone)],
            targets=write(
                ["PUT", f"{p.API}/profile"], "/profile", 2, check, "settings", 0, "#p-save", form=True
            ),
        )


def catch_up(state: CalendarState, r: random.Random) -> Iterator[StatefulTask]:
    """Hard: answer three invitations, move one of your events, create one (about 18 actions)."""
    titles = _titles(state)
    pending = [i for i in state.invitations if i.status == "pending"]
    own = [e for e in singles(state, own=True) if e.zone == HOME]
    n = 0
    while n < 4:
        n += 1
        three = pick(r, pending, 3)
        yes, no = three[:2], three[2:]
        ev = r.choice(own)
        occ = first(state, ev)
        new_day = date(2025, 4, 7) + timedelta(days=r.randrange(4))
        new_time = f"{r.randint(9, 15):02d}:00"
        plan: list[Step] = [p.tab("invites")]
        for inv, action in [(i, "accept") for i in yes] + [(no[0], "decline")]:
            row = f'#invites tr[data-id="{inv.id}"]'
            status = "accepted" if action == "accept" else "declined"
            plan.append(p.toast_after(f"{row} .{action}", text_has(L(f"{row} td.status"), status)))
        edit, _, _ = _edit_steps(ev, occ, new_day, new_time)
        title = f"Follow-up notes {n}"
        day, time = _free_day(r), "14:00"
        steps, fields = _new_event(title, "work", day, time, 30, HOME, "Main office")
        plan += [*edit, *steps]
        accepted = " and ".join(f"“{titles[i.event]}”" for i in yes)
        yield make(
            "catch-up",
            n,
            f"Catch up on the calendar: accept the invitations to {accepted}; decline “{titles[no[0].event]}”; "
            f"move your “{ev.title}” (now on {occ['label']}) to {day_label(new_day)} at {new_time} Oslo time; then "
            f"create “{title}” on your Work calendar on {day_label(day)} at {time} for 30 minutes, location "
            f"“Main office”. Change nothing else. {p.SIGN_IN}",
            [*plan, answer_value("done")],
            obligations=[
                *[update("invitations", i.id, status="accepted") for i in yes],
                update("invitations", no[0].id, status="declined"),
                update(
                    "events",
                    ev.id,
                    start=to_utc(datetime.fromisoformat(f"{new_day.isoformat()}T{new_time}"), HOME),
                ),
                _created(fields),
            ],
            targets=_create_targets(plan, title),
        )


TEMPLATES = {
    "accept": accept,
    "decline": decline,
    "accept-in-calendar": accept_in_calendar,
    "create": create,
    "create-in-zone": create_in_zone,
    "recurring": recurring,
    "reschedule": reschedule,
    "delete-event": delete_event,
    "skip-occurrence": skip_occurrence,
    "set-zone": set_zone,
    "catch-up": catch_up,
}
