"""Plan fragments for the healthcare site's tasks: the steps a careful person takes in its
pages (react/envs/healthcare/), each with what it should show when it worked."""

from __future__ import annotations

from webfovea_proving_ground.plan import L, Step, click, fill, select, text_has, value_is, visible


def nav(view: str, shows: str) -> Step:
    """A header link (`#nav-<view>`), expecting `shows` on the view it opens."""
    return click(L(f"#nav-{view}"), expect=visible(L(shows)))


def upcoming_row(aid: str) -> str:
    return f'#upcoming tr[data-id="{aid}"]'


def confirm(aid: str) -> list[Step]:
    row = upcoming_row(aid)
    return [
        nav("appointments", row),
        click(L(f"{row} .confirm"), expect=text_has(L(f"{row} .status"), "Confirmed")),
    ]


def cancel(aid: str, reason: str) -> list[Step]:
    row = upcoming_row(aid)
    return [
        nav("appointments", row),
        click(L(f"{row} .cancel"), expect=visible(L("#cancel-submit"))),
        select(L("#cancel-reason"), reason, expect=value_is(L("#cancel-reason"), reason)),
        click(L("#cancel-submit"), expect=text_has(L("#toast"), "cancelled")),
    ]


def pick_slot(sid: str) -> Step:
    button = f'.slot[data-id="{sid}"]'
    return click(L(button), expect=visible(L(f'{button}[aria-pressed="true"]')))


def reschedule(aid: str, sid: str) -> list[Step]:
    row = upcoming_row(aid)
    return [
        nav("appointments", row),
        click(L(f"{row} .reschedule"), expect=visible(L("#resched-submit"))),
        pick_slot(sid),
        click(L("#resched-submit"), expect=text_has(L("#toast"), "moved to")),
    ]


def schedule(provider_label: str, pid: str, visit: str, sid: str, reason: str, new_id: str) -> list[Step]:
    return [
        nav("appointments", "#appt-new"),
        click(L("#appt-new"), expect=visible(L("#sched-provider"))),
        select(L("#sched-provider"), provider_label, expect=visible(L(f'.slot[data-id="{sid}"]'))),
        pick_slot(sid),
        select(L("#sched-type"), visit, expect=value_is(L("#sched-type"), visit)),
        fill(L("#sched-reason"), reason, expect=value_is(L("#sched-reason"), reason)),
        click(L("#sched-submit"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def open_message(mid: str) -> list[Step]:
    row = f'#messages tr[data-id="{mid}"]'
    return [nav("messages", row), click(L(f"{row} .open"), expect=visible(L(f"{row}.read")))]


def reply(text: str, new_id: str) -> list[Step]:
    return [
        click(L("#msg-reply"), expect=visible(L("#reply-body"))),
        fill(L("#reply-body"), text, expect=value_is(L("#reply-body"), text)),
        click(L("#reply-send"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def compose(to_label: str, to: str, subject: str, body: str, new_id: str) -> list[Step]:
    return [
        nav("messages", "#msg-new"),
        click(L("#msg-new"), expect=visible(L("#msg-send"))),
        select(L("#msg-to"), to_label, expect=value_is(L("#msg-to"), to)),
        fill(L("#msg-subject"), subject, expect=value_is(L("#msg-subject"), subject)),
        fill(L("#msg-body"), body, expect=value_is(L("#msg-body"), body)),
        click(L("#msg-send"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def open_result(lid: str) -> list[Step]:
    row = f'#results tr[data-id="{lid}"]'
    return [nav("results", row), click(L(f"{row} .open"), expect=visible(L(f"{row}.viewed")))]


def ask_about_result(body: str, new_id: str) -> list[Step]:
    """From an open result: its "Ask a question" link opens a message to the ordering provider
    with the subject filled in."""
    return [
        click(L("#result-ask"), expect=visible(L("#msg-send"))),
        fill(L("#msg-body"), body, expect=value_is(L("#msg-body"), body)),
        click(L("#msg-send"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def refill(rid: str, pharmacy_label: str, pharmacy: str, new_id: str, *, from_nav: bool = True) -> list[Step]:
    row = f'#prescriptions tr[data-id="{rid}"]'
    opener = [nav("medications", row)] if from_nav else []
    return [
        *opener,
        click(L(f"{row} .refill"), expect=visible(L("#refill-submit"))),
        select(L("#refill-pharmacy"), pharmacy_label, expect=value_is(L("#refill-pharmacy"), pharmacy)),
        click(L("#refill-submit"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def pay(bid: str, amount: str, method: str, new_id: str) -> list[Step]:
    row = f'#statements tr[data-id="{bid}"]'
    return [
        nav("billing", row),
        click(L(f"{row} .pay"), expect=visible(L("#pay-submit"))),
        fill(L("#pay-amount"), amount, expect=value_is(L("#pay-amount"), amount)),
        select(L("#pay-method"), method, expect=value_is(L("#pay-method"), method)),
        click(L("#pay-submit"), expect=text_has(L("#toast .ref"), new_id)),
    ]


def open_form(fid: str) -> list[Step]:
    row = f'#forms tr[data-id="{fid}"]'
    return [nav("forms", row), click(L(f"{row} .open"), expect=visible(L(f'#form[data-id="{fid}"]')))]


def answer(key: str, options: list[str], value: str) -> Step:
    if not options:
        box = f"#q-{key}"
        return fill(L(box), value, expect=value_is(L(box), value))
    radio = f"#q-{key}-{options.index(value)}"
    return click(L(radio), expect=visible(L(f"{radio}:checked")))


def sign(name: str) -> list[Step]:
    return [
        fill(L("#consent-signature"), name, expect=value_is(L("#consent-signature"), name)),
        click(L("#consent-agree"), expect=visible(L("#consent-agree:checked"))),
        click(L("#consent-sign"), expect=text_has(L("#toast"), "signed")),
    ]


def contact(fields: dict[str, str]) -> list[Step]:
    """Fill the profile's contact fields named (`#pf-<field>`) and save."""
    steps = [nav("profile", "#pf-save")]
    for key, value in fields.items():
        box = f"#pf-{key}"
        steps.append(fill(L(box), value, expect=value_is(L(box), value)))
    return [*steps, click(L("#pf-save"), expect=text_has(L("#toast"), "contact information was updated"))]


def insurance(carrier: str, member: str, group: str, effective: str, *, from_nav: bool = True) -> list[Step]:
    opener = [nav("profile", "#ins-save")] if from_nav else []
    return [
        *opener,
        select(L("#ins-carrier"), carrier, expect=value_is(L("#ins-carrier"), carrier)),
        fill(L("#ins-member"), member, expect=value_is(L("#ins-member"), member)),
        fill(L("#ins-group"), group, expect=value_is(L("#ins-group"), group)),
        fill(L("#ins-effective"), effective, expect=value_is(L("#ins-effective"), effective)),
        click(L("#ins-save"), expect=text_has(L("#toast"), "insurance was updated")),
    ]


def preferred_pharmacy(label: str, pharmacy: str, *, from_nav: bool = True) -> list[Step]:
    opener = [nav("profile", "#pf-pharmacy")] if from_nav else []
    return [
        *opener,
        select(L("#pf-pharmacy"), label, expect=value_is(L("#pf-pharmacy"), pharmacy)),
        click(L("#pf-pharmacy-save"), expect=text_has(L("#toast"), "Preferred pharmacy set")),
    ]
