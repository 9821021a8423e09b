"""The healthcare site's task templates, tiers T1-T3 (long_tasks.py holds T4-T5): reading a
message or a lab result, confirming, cancelling and rescheduling an appointment, a refill, a
payment, a reply; scheduling a visit, writing to the care team, a questionnaire, your contact
details, your insurance and preferred pharmacy.

Each instance names its record as the page shows it (a message by subject and sender, a result
by test and collection day, an appointment by provider and time, a statement by day and
service), so the truth is unambiguous; obligations name every change; anything else that
changes breaks an invariant. The readback holds only when the backend holds the change, on
`verify_path` after a fresh load."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from typing import Any

from webfovea_breakingweb.apps.healthcare import plans as p
from webfovea_breakingweb.apps.healthcare.common import (
    API,
    create,
    day,
    due,
    free_slots,
    make,
    money,
    provider,
    upcoming,
    update,
    when,
    write_targets,
)
from webfovea_breakingweb.apps.healthcare.state import HealthState
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.store import next_id
from webfovea_proving_ground.plan import L, click, text_has, visible

PER_TEMPLATE = 6
CANCEL_REASONS = ("Schedule conflict", "Feeling better", "Transportation problem", "Seeing another provider")
VISITS = ("In person", "Video visit")
VISIT_WORDS = {"In person": "an in-person appointment", "Video visit": "a video visit"}
METHODS = ("Card on file", "Bank account")
REPLIES = (
    "Thank you, that answers my question.", "I will bring my medication list to the visit.",
    "Could we talk about this at my next appointment?", "Thanks, I feel much better this week.",
)  # fmt: skip
SUBJECTS = (
    "Question about my medication",
    "Follow-up after my visit",
    "Request for a referral",
    "Side effects",
)
BODIES = (
    "Hello, I have a quick question. When would be a good time to talk?",
    "Hello, I noticed some side effects this week. Should I keep taking it?",
    "Hello, could you tell me whether I need to fast before my next test?",
)  # fmt: skip
REASONS = ("Annual physical", "Follow-up visit", "Persistent cough", "Back pain", "Medication review")
FREE_TEXT = (
    "Nothing else, thank you.",
    "I would like to talk about my sleep.",
    "A rash after penicillin as a child.",
)
CARRIERS = ("Bluepoint Health", "Harborview Mutual", "Crestline Care", "Unity Shield")
STREETS = ("9 Harbor View Road", "118 Maple Street", "3 Quarry Lane", "57 Cedar Court", "220 Ocean Avenue")
CITIES = (("Dartmouth", "02747"), ("New Bedford", "02740"), ("Westport", "02790"), ("Mattapoisett", "02739"))


def provider_label(state: HealthState, pid: str) -> str:
    doc = provider(state, pid)
    return f"{doc.name} — {doc.specialty}"


def pharmacy_label(state: HealthState, phid: str) -> str:
    ph = next(x for x in state.pharmacies if x.id == phid)
    return f"{ph.name} — {ph.address}"


def inbox(state: HealthState) -> list[Any]:
    return [m for m in state.messages if m.folder == "inbox"]


def later(iso: str, days: int) -> str:
    t = datetime.fromisoformat(iso.replace("Z", "+00:00")) + timedelta(days=days)
    return t.strftime("%Y-%m-%dT%H:%M:%SZ")


def appt_name(state: HealthState, a: Any) -> str:
    return f"with {provider(state, a.provider).name} on {when(a.start)} ({a.reason})"


def appointments_readback(aid: str) -> dict[str, Any]:
    return visible(L(p.upcoming_row(aid)))


def t_read_message(state: HealthState, r: random.Random, n: int) -> StatefulTask:
    m = r.choice([x for x in inbox(state) if not x.read])
    row = f'#messages tr[data-id="{m.id}"]'
    plan = p.open_message(m.id)
    other = r.choice([d.name for d in state.providers if d.name != m.sender])
    return make("read-message", n, f"open and read the message “{m.subject}” from {m.sender}.", plan,
                [update("messages", m.id, read=True)],
                {**write_targets(f"{API}/messages/{m.id}/read", plan, f"{row} .open", visible(L(f"{row}.read")),
                                 f"/messages/inbox/{m.id}", listing=f"{API}/messages"),
                 "decoy_of": m.id, "decoy": {"sender": other}})  # fmt: skip


def t_view_result(state: HealthState, r: random.Random, n: int) -> StatefulTask:
    res = r.choice([x for x in state.results if not x.viewed])
    row = f'#results tr[data-id="{res.id}"]'
    plan = p.open_result(res.id)
    earlier = (datetime.fromisoformat(res.collected) - timedelta(days=r.randint(20, 60))).strftime("%Y-%m-%d")
    return make("view-result", n, f"open your {res.test} result collected on {day(res.collected)} and review it.", plan,
                [update("results", res.id, viewed=True)],
                {**write_targets(f"{API}/results/{res.id}/viewed", plan, f"{row} .open", visible(L(f"{row}.viewed")),
                                 f"/results/{res.id}", listing=f"{API}/results"),
                 "decoy_of": res.id, "decoy": {"collected": earlier}})  # fmt: skip


def t_confirm(state: HealthState, r: random.Random, n: int) -> StatefulTask:
    a = r.choice([x for x in upcoming(state) if not x.confirmed])
    plan = p.confirm(a.id)
    row = p.upcoming_row(a.id)
    return make("confirm-appointment", n, f"confirm your appointment {appt_name(state, a)}.", plan,
                [update("appointments", a.id, confirmed=True)],
                {**write_targets(f"{API}/appointments/{a.id}/confirm", plan, f"{row} .confirm",
                                 text_has(L(f"{row} .status"), "Confirmed"), "/appointments", listing=f"{API}/appointments"),
                 "decoy_of": a.id, "decoy": {"start": later(a.start, 7), "slot": ""}})  # fmt: skip


def t_cancel(state: HealthState, r: random.Random, n: int) -> StatefulTask:
    a = r.choice(upcoming(state))
    reason = r.choice(CANCEL_REASONS)
    plan = p.cancel(a.id, reason)
    return make("cancel-appointment", n, f"cancel your appointment {appt_name(state, a)}, giving the reason “{reason}”.",
                plan, [update("appointments", a.id, status="cancelled", cancel_reason=reason)],
                write_targets(f"{API}/appointments/{a.id}/cancel", plan, "#cancel-submit",
                              visible(L(f'#past tr[data-id="{a.id}"]')), "/appointments", listing=f"{API}/appointments",
                              form=True))  # fmt: skip


def t_reschedule(state: HealthState, r: random.Random, n: int) -> StatefulTask | None:
    a = r.choice(upcoming(state))
    slots = [s for s in free_slots(state, a.provider) if s.start[:10] != a.start[:10]]
    if not slots:
        return None
    s = r.choice(slots)
    plan = p.reschedule(a.id, s.id)
    return make("reschedule", n, f"move your appointment {appt_name(state, a)} to {when(s.start)}.", plan,
                [update("appointments", a.id, slot=s.id, start=s.start)],
                write_targets(f"{API}/appointments/{a.id}/reschedule", plan, "#resched-submit",
                              text_has(L(f"{p.upcoming_row(a.id)} .when"), when(s.start)), "/appointments",
                              listing=f"{API}/appointments"))  # fmt: skip


def t_refill(state: HealthState, r: random.Random, n: int) -> StatefulTask:
    rx = r.choice([x for x in state.prescriptions if x.refills_left > 0])
    ph = r.choice(state.pharmacies)
    rid = next_id(state.refills, "RF-")
    plan = p.refill(rx.id, pharmacy_label(state, ph.id), ph.id, rid)
    return make("refill", n, f"request a refill of your {rx.drug}, to be picked up at {ph.name}.", plan,
                [create("refills", prescription=rx.id, pharmacy=ph.id, status="requested")],
                write_targets(f"{API}/prescriptions/{rx.id}/refill", plan, "#refill-submit",
                              visible(L(f'#refill-requests li[data-id="{rid}"]')), "/medications",
                              listing=f"{API}/medications", form=True))  # fmt: skip


def pay_task(state: HealthState, r: random.Random) -> tuple[Any, int, str, str, list[dict[str, Any]]]:
    bill = r.choice(due(state))
    left = bill.amount - bill.paid
    amount = left if r.random() < 0.6 else r.randint(1, max(1, left // 2000)) * 1000
    method = r.choice(METHODS)
    paid = bill.paid + amount
    obs = [create("payments", statement=bill.id, amount=amount, method=method),
           update("statements", bill.id, paid=paid, **({"status": "paid"} if paid == bill.amount else {}))]  # fmt: skip
    return bill, amount, method, next_id(state.payments, "PAY-"), obs


def pay_words(bill: Any, amount: int) -> str:
    what = "the full balance" if amount == bill.amount - bill.paid else money(amount)
    return f"pay {what} of your statement from {day(bill.date)} for “{bill.description}”"


def t_pay(state: HealthState, r: random.Random, n: int) -> StatefulTask:
    bill, amount, method, pid, obs = pay_task(state, r)
    plan = p.pay(bill.id, f"{amount / 100:.2f}", method, pid)
    return make("pay-balance", n, f"{pay_words(bill, amount)} with your {method.lower()}.", plan, obs,
                write_targets(f"{API}/statements/{bill.id}/pay", plan, "#pay-submit",
                              visible(L(f'#payments tr[data-id="{pid}"]')), "/billing", listing=f"{API}/billing",
                              form=True))  # fmt: skip


def reply_obligations(state: HealthState, m: Any, text: str) -> list[dict[str, Any]]:
    made = create(
        "messages", folder="sent", recipient=m.sender, subject=f"Re: {m.subject}", body=text, in_reply_to=m.id
    )
    return [made] if m.read else [update("messages", m.id, read=True), made]


def t_reply(state: HealthState, r: random.Random, n: int) -> StatefulTask:
    m = r.choice(inbox(state))
    text, mid = r.choice(REPLIES), next_id(state.messages, "M-")
    plan = [*p.open_message(m.id), *p.reply(text, mid)]
    return make("reply-message", n, f"reply “{text}” to the message “{m.subject}” from {m.sender}.", plan,
                reply_obligations(state, m, text),
                write_targets(f"{API}/messages/{m.id}/reply", plan, "#reply-send", visible(L(f'#replies li[data-id="{mid}"]')),
                              f"/messages/inbox/{m.id}", listing=f"{API}/messages", form=True))  # fmt: skip


def schedule_parts(
    state: HealthState, r: random.Random, pid: str, reason: str
) -> tuple[Any, str, str, list] | None:
    slots = free_slots(state, pid)
    if not slots:
        return None
    s, visit = r.choice(slots), r.choice(VISITS)
    aid = next_id(state.appointments, "A-")
    plan = p.schedule(provider_label(state, pid), pid, visit, s.id, reason, aid)
    return s, visit, aid, plan


def schedule_ob(pid: str, s: Any, visit: str, reason: str) -> dict[str, Any]:
    return create(
        "appointments",
        provider=pid,
        slot=s.id,
        start=s.start,
        visit_type=visit,
        reason=reason,
        status="scheduled",
    )


def schedule_targets(plan: list, aid: str, redo_from: int = 0) -> dict[str, Any]:
    return write_targets(f"{API}/appointments", plan, "#sched-submit", appointments_readback(aid), "/appointments",
                         listing=f"{API}/appointments", form=True, redo_from=redo_from)  # fmt: skip


def t_schedule(state: HealthState, r: random.Random, n: int) -> StatefulTask | None:
    doc, reason = r.choice(state.providers), r.choice(REASONS)
    got = schedule_parts(state, r, doc.id, reason)
    if got is None:
        return None
    s, visit, aid, plan = got
    return make("schedule", n, f"schedule {VISIT_WORDS[visit]} with {doc.name} ({doc.specialty}) on {when(s.start)} "
                f"for the reason “{reason}”.", plan, [schedule_ob(doc.id, s, visit, reason)], schedule_targets(plan, aid))  # fmt: skip


def t_compose(state: HealthState, r: random.Random, n: int) -> StatefulTask:
    doc, subject, body = r.choice(state.providers), r.choice(SUBJECTS), r.choice(BODIES)
    mid = next_id(state.messages, "M-")
    plan = p.compose(provider_label(state, doc.id), doc.id, subject, body, mid)
    return make("compose", n, f"send {doc.name} a message with the subject “{subject}” and the text “{body}”.", plan,
                [create("messages", folder="sent", recipient=doc.name, subject=subject, body=body)],
                write_targets(f"{API}/messages", plan, "#msg-send", visible(L(f'tr[data-id="{mid}"]')),
                              "/messages/sent", listing=f"{API}/messages", form=True))  # fmt: skip


def questionnaire(state: HealthState, r: random.Random) -> tuple[Any, dict[str, str], str]:
    form = r.choice([f for f in state.forms if f.kind == "questionnaire" and f.status == "to do"])
    answers = {q.key: r.choice(q.options) if q.options else r.choice(FREE_TEXT) for q in form.questions}
    words = "; ".join(f"“{q.label}” {answers[q.key]}" for q in form.questions)
    return form, answers, words


def questionnaire_steps(form: Any, answers: dict[str, str]) -> list[dict[str, Any]]:
    return [
        *p.open_form(form.id),
        *(p.answer(q.key, q.options, answers[q.key]) for q in form.questions),
        click(L("#form-submit"), expect=text_has(L("#toast"), "submitted")),
    ]


def form_targets(fid: str, route: str, submit: str, plan: list, redo_from: int = 0) -> dict[str, Any]:
    return write_targets(f"{API}/forms/{fid}/{route}", plan, submit,
                         text_has(L(f'#forms tr[data-id="{fid}"] .status'), "Submitted" if route == "submit" else "Signed"),
                         "/forms", listing=f"{API}/forms", form=True, redo_from=redo_from)  # fmt: skip


def t_questionnaire(state: HealthState, r: random.Random, n: int) -> StatefulTask:
    form, answers, words = questionnaire(state, r)
    plan = questionnaire_steps(form, answers)
    return make("questionnaire", n, f"fill in and submit the “{form.title}” with these answers: {words}.", plan,
                [update("forms", form.id, status="submitted", answers=answers)],
                form_targets(form.id, "submit", "#form-submit", plan))  # fmt: skip


def new_contact(state: HealthState, r: random.Random) -> dict[str, str]:
    city, postal = r.choice([c for c in CITIES if c[0] != state.profile.city])
    phone = f"(508) 555-{r.randint(1000, 9999)}"
    return {"address": r.choice(STREETS), "city": city, "postal": postal, "phone": phone}


def on_file(f: dict[str, str]) -> str:
    """How the profile's "On file" line writes the new address and phone."""
    return f"{f['address']}, {f['city']} {f['postal']} · {f['phone']}"


def contact_ob(fields: dict[str, str]) -> dict[str, Any]:
    return update("profile", "_", address=fields["address"], city=fields["city"], postal_code=fields["postal"],
                  phone=fields["phone"])  # fmt: skip


def contact_words(f: dict[str, str]) -> str:
    return f"change your address to {f['address']}, {f['city']} {f['postal']} and your phone number to {f['phone']}"


def t_contact(state: HealthState, r: random.Random, n: int) -> StatefulTask:
    fields = new_contact(state, r)
    plan = p.contact(fields)
    return make("update-contact", n, f"you moved: in your profile, {contact_words(fields)}.", plan, [contact_ob(fields)],
                write_targets(f"{API}/profile", plan, "#pf-save", text_has(L("#contact-on-file"), on_file(fields)), "/profile",
                              listing=f"{API}/profile", form=True))  # fmt: skip


def new_insurance(state: HealthState, r: random.Random) -> tuple[str, str, str, str]:
    """A new carrier, member ID, group number and start day; the day is at most the 12th and not
    the month, so swapping day and month (server/save_drift) stores another valid day."""
    carrier = r.choice([c for c in CARRIERS if c != state.coverages[0].carrier])
    month = r.choice((2, 3))
    start = f"2025-{month:02d}-{r.choice([d for d in range(3, 13) if d != month]):02d}"
    return carrier, f"{carrier[:2].upper()}{r.randint(100000, 999999)}", f"G-{r.randint(1000, 9999)}", start


def insurance_words(carrier: str, member: str, group: str, start: str) -> str:
    return f"update your insurance to {carrier}, member ID {member}, group number {group}, coverage starting {start}"


def insurance_ob(carrier: str, member: str, group: str, start: str) -> dict[str, Any]:
    return update(
        "coverages", "I-0001", carrier=carrier, member_id=member, group_number=group, effective=start
    )


def t_insurance(state: HealthState, r: random.Random, n: int) -> StatefulTask:
    carrier, member, group, start = new_insurance(state, r)
    ph = r.choice([x for x in state.pharmacies if x.id != state.profile.pharmacy])
    plan = [
        *p.preferred_pharmacy(pharmacy_label(state, ph.id), ph.id),
        *p.insurance(carrier, member, group, start, from_nav=False),
    ]
    targets = write_targets(f"{API}/coverages/I-0001", plan, "#ins-save", text_has(L("#ins-on-file"), f"{carrier} · member ID {member} · group {group} · coverage since {start}"),
                            "/profile", listing=f"{API}/profile", form=True, redo_from=3)  # fmt: skip
    # server/save_drift swaps the start day's day and month on the first save; a careful patient
    # reads the saved form back and types the day again.
    targets["drift"] = {
        "field": "effective",
        "kind": "swap_day_month",
        "value": start,
        "input": "#ins-effective",
    }
    return make("update-insurance", n, f"you changed jobs: make {ph.name} your preferred pharmacy, and "
                f"{insurance_words(carrier, member, group, start)}.", plan,
                [update("profile", "_", pharmacy=ph.id), insurance_ob(carrier, member, group, start)], targets)  # fmt: skip


TEMPLATES = {
    "read-message": t_read_message, "view-result": t_view_result, "confirm-appointment": t_confirm,
    "cancel-appointment": t_cancel, "reschedule": t_reschedule, "refill": t_refill, "pay-balance": t_pay,
    "reply-message": t_reply, "schedule": t_schedule, "compose": t_compose, "questionnaire": t_questionnaire,
    "update-contact": t_contact, "update-insurance": t_insurance,
}  # fmt: skip
