"""The healthcare site's typed state (a MyChart-like patient portal): your profile and
insurance, the clinic's providers and their open slots, your appointments, messages with the
care team, prescriptions and refill requests, lab results with reference ranges, billing
statements and payments, and the forms (questionnaires, consents) waiting for you.

Every list holds records with an `id`, so the canonical diff (engine/diff.py) sees each one as
an entity; the profile is one record (`profile`, id "_"). A slot's availability is not stored:
it is free when no scheduled appointment holds it, so booking or cancelling changes one
appointment record and nothing else.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb.engine.spec import EnvState

VisitType = Literal["In person", "Video visit"]
Method = Literal["Card on file", "Bank account"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Profile(_Strict):
    name: str
    birth_date: str
    address: str = Field(min_length=3, max_length=120)
    city: str = Field(min_length=2, max_length=60)
    postal_code: str = Field(pattern=r"^[0-9]{5}$")
    phone: str = Field(pattern=r"^\(?[0-9]{3}\)? ?[0-9]{3}-[0-9]{4}$")
    email: str = Field(pattern=r"^[^@\s]+@[^@\s]+\.[a-z]{2,}$")
    language: str = "English"
    pharmacy: str  # your preferred pharmacy's id


class Coverage(_Strict):
    id: str  # I-0001
    carrier: str
    member_id: str = Field(min_length=4, max_length=20)
    group_number: str = Field(min_length=2, max_length=20)
    effective: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")  # the day coverage starts
    subscriber: str
    primary: bool = True


class Provider(_Strict):
    id: str  # D-0001
    name: str  # "Dr. Ada Berg"
    specialty: str
    location: str


class Slot(_Strict):
    id: str  # S-0001
    provider: str
    start: str  # ISO time in the weeks after the epoch


class Appointment(_Strict):
    id: str  # A-0001
    provider: str
    slot: str  # the slot it holds ("" for a past visit)
    start: str
    visit_type: VisitType = "In person"
    reason: str = Field(default="", max_length=200)
    status: Literal["scheduled", "cancelled", "completed"] = "scheduled"
    confirmed: bool = False
    cancel_reason: str = ""


class Message(_Strict):
    id: str  # M-0001
    folder: Literal["inbox", "sent"]
    sender: str  # a provider's name or "you"
    recipient: str
    subject: str = Field(min_length=1, max_length=120)
    body: str = Field(min_length=1, max_length=5000)
    created: str
    read: bool = False
    in_reply_to: str | None = None


class Pharmacy(_Strict):
    id: str  # PH-0001
    name: str
    address: str


class Prescription(_Strict):
    id: str  # RX-0001
    drug: str
    directions: str
    prescriber: str  # a provider id
    refills_left: int = Field(ge=0)
    last_filled: str


class Refill(_Strict):
    id: str  # RF-0001
    prescription: str
    pharmacy: str
    note: str = Field(default="", max_length=300)
    status: Literal["requested", "sent to pharmacy"] = "requested"
    created: str


class Component(_Strict):
    name: str
    value: float
    unit: str
    low: float
    high: float


class LabResult(_Strict):
    id: str  # L-0001
    test: str
    ordered_by: str  # a provider id
    collected: str
    components: list[Component]
    viewed: bool = False


class Statement(_Strict):
    id: str  # B-0001
    date: str
    description: str
    amount: int = Field(ge=0)  # cents billed after insurance
    paid: int = Field(ge=0)  # cents paid so far
    status: Literal["due", "paid"] = "due"


class Payment(_Strict):
    id: str  # PAY-0001
    statement: str
    amount: int = Field(gt=0)
    method: Method
    created: str


class Question(_Strict):
    key: str
    label: str
    options: list[str] = Field(default_factory=list)  # empty: free text


class Form(_Strict):
    id: str  # F-0001
    kind: Literal["questionnaire", "consent"]
    title: str
    text: str = ""  # a consent's terms
    questions: list[Question] = Field(default_factory=list)
    status: Literal["to do", "submitted", "signed"] = "to do"
    answers: dict[str, str] = Field(default_factory=dict)
    signature: str = ""


class HealthState(EnvState):
    profile: Profile
    coverages: list[Coverage] = Field(default_factory=list)
    providers: list[Provider] = Field(default_factory=list)
    slots: list[Slot] = Field(default_factory=list)
    appointments: list[Appointment] = Field(default_factory=list)
    messages: list[Message] = Field(default_factory=list)
    pharmacies: list[Pharmacy] = Field(default_factory=list)
    prescriptions: list[Prescription] = Field(default_factory=list)
    refills: list[Refill] = Field(default_factory=list)
    results: list[LabResult] = Field(default_factory=list)
    statements: list[Statement] = Field(default_factory=list)
    payments: list[Payment] = Field(default_factory=list)
    forms: list[Form] = Field(default_factory=list)
