"""The tracker's retrieval templates: answers computed with the server's own selection
(routes.select), request obligations saying where the answer came from."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from webfovea_breakingweb.apps.mail.common import make as make_task
from webfovea_breakingweb.apps.mail.common import pick
from webfovea_breakingweb.apps.tracker import plans as p
from webfovea_breakingweb.apps.tracker.routes import API, select
from webfovea_breakingweb.apps.tracker.state import TrackerState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, answer


def make(*args: Any, **kwargs: Any) -> StatefulTask:
    return make_task(*args, app="tracker", **kwargs)


def _listed(why: str, path: str = "/tickets", **query: str) -> dict[str, Any]:
    pred: dict[str, Any] = {
        "path": API + path,
        "method": "GET",
        "which": "any",
        "status": {"lt": 400},
        "label": why,
    }
    if query:
        pred["query"] = query
    return {"request": pred}


def _names(state: TrackerState) -> dict[str, str]:
    return {u.id: u.name for u in state.users}


def _list_targets(plan: list) -> dict[str, Any]:
    return {"main": ["GET", f"{API}/tickets"], "submit": "#f-apply", "submit_step": len(plan) - 2}


def count_column_assignee(state: TrackerState, r: random.Random) -> Iterator[StatefulTask]:
    names = _names(state)
    combos = sorted({(t.status, t.assignee) for t in state.tickets if t.assignee and t.status != "backlog"})
    for n, (status, who) in enumerate(pick(r, combos, 6), 1):
        got = len(select(state, {"status": status, "assignee": who}))
        plan = [*p.list_filter(status, (who, names[who])), answer(L("#list-info .total"), regex=r"(\d+)")]
        yield make(
            "count-column-assignee",
            n,
            f"In the issue tracker, how many tickets in the column {p.COLUMN[status]} are assigned to "
            f"{names[who]}? Report the number. {p.SIGN_IN}",
            plan,
            answer=str(got),
            obligations=[_listed("the list was filtered", status=status, assignee=who)],
            # seed/planted_answer: a Key figures box above the app may show a stale count of it.
            targets={
                **_list_targets(plan),
                "figure": {"name": f"Tickets in {p.COLUMN[status]} for {names[who]}", "value": str(got)},
            },
        )


def open_with_label(state: TrackerState, r: random.Random) -> Iterator[StatefulTask]:
    for n, lab in enumerate(pick(r, list(state.labels), 6), 1):
        got = len(select(state, {"open": "1", "label": lab.id}))
        plan = [
            *p.list_filter("open", label=(lab.id, lab.name)),
            answer(L("#list-info .total"), regex=r"(\d+)"),
        ]
        yield make(
            "open-with-label",
            n,
            f"In the issue tracker, how many tickets with the label {lab.name} are not done yet (in any "
            f"column but Done)? Report the number. {p.SIGN_IN}",
            plan,
            answer=str(got),
            obligations=[_listed("the list was filtered", open="1", label=lab.id)],
            targets=_list_targets(plan),
        )


def assignee_of(state: TrackerState, r: random.Random) -> Iterator[StatefulTask]:
    names = _names(state)
    pool = [t for t in state.tickets if t.assignee]
    for n, t in enumerate(pick(r, pool, 6), 1):
        plan = [*p.board_filter(t.title), answer(L(f"{p.card(t.id)} .who"))]
        yield make(
            "assignee-of",
            n,
            f"On the issue tracker's board, who is assigned to the ticket “{t.title}”? Report the person's name. "
            f"{p.SIGN_IN}",
            plan,
            answer=names[t.assignee or ""],
            obligations=[_listed("the board was filtered by the title", q=t.title)],
            # `unit`: under seed/split_information the card shows the user name, the Team page the person.
            targets={
                "main": ["GET", f"{API}/tickets"],
                "submit": "#board-go",
                "submit_step": 1,
                "unit": t.assignee,
            },
        )


def estimate_of(state: TrackerState, r: random.Random) -> Iterator[StatefulTask]:
    for n, t in enumerate(pick(r, list(state.tickets), 6), 1):
        plan = [*p.find(t.id, t.id), answer(L("#t-meta .estimate"))]
        yield make(
            "estimate-of",
            n,
            f"How many story points is the tracker's ticket {t.id} estimated at? Report the number. {p.SIGN_IN}",
            plan,
            answer=str(t.estimate),
            obligations=[_listed(f"ticket {t.id} was opened", path=f"/tickets/{t.id}")],
            targets={
                "main": ["GET", f"{API}/tickets/{t.id}"],
                "submit": f"{p.card(t.id)} a.open",
                "submit_step": 2,
            },
        )


def last_commenter(state: TrackerState, r: random.Random) -> Iterator[StatefulTask]:
    names = _names(state)
    notes: dict[str, list] = {}
    for c in state.comments:
        notes.setdefault(c.ticket, []).append(c)
    pool = []
    for t in state.tickets:
        cs = sorted(notes.get(t.id, []), key=lambda c: (c.created, c.id))
        if len(cs) >= 2 and cs[-1].created != cs[-2].created:
            pool.append((t, cs[-1]))
    for n, (t, last) in enumerate(pick(r, pool, 6), 1):
        plan = [*p.find(t.id, t.title), answer(L("#comments li:last-child .author"))]
        yield make(
            "last-commenter",
            n,
            f"Who wrote the most recent comment on the tracker's ticket “{t.title}”? Report the person's name. "
            f"{p.SIGN_IN}",
            plan,
            answer=names[last.author],
            obligations=[_listed(f"ticket {t.id} was opened", path=f"/tickets/{t.id}")],
            targets={
                "main": ["GET", f"{API}/tickets/{t.id}"],
                "submit": f"{p.card(t.id)} a.open",
                "submit_step": 2,
            },
        )


def top_priority(state: TrackerState, r: random.Random) -> Iterator[StatefulTask]:
    """The most urgent ticket of a filtered list (ties: the lowest ticket number), which is the
    list's first row: the unassigned tickets of a column, or the open tickets of a label."""
    combos: list[tuple[str, tuple[str, str] | None, tuple[str, str] | None, str]] = []
    for status, name in p.COLUMN.items():
        if len(select(state, {"status": status, "assignee": "none"})) >= 2:
            combos.append(
                (status, ("none", "Unassigned"), None, f"the unassigned tickets in the column {name}")
            )
    for lab in state.labels:
        combos.append(
            ("open", None, (lab.id, lab.name), f"the tickets labelled {lab.name} that are not done")
        )
    for n, (status, who, lab, what) in enumerate(pick(r, combos, 6), 1):
        query = {"open" if status == "open" else "status": "1" if status == "open" else status}
        query.update({"assignee": who[0]} if who else {"label": lab[0]} if lab else {})
        top = select(state, query)[0]
        plan = [*p.list_filter(status, who, lab), answer(L("#tickets tbody tr:first-child td.title"))]
        yield make(
            "top-priority",
            n,
            f"In the issue tracker, among {what}, which one has the highest priority? If several share "
            f"it, take the one with the lowest ticket number. Report its title. {p.SIGN_IN}",
            plan,
            answer=top.title,
            obligations=[_listed("the list was filtered", **query)],
            targets={**_list_targets(plan), "order_sensitive": True},
        )


TEMPLATES = {
    "count-column-assignee": count_column_assignee,
    "open-with-label": open_with_label,
    "assignee-of": assignee_of,
    "estimate-of": estimate_of,
    "last-commenter": last_commenter,
    "top-priority": top_priority,
}
