"""The tracker's state-task templates. Obligations name every change; anything else that
changes breaks an invariant. `readback` holds only when the server really holds the change,
on the view the task ends on and on `verify_path` after a fresh load."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from webfovea_breakingweb.apps.mail.common import pick
from webfovea_breakingweb.apps.tracker import plans as p
from webfovea_breakingweb.apps.tracker.retrieval import make
from webfovea_breakingweb.apps.tracker.routes import API, select
from webfovea_breakingweb.apps.tracker.state import ME, Ticket, TrackerState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_proving_ground.plan import L, Step, answer, answer_value, click, fill, text_has, visible
from webfovea_proving_ground.plan import select as choose

NOTES = (
    "Checked on staging: fixed.",
    "Moving this forward after the team meeting.",
    "Please add steps to reproduce.",
    "Released in version 2.4.",
)


def update(tid: str, **fields: Any) -> dict[str, Any]:
    return {"entity": "tickets", "op": "update", "id": tid, "fields": fields}


def commented(tid: str, body: str) -> dict[str, Any]:
    return {
        "entity": "comments",
        "op": "create",
        "count": 1,
        "fields": {"ticket": tid, "author": ME, "body": body},
    }


def write(
    route: list[str], step: int, readback: dict, verify: str, redo: int, submit: str | None, **more: Any
) -> dict[str, Any]:
    """The targets of a write; `list` is what the page re-reads after it (the ticket, the board
    or your reported tickets), `submit` the button that sends it (a drag has none)."""
    if route[1].endswith("/move"):
        shown = f"{API}/tickets"
    elif route[1] == f"{API}/tickets":
        shown = f"{API}/recent"
    else:
        shown = "/".join(route[1].split("/")[:5])  # /api/tracker/tickets/T-0001
    out = {
        "main": route,
        "write": route,
        "list": ["GET", shown],
        "submit_step": step,
        "readback": readback,
        "verify_path": verify,
        "redo_from": redo,
    }
    return {**out, **({"submit": submit} if submit else {}), **more}


def _post(path: str) -> list[str]:
    return ["POST", API + path]


def _put(tid: str) -> list[str]:
    return ["PUT", f"{API}/tickets/{tid}"]


def drag_to_column(state: TrackerState, r: random.Random) -> Iterator[StatefulTask]:
    for n, t in enumerate(pick(r, list(state.tickets), 8), 1):
        to = r.choice([c for c in p.COLUMN if c != t.status])
        plan = [*p.board_filter(t.title), p.drag_card(t.id, to), answer_value("done")]
        lands = visible(L(f'{p.column(to)} .tcard[data-id="{t.id}"]'))
        yield make(
            "drag-to-column",
            n,
            f"On the issue tracker's board, move the card “{t.title}” to the column {p.COLUMN[to]}. Change "
            f"nothing else. {p.SIGN_IN}",
            plan,
            obligations=[update(t.id, status=to)],
            targets=write(_post(f"/tickets/{t.id}/move"), 2, lands, p.board_path(t.title), 2, None),
        )


def _edit(t: Ticket, steps: list[Step], check: dict) -> tuple[list[Step], int]:
    plan = [*p.find(t.id, t.title), *steps, p.toast_after("#t-save", check)]
    return plan, len(plan) - 1


def set_column(state: TrackerState, r: random.Random) -> Iterator[StatefulTask]:
    for n, t in enumerate(pick(r, list(state.tickets), 6), 1):
        to = r.choice([c for c in p.COLUMN if c != t.status])
        check = text_has(L("#t-meta .status"), p.COLUMN[to])
        plan, step = _edit(
            t, [choose(L("#t-status"), p.COLUMN[to], expect={"target": L("#t-status"), "value": to})], check
        )
        yield make(
            "set-column",
            n,
            f"Open the tracker's ticket “{t.title}” and set its column to {p.COLUMN[to]}. Change nothing else. {p.SIGN_IN}",
            [*plan, answer_value("done")],
            obligations=[update(t.id, status=to)],
            targets=write(_put(t.id), step, check, p.ticket_path(t.id), step - 1, "#t-save", form=True),
        )


def assign(state: TrackerState, r: random.Random) -> Iterator[StatefulTask]:
    names = {u.id: u.name for u in state.users}
    for n, t in enumerate(pick(r, list(state.tickets), 6), 1):
        who = r.choice([u for u in names if u != t.assignee])
        check = text_has(L("#t-meta .assignee"), names[who])
        pick_who = choose(L("#t-assignee"), names[who], expect={"target": L("#t-assignee"), "value": who})
        plan, step = _edit(t, [pick_who], check)
        yield make(
            "assign",
            n,
            f"Assign the tracker's ticket “{t.title}” to {names[who]}. Change nothing else. {p.SIGN_IN}",
            [*plan, answer_value("done")],
            obligations=[update(t.id, assignee=who)],
            targets=write(_put(t.id), step, check, p.ticket_path(t.id), step - 1, "#t-save", form=True),
        )


def set_estimate(state: TrackerState, r: random.Random) -> Iterator[StatefulTask]:
    for n, t in enumerate(pick(r, list(state.tickets), 6), 1):
        value = r.choice([v for v in (13, 20, 21, 34) if v != t.estimate])
        check = text_has(L("#t-meta .estimate"), str(value))
        typed = fill(L("#t-estimate"), str(value), expect={"target": L("#t-estimate"), "value": str(value)})
        plan, step = _edit(t, [typed], check)
        drift = {"field": "estimate", "kind": "truncate", "value": value, "input": "#t-estimate"}
        yield make(
            "set-estimate",
            n,
            f"Set the estimate of the tracker's ticket “{t.title}” to {value} points. Change nothing else. {p.SIGN_IN}",
            [*plan, answer_value("done")],
            obligations=[update(t.id, estimate=value)],
            targets=write(
                _put(t.id), step, check, p.ticket_path(t.id), step - 1, "#t-save", form=True, drift=drift
            ),
        )


def _comment_steps(text: str) -> list[Step]:
    return [
        fill(L("#c-new"), text, expect={"target": L("#c-new"), "value": text}),
        p.toast_after("#c-add", text_has(L("#comments"), text)),
    ]


def comment(state: TrackerState, r: random.Random) -> Iterator[StatefulTask]:
    for n, t in enumerate(pick(r, list(state.tickets), 6), 1):
        text = r.choice(NOTES)
        plan = [*p.find(t.id, t.title), *_comment_steps(text)]
        step = len(plan) - 1
        yield make(
            "comment",
            n,
            f"Add the comment “{text}” to the tracker's ticket “{t.title}”. Report the comment's reference. {p.SIGN_IN}",
            [*plan, answer(L("#toast .ref"))],
            obligations=[commented(t.id, text)],
            targets=write(
                _post(f"/tickets/{t.id}/comments"),
                step,
                text_has(L("#comments"), text),
                p.ticket_path(t.id),
                step - 1,
                "#c-add",
            ),
        )


def triage_ticket(state: TrackerState, r: random.Random) -> Iterator[StatefulTask]:
    """Medium: priority, a label, then a comment on one ticket (about 9 actions)."""
    labels = {lab.id: lab.name for lab in state.labels}
    for n, t in enumerate(pick(r, [t for t in state.tickets if t.priority != "urgent"], 6), 1):
        prio = r.choice([k for k in p.PRIORITY if k != t.priority])
        lab = r.choice(sorted(set(labels) - set(t.labels)))
        text = r.choice(NOTES)
        steps = [
            choose(L("#t-priority"), p.PRIORITY[prio], expect={"target": L("#t-priority"), "value": prio}),
            click(
                L(f'#t-labels input.t-label[value="{lab}"]'),
                expect={"target": L(f'#t-labels input.t-label[value="{lab}"]'), "checked": True},
            ),
        ]
        plan, _ = _edit(t, steps, text_has(L("#t-meta .labels"), labels[lab]))
        plan += _comment_steps(text)
        step = len(plan) - 1
        yield make(
            "triage-ticket",
            n,
            f"On the tracker's ticket “{t.title}”: set the priority to {p.PRIORITY[prio]}, add the label "
            f"{labels[lab]} (keep its other labels), save, then comment “{text}”. Change nothing else. {p.SIGN_IN}",
            [*plan, answer_value("done")],
            obligations=[update(t.id, priority=prio, labels=sorted({*t.labels, lab})), commented(t.id, text)],
            targets=write(
                _post(f"/tickets/{t.id}/comments"),
                step,
                text_has(L("#comments"), text),
                p.ticket_path(t.id),
                step - 1,
                "#c-add",
            ),
        )


def create_ticket(state: TrackerState, r: random.Random) -> Iterator[StatefulTask]:
    names = {u.id: u.name for u in state.users if u.id != ME}
    labels = {lab.id: lab.name for lab in state.labels}
    areas = ("Release notes", "Glossary page", "Help centre", "Download page", "Status page", "Feedback form")
    for n in range(1, 7):
        title = f"{areas[n - 1]}: {r.choice(('broken link in footer', 'add dark mode', 'slow on mobile', 'typo in heading'))}"
        desc = f"Noticed on {r.choice(('Monday', 'Tuesday', 'Thursday'))}; affects every visitor."
        prio, who = r.choice(list(p.PRIORITY)), r.choice(sorted(names))
        points = r.choice((1, 2, 3, 5, 8))
        chosen = sorted(r.sample(sorted(labels), 2))
        plan: list[Step] = [
            p.tab("new"),
            fill(L("#n-title"), title, expect={"target": L("#n-title"), "value": title}),
            fill(L("#n-desc"), desc, expect={"target": L("#n-desc"), "value": desc}),
            choose(L("#n-priority"), p.PRIORITY[prio], expect={"target": L("#n-priority"), "value": prio}),
            choose(L("#n-assignee"), names[who], expect={"target": L("#n-assignee"), "value": who}),
            fill(L("#n-estimate"), str(points), expect={"target": L("#n-estimate"), "value": str(points)}),
            *[
                click(
                    L(f'#n-labels input.n-label[value="{x}"]'),
                    expect={"target": L(f'#n-labels input.n-label[value="{x}"]'), "checked": True},
                )
                for x in chosen
            ],
            p.toast_after("#n-create", text_has(L("#recent"), title)),
        ]
        step = len(plan) - 1
        fields = {
            "title": title,
            "description": desc,
            "priority": prio,
            "assignee": who,
            "estimate": points,
            "labels": chosen,
            "status": "todo",
            "reporter": ME,
        }
        yield make(
            "create-ticket",
            n,
            f"Create a ticket in the issue tracker titled “{title}” with the description “{desc}”, priority "
            f"{p.PRIORITY[prio]}, assigned to {names[who]}, {points} points, labels {labels[chosen[0]]} and "
            f"{labels[chosen[1]]}. Report the new ticket's reference. {p.SIGN_IN}",
            [*plan, answer(L("#toast .ref"))],
            obligations=[{"entity": "tickets", "op": "create", "count": 1, "fields": fields}],
            targets=write(
                _post("/tickets"),
                step,
                text_has(L("#recent"), title),
                "/app/tracker?view=new",
                0,
                "#n-create",
                form=True,
            ),
        )


def reassign(state: TrackerState, r: random.Random) -> Iterator[StatefulTask]:
    """Hard: every ticket of one person in one column goes to another (about 6 actions each)."""
    names = {u.id: u.name for u in state.users}
    combos = sorted({(t.assignee, t.status) for t in state.tickets if t.assignee})
    combos = [c for c in combos if 3 <= len(select(state, {"assignee": c[0], "status": c[1]})) <= 4]
    for n, (old, status) in enumerate(pick(r, combos, 4), 1):
        new = r.choice([u for u in names if u not in (old, ME)])
        tickets = select(state, {"assignee": old, "status": status})
        plan: list[Step] = []
        for i, t in enumerate(tickets):
            check = text_has(L("#t-meta .assignee"), names[new])
            pick_new = choose(L("#t-assignee"), names[new], expect={"target": L("#t-assignee"), "value": new})
            plan += [*p.find(t.id, t.id, from_board=i == 0), pick_new, p.toast_after("#t-save", check)]
        step = len(plan) - 1
        last = tickets[-1]
        yield make(
            "reassign",
            n,
            f"{names[old]} is away: reassign every ticket of theirs in the tracker's column {p.COLUMN[status]} "
            f"to {names[new]}. Change nothing else. {p.SIGN_IN}",
            [*plan, answer_value("done")],
            obligations=[update(t.id, assignee=new) for t in tickets],
            targets=write(
                _put(last.id),
                step,
                text_has(L("#t-meta .assignee"), names[new]),
                p.ticket_path(last.id),
                step - 1,
                "#t-save",
            ),
        )


def release(state: TrackerState, r: random.Random) -> Iterator[StatefulTask]:
    """Hard: three cards dragged to Done on the board, each then commented (about 21 actions)."""
    pool = [t for t in state.tickets if t.status == "review"]
    text = "Released in version 2.4."
    for n in range(1, 5):
        chosen = sorted(pick(r, pool, 3), key=lambda t: t.id)
        plan: list[Step] = []
        for i, t in enumerate(chosen):
            plan += [
                *([p.tab("board")] if i else []),
                *p.board_filter(t.title),
                p.drag_card(t.id, "done"),
                p.open_card(t.id),
                *_comment_steps(text),
            ]
        step = len(plan) - 1
        last = chosen[-1]
        titles = "; ".join(f"“{t.title}”" for t in chosen)
        yield make(
            "release",
            n,
            f"Version 2.4 is out. On the tracker's board, move these cards from In review to Done: {titles}; then "
            f"comment “{text}” on each of them. Change nothing else. {p.SIGN_IN}",
            [*plan, answer_value("done")],
            obligations=[o for t in chosen for o in (update(t.id, status="done"), commented(t.id, text))],
            targets=write(
                _post(f"/tickets/{last.id}/comments"),
                step,
                text_has(L("#comments"), text),
                p.ticket_path(last.id),
                step - 1,
                "#c-add",
            ),
        )


TEMPLATES = {
    "drag-to-column": drag_to_column,
    "set-column": set_column,
    "assign": assign,
    "set-estimate": set_estimate,
    "comment": comment,
    "triage-ticket": triage_ticket,
    "create-ticket": create_ticket,
    "reassign": reassign,
    "release": release,
}
