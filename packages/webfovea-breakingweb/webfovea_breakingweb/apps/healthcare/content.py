"""The patient portal a seed starts with: 8 providers and their open slots over the three weeks
after the sites' epoch, 16 appointments (6 past, 10 upcoming), 20 messages, 8 prescriptions at 5
pharmacies, 16 lab results (8 tests, each twice), 10 billing statements and 6 forms.

Deterministic by the generator the engine hands over (`rng("app:healthcare", seed, None,
"content")`, engine/spec.py `AppSpec.initial`), so the task generator reads exactly the content
the server serves. Every name a task quotes is unique where it must be: message subjects in the
inbox, a test with its collection date, a statement by its date and description.
"""

from __future__ import annotations

import random

from webfovea_breakingweb.apps.healthcare.state import (
    Appointment,
    Component,
    Coverage,
    Form,
    HealthState,
    LabResult,
    Message,
    Pharmacy,
    Prescription,
    Profile,
    Provider,
    Question,
    Slot,
    Statement,
)
from webfovea_breakingweb.engine.determinism import stamp

ME = "Jordan Ellis"
PROVIDERS = (
    ("Dr. Ada Berg", "Family Medicine", "Northside Clinic"),
    ("Dr. Tomas Reyes", "Cardiology", "Heart Center, 2nd floor"),
    ("Dr. Mei Okafor", "Endocrinology", "Northside Clinic"),
    ("Dr. Jonas Whitfield", "Dermatology", "Harbor Street Office"),
    ("Dr. Priya Natarajan", "Gastroenterology", "Main Hospital, 4th floor"),
    ("Dr. Samuel Osei", "Orthopedics", "Sports Medicine Center"),
    ("Dr. Clara Lindqvist", "Allergy and Immunology", "Harbor Street Office"),
    ("Dr. Hannah Brooks", "Physical Therapy", "Sports Medicine Center"),
)
PHARMACIES = (
    ("Corner Drug", "18 Elm Street, Fairhaven"),
    ("Riverside Pharmacy", "240 River Road, Fairhaven"),
    ("HealthMart on 5th", "5th Avenue and Pine, New Bedford"),
    ("Greenway Pharmacy", "77 Greenway Plaza, Dartmouth"),
    ("Meadowcare Outpatient Pharmacy", "Main Hospital, ground floor"),
)
DRUGS = (
    ("Lisinopril 10 mg tablet", "Take 1 tablet by mouth once daily."),
    ("Atorvastatin 20 mg tablet", "Take 1 tablet by mouth at bedtime."),
    ("Metformin 500 mg tablet", "Take 1 tablet by mouth twice daily with meals."),
    ("Levothyroxine 50 mcg tablet", "Take 1 tablet by mouth every morning before breakfast."),
    ("Sertraline 50 mg tablet", "Take 1 tablet by mouth once daily."),
    ("Albuterol 90 mcg inhaler", "Inhale 2 puffs every 4 to 6 hours as needed for wheezing."),
    ("Omeprazole 20 mg capsule", "Take 1 capsule by mouth before breakfast."),
    ("Cetirizine 10 mg tablet", "Take 1 tablet by mouth once daily as needed for allergies."),
)
# test: (component, unit, low, high); values are drawn around the range, some outside it.
TESTS = {
    "Lipid panel": (("Total cholesterol", "mg/dL", 125, 200), ("LDL cholesterol", "mg/dL", 0, 100),
                    ("HDL cholesterol", "mg/dL", 40, 90), ("Triglycerides", "mg/dL", 0, 150)),
    "Comprehensive metabolic panel": (("Glucose", "mg/dL", 70, 99), ("Sodium", "mmol/L", 135, 145),
                                      ("Potassium", "mmol/L", 3.5, 5.1), ("Creatinine", "mg/dL", 0.6, 1.3)),
    "Complete blood count": (("White blood cells", "K/uL", 4.0, 11.0), ("Hemoglobin", "g/dL", 13.5, 17.5),
                             ("Platelets", "K/uL", 150, 400)),
    "Hemoglobin A1c": (("Hemoglobin A1c", "%", 4.0, 5.6),),
    "Thyroid stimulating hormone": (("TSH", "mIU/L", 0.4, 4.0),),
    "Vitamin D, 25-hydroxy": (("Vitamin D", "ng/mL", 30, 100),),
    "Iron studies": (("Iron", "ug/dL", 60, 170), ("Ferritin", "ng/mL", 30, 400)),
    "Urinalysis": (("Specific gravity", "", 1.005, 1.030), ("pH", "", 4.5, 8.0)),
}  # fmt: skip
SUBJECTS = (
    "Your recent visit summary", "Test results are available", "Follow-up on your blood pressure",
    "Flu shot reminder", "Question about your medication", "Referral to a specialist",
    "Please complete your questionnaire", "Updated care plan", "Your prescription was sent",
    "Physical therapy exercises", "Allergy season tips", "Upcoming appointment instructions",
    "Insurance information needed", "Your skin check results", "Diet and exercise resources",
    "Sleep study scheduling",
)  # fmt: skip
BODIES = (
    "Please let us know if you have any questions.", "Reply to this message if anything changes before then.",
    "You can find the details in the portal under Test Results.", "Call the clinic if your symptoms get worse.",
)  # fmt: skip
SERVICES = ("Office visit", "Lab services", "X-ray, two views", "Specialist consultation", "Video visit",
            "Physical therapy session", "Allergy testing", "Skin biopsy", "Ultrasound", "Vaccination")  # fmt: skip
QUESTIONNAIRES = (
    ("Pre-visit health questionnaire", (
        ("pain", "How would you rate your pain today?", ["None", "Mild", "Moderate", "Severe"]),
        ("smoking", "Do you smoke?", ["Never", "Former smoker", "Current smoker"]),
        ("exercise", "How often do you exercise?", ["Rarely", "1-2 times a week", "3 or more times a week"]),
        ("concerns", "What would you like to discuss at your visit?", []),
    )),
    ("Sleep habits questionnaire", (
        ("hours", "How many hours do you sleep on a typical night?", ["Less than 5", "5 to 7", "More than 7"]),
        ("snoring", "Has anyone told you that you snore?", ["No", "Yes", "Not sure"]),
        ("rested", "Do you wake up feeling rested?", ["Usually", "Sometimes", "Rarely"]),
        ("notes", "Anything else about your sleep?", []),
    )),
    ("Allergy history questionnaire", (
        ("season", "When are your symptoms worst?", ["Spring", "Summer", "Autumn", "All year"]),
        ("pets", "Do you have pets at home?", ["No", "Cats", "Dogs", "Other"]),
        ("medicine", "Do allergy medicines help?", ["Yes", "A little", "No"]),
        ("reactions", "Describe any reactions to food or medicine.", []),
    )),
)  # fmt: skip
CONSENTS = (
    ("Telehealth consent", "I agree to receive care by video visit and understand its limits."),
    ("Financial responsibility agreement", "I agree to pay the amounts my insurance does not cover."),
    ("Notice of privacy practices acknowledgement", "I have received the notice of privacy practices."),
)
SLOTS_PER_PROVIDER = 14


def _slot_time(r: random.Random) -> int:
    """Minutes after the epoch (a Monday, 09:00) of a weekday slot in the next three weeks."""
    day = r.choice([d for d in range(1, 22) if d % 7 not in (5, 6)])
    return day * 24 * 60 + r.randint(0, 14) * 30


def build(r: random.Random, seed: int) -> HealthState:
    del seed
    state = HealthState(
        profile=Profile(name=ME, birth_date="1984-03-12", address="42 Alder Lane", city="Fairhaven",
                        postal_code="02719", phone="(508) 555-0142", email="jordan.ellis@mailbox.example",
                        pharmacy="PH-0002"),
        coverages=[Coverage(id="I-0001", carrier="Bluepoint Health", member_id=f"BPH{r.randint(100000, 999999)}",
                            group_number=f"G-{r.randint(1000, 9999)}", effective="2023-07-01", subscriber=ME)],
    )  # fmt: skip
    for i, (name, spec, loc) in enumerate(PROVIDERS, start=1):
        state.providers.append(Provider(id=f"D-{i:04d}", name=name, specialty=spec, location=loc))
    for i, (name, addr) in enumerate(PHARMACIES, start=1):
        state.pharmacies.append(Pharmacy(id=f"PH-{i:04d}", name=name, address=addr))
    slots: list[tuple[str, int]] = []
    for p in state.providers:
        times = sorted({_slot_time(r) for _ in range(SLOTS_PER_PROVIDER * 2)})[:SLOTS_PER_PROVIDER]
        slots += [(p.id, t) for t in times]
    slots.sort(key=lambda s: (s[0], s[1]))
    state.slots = [Slot(id=f"S-{i:04d}", provider=p, start=stamp(t)) for i, (p, t) in enumerate(slots, 1)]
    _appointments(state, r)
    _messages(state, r)
    for i, (drug, how) in enumerate(DRUGS, start=1):
        state.prescriptions.append(
            Prescription(id=f"RX-{i:04d}", drug=drug, directions=how, prescriber=r.choice(state.providers[:3]).id,
                         refills_left=0 if i in (3, 7) else r.randint(1, 5), last_filled=stamp(-r.randint(10, 80) * 1440)[:10])
        )  # fmt: skip
    _results(state, r)
    _billing(state, r)
    _forms(state)
    state.counter = len(state.appointments) + len(state.messages)
    # The legend seed/split_information shows when the pages name providers by code only.
    state.units = [{"id": p.id, "name": p.name} for p in state.providers]
    return state


def _appointments(state: HealthState, r: random.Random) -> None:
    past = [
        (r.choice(state.providers).id, -r.randint(3, 120) * 1440 + r.randint(0, 14) * 30) for _ in range(6)
    ]
    held: list[tuple[str, int, str]] = [(p, t, "") for p, t in past]
    providers = r.sample([p.id for p in state.providers], 8) + r.sample([p.id for p in state.providers], 2)
    for pid in providers:
        free = [s for s in state.slots if s.provider == pid and s.id not in {h[2] for h in held}]
        s = r.choice(free)
        held.append((pid, 0, s.id))
    reasons = ("Annual physical", "Follow-up", "Medication review", "Rash on forearm", "Knee pain",
               "Blood pressure check", "Seasonal allergies", "Lab review")  # fmt: skip
    rows = []
    for pid, t, sid in held:
        start = next(s.start for s in state.slots if s.id == sid) if sid else stamp(t)
        rows.append((start, pid, sid))
    rows.sort()
    for i, (start, pid, sid) in enumerate(rows, start=1):
        state.appointments.append(
            Appointment(id=f"A-{i:04d}", provider=pid, slot=sid, start=start, reason=r.choice(reasons),
                        visit_type="Video visit" if r.random() < 0.3 else "In person",
                        status="scheduled" if sid else "completed", confirmed=bool(sid) and r.random() < 0.2)
        )  # fmt: skip


def _messages(state: HealthState, r: random.Random) -> None:
    subjects = list(SUBJECTS)
    r.shuffle(subjects)
    for i, subject in enumerate(subjects, start=1):
        doc = r.choice(state.providers)
        state.messages.append(
            Message(id=f"M-{i:04d}", folder="inbox", sender=doc.name, recipient=ME, subject=subject,
                    body=f"Hello {ME.split()[0]}, {subject.lower()}. {r.choice(BODIES)} — {doc.name}, {doc.specialty}",
                    created=stamp(-(40 - i) * 600), read=r.random() < 0.4)
        )  # fmt: skip
    for j, topic in enumerate(("Refill question", "Rescheduling", "Thank you", "Side effects"), start=17):
        doc = r.choice(state.providers)
        state.messages.append(
            Message(id=f"M-{j:04d}", folder="sent", sender=ME, recipient=doc.name, subject=topic,
                    body=f"Hello {doc.name}, a short note about: {topic.lower()}.", created=stamp(-(40 - j) * 590), read=True)
        )  # fmt: skip


def _results(state: HealthState, r: random.Random) -> None:
    rows = []
    for test, comps in TESTS.items():
        for days in sorted(r.sample(range(5, 300), 2)):
            made = []
            for name, unit, low, high in comps:
                span = high - low or high
                value = round(r.uniform(low - span * 0.25, high + span * 0.2), 1 if high < 20 else 0)
                made.append(Component(name=name, value=max(value, 0), unit=unit, low=low, high=high))
            rows.append((stamp(-days * 1440)[:10], test, made, days))
    rows.sort(key=lambda x: (x[0], x[1]))
    newest = {t: max(x[0] for x in rows if x[1] == t) for t in TESTS}
    for i, (day, test, comps, _) in enumerate(rows, start=1):
        state.results.append(
            LabResult(id=f"L-{i:04d}", test=test, ordered_by=r.choice(state.providers[:3]).id, collected=day,
                      components=comps, viewed=day != newest[test] and r.random() < 0.8)
        )  # fmt: skip


def _billing(state: HealthState, r: random.Random) -> None:
    for i, service in enumerate(r.sample(SERVICES, 10), start=1):
        amount = r.randint(40, 480) * 100 + r.choice((0, 25, 50, 75))
        paid = amount if i in (2, 6) else (r.randint(1, 4) * 1000 if r.random() < 0.3 else 0)
        state.statements.append(
            Statement(id=f"B-{i:04d}", date=stamp(-(100 - i * 9) * 1440)[:10], description=service, amount=amount,
                      paid=paid, status="paid" if paid == amount else "due")
        )  # fmt: skip


def _forms(state: HealthState) -> None:
    n = 0
    for title, questions in QUESTIONNAIRES:
        n += 1
        qs = [Question(key=k, label=label, options=list(opts)) for k, label, opts in questions]
        state.forms.append(Form(id=f"F-{n:04d}", kind="questionnaire", title=title, questions=qs))
    for title, text in CONSENTS:
        n += 1
        state.forms.append(Form(id=f"F-{n:04d}", kind="consent", title=title, text=text))
