"""The healthcare site's public API under /api/env/healthcare (seed 003 A.1: the only surface
the page and the agent touch). Reads return the typed records as JSON; writes run in a
transaction (engine/routes.py), so a refusal leaves nothing half-written and the clock advances
once.

What a real portal refuses, this one refuses with the reason: a slot another appointment holds
(409), a past or cancelled appointment changed (422), a refill of a prescription with no refills
left or one already requested, a payment above the balance, a questionnaire with an unanswered
question, a consent signed with a name that is not yours.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.apps.healthcare.state import (
    Appointment,
    HealthState,
    Message,
    Method,
    Payment,
    Refill,
    VisitType,
)
from webfovea_breakingweb.engine import store as st
from webfovea_breakingweb.engine.determinism import stamp
from webfovea_breakingweb.engine.react import mount_react
from webfovea_breakingweb.engine.routes import LENIENT, AppRoutes, Call
from webfovea_breakingweb.engine.spec import AppSpec
from webfovea_proving_ground.sessions import SessionStore

NOW = stamp(0)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ContactBody(_Body):
    address: str = Field(min_length=3, max_length=120)
    city: str = Field(min_length=2, max_length=60)
    postal_code: str = Field(pattern=r"^[0-9]{5}$")
    phone: str = Field(pattern=r"^\(?[0-9]{3}\)? ?[0-9]{3}-[0-9]{4}$")
    email: str = Field(pattern=r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")
    language: str = Field(min_length=2, max_length=40)


class PharmacyBody(_Body):
    pharmacy: str


class CoverageBody(_Body):
    carrier: str = Field(min_length=2, max_length=60)
    member_id: str = Field(min_length=4, max_length=20)
    group_number: str = Field(min_length=2, max_length=20)
    effective: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")


class NewAppointment(_Body):
    provider: str
    slot: str
    visit_type: VisitType
    reason: str = Field(min_length=1, max_length=200)


class SlotBody(_Body):
    slot: str


class CancelBody(_Body):
    reason: str = Field(min_length=1, max_length=120)


class NewMessage(_Body):
    to: str  # a provider's id
    subject: str = Field(min_length=1, max_length=120)
    body: str = Field(min_length=1, max_length=5000)


class ReplyBody(_Body):
    body: str = Field(min_length=1, max_length=5000)


class RefillBody(_Body):
    pharmacy: str
    note: str = Field(default="", max_length=300)


class PayBody(_Body):
    amount: int = Field(gt=0)  # cents
    method: Method


class AnswersBody(_Body):
    answers: dict[str, str]


class SignBody(_Body):
    signature: str = Field(min_length=1, max_length=80)
    agree: bool


def held_slots(state: HealthState, but: str | None = None) -> set[str]:
    return {a.slot for a in state.appointments if a.status == "scheduled" and a.slot and a.id != but}


def provider_name(state: HealthState, pid: str) -> str:
    return st.find(state.providers, pid, "provider").name


def _appointment(state: HealthState, a: Appointment) -> dict[str, Any]:
    doc = st.find(state.providers, a.provider, "provider")
    return {**a.model_dump(), "provider_name": doc.name, "specialty": doc.specialty, "location": doc.location}


def _upcoming(c: Call, aid: str) -> Appointment:
    a = st.find(c.state.appointments, aid, "appointment")
    if a.status != "scheduled":
        raise st.Rejected(f"Appointment {aid} is {a.status}; only an upcoming appointment can be changed.")
    return a


def _free_slot(c: Call, provider: str, sid: str, but: str | None = None) -> str:
    slot = st.find(c.state.slots, sid, "slot")
    if slot.provider != provider:
        raise st.Rejected(f"Slot {sid} is with another provider.")
    if sid in held_slots(c.state, but):
        raise st.Rejected("That time was just taken. Please choose another time.", 409)
    return slot.start


def balance(state: HealthState) -> int:
    return sum(s.amount - s.paid for s in state.statements)


def routes(app: AppSpec, main: FastAPI, store: SessionStore) -> None:  # noqa: C901 - one route each
    r = AppRoutes(app, main, store)
    mount_react(app, main, store)

    @r.read("/summary")
    def summary(c: Call) -> dict[str, Any]:
        s: HealthState = c.state
        up = [_appointment(s, a) for a in s.appointments if a.status == "scheduled"]
        return {
            "name": s.profile.name, "upcoming": sorted(up, key=lambda a: a["start"])[:3],
            "unread": sum(1 for m in s.messages if m.folder == "inbox" and not m.read),
            "new_results": sum(1 for x in s.results if not x.viewed),
            "forms_to_do": sum(1 for f in s.forms if f.status == "to do"), "balance": balance(s),
        }  # fmt: skip

    @r.read("/profile")
    def profile(c: Call) -> dict[str, Any]:
        s: HealthState = c.state
        return {"profile": s.profile.model_dump(), "coverages": [x.model_dump() for x in s.coverages],
                "pharmacies": [x.model_dump() for x in s.pharmacies]}  # fmt: skip

    @r.write("/profile", body=ContactBody)
    def update_profile(c: Call) -> dict[str, Any]:
        fields = c.submitted("profile", c.body.model_dump())
        c.state.profile = c.state.profile.model_validate({**c.state.profile.model_dump(), **fields})
        return {"message": "Your contact information was updated."}

    @r.write("/profile/pharmacy", body=PharmacyBody)
    def set_pharmacy(c: Call) -> dict[str, Any]:
        ph = st.find(c.state.pharmacies, c.body.pharmacy, "pharmacy")
        c.state.profile.pharmacy = ph.id
        return {"message": f"Preferred pharmacy set to {ph.name}."}

    @r.write("/coverages/{cid}", body=CoverageBody)
    def update_coverage(c: Call, cid: str) -> dict[str, Any]:
        cov = st.find(c.state.coverages, cid, "coverage")
        fields = c.submitted(cid, c.body.model_dump())
        for k, v in fields.items():
            setattr(cov, k, v)
        return {"message": "Your insurance was updated."}

    @r.read("/providers")
    def providers(c: Call) -> dict[str, Any]:
        return {"providers": [x.model_dump() for x in c.state.providers]}

    @r.read("/slots")
    def slots(c: Call) -> dict[str, Any]:
        pid = c.query.get("provider", "")
        provider_name(c.state, pid)  # 404 for an unknown provider
        held = held_slots(c.state)
        free = [
            x.model_dump() for x in c.state.slots if x.provider == pid and x.id not in held and x.start > NOW
        ]
        return {"slots": free}

    @r.read("/appointments")
    def appointments(c: Call) -> dict[str, Any]:
        s: HealthState = c.state
        rows = [_appointment(s, a) for a in s.appointments]
        return {
            "upcoming": [a for a in rows if a["status"] == "scheduled"],
            "past": [a for a in reversed(rows) if a["status"] != "scheduled"],
        }

    @r.write("/appointments", body=NewAppointment)
    def schedule(c: Call) -> dict[str, Any]:
        fields = c.submitted(None, c.body.model_dump())
        name = provider_name(c.state, fields["provider"])
        start = _free_slot(c, fields["provider"], fields["slot"])
        a = Appointment(id=st.next_id(c.state.appointments, "A-"), start=start, **fields)
        c.state.appointments.append(a)
        return {"message": f"Your appointment with {name} is scheduled. Confirmation", "id": a.id}

    @r.write("/appointments/{aid}/confirm", body=LENIENT)
    def confirm(c: Call, aid: str) -> dict[str, Any]:
        _upcoming(c, aid).confirmed = True
        return {"message": f"Appointment {aid} confirmed."}

    @r.write("/appointments/{aid}/cancel", body=CancelBody)
    def cancel(c: Call, aid: str) -> dict[str, Any]:
        a = _upcoming(c, aid)
        a.status, a.cancel_reason = "cancelled", c.submitted(aid, c.body.model_dump())["reason"]
        return {"message": f"Appointment {aid} was cancelled."}

    @r.write("/appointments/{aid}/reschedule", body=SlotBody)
    def reschedule(c: Call, aid: str) -> dict[str, Any]:
        a = _upcoming(c, aid)
        sid = c.submitted(aid, c.body.model_dump())["slot"]
        a.start, a.slot = _free_slot(c, a.provider, sid, but=aid), sid
        return {"message": f"Appointment {aid} moved to {a.start[:16].replace('T', ' ')}."}

    @r.read("/messages")
    def messages(c: Call) -> dict[str, Any]:
        folder = c.query.get("folder", "inbox")
        if folder not in ("inbox", "sent"):
            raise st.Rejected(f"unknown folder {folder!r}; one of inbox, sent")
        got = [m.model_dump() for m in reversed(c.state.messages) if m.folder == folder]
        unread = sum(1 for m in c.state.messages if m.folder == "inbox" and not m.read)
        return {"messages": got, "unread": unread}

    @r.write("/messages/{mid}/read", body=LENIENT)
    def read_message(c: Call, mid: str) -> dict[str, Any]:
        st.find(c.state.messages, mid, "message").read = True
        return {}

    @r.write("/messages", body=NewMessage)
    def send(c: Call) -> dict[str, Any]:
        fields = c.submitted(None, c.body.model_dump())
        to = provider_name(c.state, fields["to"])
        m = Message(id=st.next_id(c.state.messages, "M-"), folder="sent", sender=c.state.profile.name, recipient=to,
                    subject=fields["subject"], body=fields["body"], created=st.now(c.state), read=True)  # fmt: skip
        c.state.messages.append(m)
        return {"message": f"Your message to {to} was sent. Reference", "id": m.id}

    @r.write("/messages/{mid}/reply", body=ReplyBody)
    def reply(c: Call, mid: str) -> dict[str, Any]:
        got = st.find(c.state.messages, mid, "message")
        if got.folder != "inbox":
            raise st.Rejected("Only a message you received can be answered.")
        body = c.submitted(None, c.body.model_dump())["body"]
        subject = got.subject if got.subject.startswith("Re: ") else f"Re: {got.subject}"
        m = Message(id=st.next_id(c.state.messages, "M-"), folder="sent", sender=c.state.profile.name,
                    recipient=got.sender, subject=subject[:120], body=body, created=st.now(c.state), read=True,
                    in_reply_to=mid)  # fmt: skip
        c.state.messages.append(m)
        return {"message": f"Your reply to {got.sender} was sent. Reference", "id": m.id}

    @r.read("/medications")
    def medications(c: Call) -> dict[str, Any]:
        s: HealthState = c.state
        rx = [{**p.model_dump(), "prescriber_name": provider_name(s, p.prescriber)} for p in s.prescriptions]
        return {"prescriptions": rx, "refills": [x.model_dump() for x in reversed(s.refills)],
                "pharmacies": [x.model_dump() for x in s.pharmacies], "preferred": s.profile.pharmacy}  # fmt: skip

    @r.write("/prescriptions/{rid}/refill", body=RefillBody)
    def refill(c: Call, rid: str) -> dict[str, Any]:
        rx = st.find(c.state.prescriptions, rid, "prescription")
        fields = c.submitted(None, {"prescription": rid, **c.body.model_dump()})
        ph = st.find(c.state.pharmacies, fields["pharmacy"], "pharmacy")
        if rx.refills_left == 0:
            raise st.Rejected(f"{rx.drug} has no refills left; message your provider for a new prescription.")
        if any(x.prescription == rid and x.status == "requested" for x in c.state.refills):
            raise st.Rejected(f"A refill of {rx.drug} is already requested.", 409)
        made = Refill(id=st.next_id(c.state.refills, "RF-"), created=st.now(c.state), **fields)
        c.state.refills.append(made)
        return {"message": f"Refill of {rx.drug} requested at {ph.name}. Reference", "id": made.id}

    @r.read("/results")
    def results(c: Call) -> dict[str, Any]:
        s: HealthState = c.state
        rows = [{**x.model_dump(), "ordered_by_name": provider_name(s, x.ordered_by),
                 "flagged": sum(1 for k in x.components if not k.low <= k.value <= k.high)} for x in reversed(s.results)]  # fmt: skip
        return {"results": rows}

    @r.write("/results/{lid}/viewed", body=LENIENT)
    def viewed(c: Call, lid: str) -> dict[str, Any]:
        st.find(c.state.results, lid, "result").viewed = True
        return {}

    @r.read("/billing")
    def billing(c: Call) -> dict[str, Any]:
        s: HealthState = c.state
        return {"statements": [x.model_dump() for x in reversed(s.statements)],
                "payments": [x.model_dump() for x in reversed(s.payments)], "balance": balance(s)}  # fmt: skip

    @r.write("/statements/{bid}/pay", body=PayBody)
    def pay(c: Call, bid: str) -> dict[str, Any]:
        bill = st.find(c.state.statements, bid, "statement")
        fields = c.submitted(None, {"statement": bid, **c.body.model_dump()})
        due = bill.amount - bill.paid
        if fields["amount"] > due:
            raise st.Rejected(f"The payment is more than the balance of ${due / 100:,.2f}.")
        made = Payment(id=st.next_id(c.state.payments, "PAY-"), created=st.now(c.state), **fields)
        c.state.payments.append(made)
        bill.paid += made.amount
        bill.status = "paid" if bill.paid == bill.amount else "due"
        return {"message": f"Payment of ${made.amount / 100:,.2f} received. Receipt", "id": made.id}

    @r.read("/forms")
    def forms(c: Call) -> dict[str, Any]:
        return {"forms": [x.model_dump() for x in c.state.forms], "name": c.state.profile.name}

    @r.write("/forms/{fid}/submit", body=AnswersBody)
    def submit_form(c: Call, fid: str) -> dict[str, Any]:
        form = st.find(c.state.forms, fid, "form")
        if form.kind != "questionnaire" or form.status != "to do":
            raise st.Rejected(f"{form.title} is not a questionnaire waiting for answers.")
        answers = c.submitted(fid, c.body.answers)
        for q in form.questions:
            got = answers.get(q.key, "").strip()
            if not got:
                raise st.Rejected(f"Please answer: {q.label}")
            if q.options and got not in q.options:
                raise st.Rejected(f"{got!r} is not an answer to: {q.label}")
        form.answers = {q.key: answers[q.key].strip() for q in form.questions}
        form.status = "submitted"
        return {"message": f"{form.title} submitted."}

    @r.write("/forms/{fid}/sign", body=SignBody)
    def sign(c: Call, fid: str) -> dict[str, Any]:
        form = st.find(c.state.forms, fid, "form")
        if form.kind != "consent" or form.status != "to do":
            raise st.Rejected(f"{form.title} is not a consent waiting for a signature.")
        fields = c.submitted(fid, c.body.model_dump())
        if not fields["agree"]:
            raise st.Rejected("Check the box to agree before you sign.")
        if fields["signature"].strip() != c.state.profile.name:
            raise st.Rejected("Type your full legal name as it appears on your profile to sign.")
        form.signature, form.status = fields["signature"].strip(), "signed"
        return {"message": f"{form.title} signed."}
