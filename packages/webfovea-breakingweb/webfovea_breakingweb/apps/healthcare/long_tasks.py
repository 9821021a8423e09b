"""The healthcare site's long task templates, tiers T4 and T5: getting ready for a visit
(confirm it, answer its questionnaire, sign a consent), following up on a lab result (read it,
ask about it, book the follow-up), a move (contact details, pharmacy, insurance, a refill there)
and a day of paperwork (cancel one visit, move another, answer the care team, pay a bill). Their
main write (the one the families aim at) is the last; a redo starts at that write's own steps."""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.healthcare import plans as p
from webfovea_breakingweb.apps.healthcare.common import (
    API,
    create,
    day,
    free_slots,
    make,
    provider,
    upcoming,
    update,
    when,
    write_targets,
)
from webfovea_breakingweb.apps.healthcare.state import HealthState
from webfovea_breakingweb.apps.healthcare.tasks import (
    CANCEL_REASONS,
    REPLIES,
    VISIT_WORDS,
    appt_name,
    contact_ob,
    contact_words,
    form_targets,
    inbox,
    insurance_ob,
    insurance_words,
    new_contact,
    new_insurance,
    pay_task,
    pay_words,
    pharmacy_label,
    questionnaire,
    questionnaire_steps,
    reply_obligations,
    schedule_ob,
    schedule_parts,
    schedule_targets,
)
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.engine.store import next_id
from webfovea_proving_ground.plan import L, visible

QUESTIONS = (
    "Is this result something I should worry about?",
    "Do I need to repeat this test?",
    "Should I change my diet because of this result?",
)


def t_pre_visit(state: HealthState, r: random.Random, n: int) -> StatefulTask:
    a = r.choice([x for x in upcoming(state) if not x.confirmed])
    form, answers, words = questionnaire(state, r)
    consent = r.choice([f for f in state.forms if f.kind == "consent" and f.status == "to do"])
    plan = [*p.confirm(a.id), *questionnaire_steps(form, answers)]
    start = len(plan)
    plan += [*p.open_form(consent.id), *p.sign(state.profile.name)]
    return make("pre-visit", n, f"get ready for your appointment {appt_name(state, a)}: confirm it, submit the "
                f"“{form.title}” with these answers: {words}; and sign the “{consent.title}” with your full name, "
                f"{state.profile.name}.", plan,
                [update("appointments", a.id, confirmed=True),
                 update("forms", form.id, status="submitted", answers=answers),
                 update("forms", consent.id, status="signed", signature=state.profile.name)],
                form_targets(consent.id, "sign", "#consent-sign", plan, redo_from=start))  # fmt: skip


def t_lab_followup(state: HealthState, r: random.Random, n: int) -> StatefulTask | None:
    res = r.choice([x for x in state.results if not x.viewed])
    doc = provider(state, res.ordered_by)
    reason = f"Review of {res.test}"
    got = schedule_parts(state, r, doc.id, reason)
    if got is None or not free_slots(state, doc.id):
        return None
    s, visit, aid, sched = got
    question, mid = r.choice(QUESTIONS), next_id(state.messages, "M-")
    plan = [*p.open_result(res.id), *p.ask_about_result(question, mid)]
    start = len(plan)
    plan += sched
    return make("lab-followup", n, f"open your {res.test} result from {day(res.collected)}, use its “Ask a question” "
                f"link to send {doc.name} the question “{question}”, then schedule {VISIT_WORDS[visit]} with "
                f"{doc.name} on {when(s.start)} for the reason “{reason}”.", plan,
                [update("results", res.id, viewed=True),
                 create("messages", folder="sent", recipient=doc.name, body=question,
                        subject=f"Question about {res.test} ({day(res.collected)})"),
                 schedule_ob(doc.id, s, visit, reason)],
                schedule_targets(plan, aid, redo_from=start))  # fmt: skip


def t_moved(state: HealthState, r: random.Random, n: int) -> StatefulTask:
    fields = new_contact(state, r)
    ph = r.choice([x for x in state.pharmacies if x.id != state.profile.pharmacy])
    carrier, member, group, begins = new_insurance(state, r)
    rx = r.choice([x for x in state.prescriptions if x.refills_left > 0])
    rid = next_id(state.refills, "RF-")
    label = pharmacy_label(state, ph.id)
    plan = [*p.contact(fields), *p.preferred_pharmacy(label, ph.id, from_nav=False),
            *p.insurance(carrier, member, group, begins, from_nav=False)]  # fmt: skip
    start = len(plan)
    plan += p.refill(rx.id, label, ph.id, rid)
    return make("moved", n, f"you moved and changed jobs. In your profile, {contact_words(fields)}; make {ph.name} your "
                f"preferred pharmacy; {insurance_words(carrier, member, group, begins)}; then "
                f"request a refill of your {rx.drug} at {ph.name}.", plan,
                [contact_ob(fields), update("profile", "_", pharmacy=ph.id),
                 insurance_ob(carrier, member, group, begins),
                 create("refills", prescription=rx.id, pharmacy=ph.id, status="requested")],
                write_targets(f"{API}/prescriptions/{rx.id}/refill", plan, "#refill-submit",
                              visible(L(f'#refill-requests li[data-id="{rid}"]')), "/medications",
                              listing=f"{API}/medications", redo_from=start, form=True))  # fmt: skip


def t_care_day(state: HealthState, r: random.Random, n: int) -> StatefulTask | None:
    gone, moved = r.sample(upcoming(state), 2)
    slots = [s for s in free_slots(state, moved.provider) if s.start[:10] != moved.start[:10]]
    if not slots:
        return None
    s, why = r.choice(slots), r.choice(CANCEL_REASONS)
    m, text, mid = r.choice(inbox(state)), r.choice(REPLIES), next_id(state.messages, "M-")
    bill, amount, method, pid, pay_obs = pay_task(state, r)
    plan = [*p.cancel(gone.id, why), *p.reschedule(moved.id, s.id), *p.open_message(m.id),
            *p.reply(text, mid)]  # fmt: skip
    start = len(plan)
    plan += p.pay(bill.id, f"{amount / 100:.2f}", method, pid)
    return make("care-day", n, f"cancel your appointment {appt_name(state, gone)} (reason “{why}”); move your "
                f"appointment {appt_name(state, moved)} to {when(s.start)}; reply “{text}” to the message "
                f"“{m.subject}” from {m.sender}; and {pay_words(bill, amount)} with your {method.lower()}.", plan,
                [update("appointments", gone.id, status="cancelled", cancel_reason=why),
                 update("appointments", moved.id, slot=s.id, start=s.start),
                 *reply_obligations(state, m, text), *pay_obs],
                write_targets(f"{API}/statements/{bill.id}/pay", plan, "#pay-submit",
                              visible(L(f'#payments tr[data-id="{pid}"]')), "/billing", listing=f"{API}/billing",
                              redo_from=start, form=True))  # fmt: skip


TEMPLATES = {
    "pre-visit": t_pre_visit,
    "lab-followup": t_lab_followup,
    "moved": t_moved,
    "care-day": t_care_day,
}
