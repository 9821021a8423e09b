"""The data requests' tasks, written by hand, per seed, from the same seeded state the server
builds (`APP.initial`): create and edit a request (state tasks), and three catalogue look-ups
(retrieval). Their `targets` are documented in webfovea_breakingweb/tasks.py."""

from __future__ import annotations

from urllib.parse import quote

from webfovea_breakingweb.engine.spec import SpaApp, StatefulTask
from webfovea_proving_ground.plan import L, answer, click, fill, select, text_has, value_is, visible


def filtered(api: str, topic: str | None) -> dict:
    """A retrieval obligation (webfovea_breakingweb/obligations.py): some answered catalogue request carried the
    asked filter — topic `topic`, or none (all topics) — so the answer came from the right table."""
    path = f"{api}/catalogue" + (f"/{quote(topic)}" if topic else "")
    label = (
        f"the catalogue was shown filtered by topic {topic}"
        if topic
        else "the catalogue was shown for all topics"
    )
    return {"request": {"path": path, "method": "GET", "which": "any", "status": {"lt": 400}, "label": label}}


def _tab(view: str, then: str) -> dict:
    return click(L(f'nav.tabs a[data-view="{view}"]'), expect=visible(L(then)))


def _requests_tasks(app: SpaApp, seed: int) -> list[StatefulTask]:
    out: list[StatefulTask] = []
    api = "/api/requests"
    notes, date, rows = "Exports by partner country", "2025-03-11", 2500
    plan = [
        _tab("new", "#f-dataset"),
        select(L("#f-dataset"), "Merchandise trade, quarterly", expect=value_is(L("#f-dataset"), "trade-q")),
        fill(L("#f-delivery"), date, expect=value_is(L("#f-delivery"), date)),
        select(L("#f-format"), "Excel (XLSX)", expect=value_is(L("#f-format"), "XLSX")),
        fill(L("#f-rows"), str(rows), expect=value_is(L("#f-rows"), str(rows))),
        fill(L("#f-notes"), notes, expect=value_is(L("#f-notes"), notes)),
        click(L("#save"), expect=visible(L("#toast"))),
        answer(L("#toast .ref")),
    ]
    out.append(
        StatefulTask(
            task_id="req-create-01",
            app="requests",
            failure_classes=["select", "fill", "date_input"],
            instruction=(
                f"Submit a data request for Merchandise trade, quarterly, delivery date {date}, as Excel "
                f"(XLSX), at most {rows} rows, with the note “{notes}”. Report the reference of the new "
                "request. If asked to sign in, the user name is analyst and the password portal-2025."
            ),
            obligations=[
                {
                    "entity": "records",
                    "op": "create",
                    "count": 1,
                    "fields": {
                        "dataset": "trade-q",
                        "delivery": date,
                        "format": "XLSX",
                        "rows": rows,
                        "notes": notes,
                        "status": "submitted",
                    },
                }
            ],
            plan=plan,
            targets={
                "main": ["POST", f"{api}/records"],
                "write": ["POST", f"{api}/records"],
                "list": ["GET", f"{api}/records"],
                "submit": "#save",
                "submit_step": 6,
                "redo_from": 0,
                "form": True,
                "readback": text_has(L("#records"), date),
                "drift": {
                    "field": "delivery",
                    "kind": "swap_day_month",
                    "value": date,
                    "input": "#f-delivery",
                    "edit_row": '#records tr[data-id="R-0004"] .edit',
                },
            },
        )
    )
    new_date = "2025-05-07"
    plan = [
        click(L('#records tr[data-id="R-0002"] .edit'), expect=visible(L("#f-delivery"))),
        fill(L("#f-delivery"), new_date, expect=value_is(L("#f-delivery"), new_date)),
        select(L("#f-format"), "JSON", expect=value_is(L("#f-format"), "JSON")),
        click(L("#save"), expect=visible(L("#toast"))),
        answer(L("#toast .ref")),
    ]
    out.append(
        StatefulTask(
            task_id="req-edit-01",
            app="requests",
            failure_classes=["select", "fill", "date_input"],
            instruction=(
                f"Change your data request R-0002: delivery date {new_date} and file format JSON. Leave "
                "everything else as it is. Report the reference you edited. If asked to sign in, the "
                "user name is analyst and the password portal-2025."
            ),
            obligations=[
                {"entity": "records", "op": "update", "id": "R-0002", "fields": {"delivery": new_date}},
                {"entity": "records", "op": "update", "id": "R-0002", "fields": {"format": "JSON"}},
            ],
            plan=plan,
            targets={
                "main": ["PUT", f"{api}/records/R-0002"],
                "write": ["PUT", f"{api}/records/R-0002"],
                "list": ["GET", f"{api}/records"],
                "submit": "#save",
                "submit_step": 3,
                "redo_from": 0,
                "form": True,
                "readback": text_has(L('#records tr[data-id="R-0002"]'), new_date),
                "drift": {
                    "field": "delivery",
                    "kind": "swap_day_month",
                    "value": new_date,
                    "input": "#f-delivery",
                    "edit_row": '#records tr[data-id="R-0002"] .edit',
                },
            },
        )
    )
    # Retrieval: one cell of one series, read from the table filtered by its topic (both tasks
    # read the look-up task's seeded state).
    state = app.initial("req-lookup-01", seed)
    row = next(r for r in state.catalogue if r["id"] == "S02")
    sign_in = " If asked to sign in, the user name is analyst and the password portal-2025."
    out.append(
        _lookup("req-lookup-01", row, "value", row["value"], f"the latest value of “{row['name']}”.{sign_in}")
    )
    row = next(r for r in state.catalogue if r["id"] == "S06")
    unit_name = next(u["name"] for u in state.units if u["id"] == row["unit"])
    ask = f"the unit in which “{row['name']}” is published (its full name)."
    out.append(_lookup("req-unit-01", row, "unit", unit_name, ask, unit=row["unit"]))
    return out


def _lookup(task_id: str, row: dict, cell: str, value: str, ask: str, **more: str) -> StatefulTask:
    """A catalogue look-up: filter the row's topic, then read its `cell`; `ask` ends the instruction."""
    api, topic = "/api/requests", row["topic"]
    plan = [
        _tab("catalogue", "#filter"),
        select(L("#filter"), topic, expect=value_is(L("#filter"), topic)),
        click(L("#apply"), expect=text_has(L("#shown"), topic)),
        answer(L(f'#catalogue tr[data-id="{row["id"]}"] td.{cell}')),
    ]
    return StatefulTask(
        task_id=task_id,
        app="requests",
        category="multi-source comparison",
        failure_classes=["select"],
        state_changing=False,
        answer=value,
        obligations=[filtered(api, topic)],
        plan=plan,
        instruction=f"In the data catalogue of the data requests page, filter the topic {topic} and report {ask}",
        targets={
            "main": ["GET", f"{api}/catalogue/.+"],
            "submit": "#apply",
            "submit_step": 2,
            "redo_from": 0,
            **more,
            "series": row["id"],
        },
    )


def _latest_task(app: SpaApp, seed: int) -> StatefulTask:
    latest = max(app.initial("req-latest-01", seed).catalogue, key=lambda r: r["released"])
    plan = [
        _tab("catalogue", "#filter"),
        select(L("#filter"), "All", expect=value_is(L("#filter"), "")),
        click(L("#apply"), expect=text_has(L("#shown"), "all topics")),
        answer(L(f'#catalogue tr[data-id="{latest["id"]}"] td.name')),
    ]
    return StatefulTask(
        task_id="req-latest-01",
        app="requests",
        category="complete data retrieval",
        failure_classes=["select"],
        state_changing=False,
        answer=latest["name"],
        obligations=[filtered("/api/requests", None)],
        plan=plan,
        instruction="Which series in the data catalogue of the data requests page was released most recently? "
        "Report its name.",
        targets={
            "main": ["GET", "/api/requests/catalogue"],
            "submit": "#apply",
            "submit_step": 2,
            "redo_from": 0,
            "order_sensitive": True,
        },
    )


def tasks(app: SpaApp, seed: int) -> list[StatefulTask]:
    """The data requests' tasks for `seed`: its two writes, then its three look-ups."""
    return [*_requests_tasks(app, seed), _latest_task(app, seed)]
