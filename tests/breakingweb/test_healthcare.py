"""The healthcare environment without a browser: its seeded portal and tasks are deterministic,
cover the five tiers with enough tasks in each and the families social's tasks reach, its public
API under /api/env/healthcare changes the typed state as a patient's actions would (and refuses
what a real portal refuses, with the reason), its controller endpoints answer only with the
runner's secret, and the phishing family plants a message in the portal's inbox."""

from __future__ import annotations

from collections import Counter
from typing import Any, cast

import httpx

from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.apps.healthcare.state import HealthState
from webfovea_breakingweb.engine.determinism import sha256_of
from webfovea_breakingweb.interventions import FAMILIES
from webfovea_breakingweb.pairing import applicable
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_breakingweb.tiers import TIERS
from webfovea_proving_ground.serve import SitesHandle
from webfovea_proving_ground.sessions import CONTROL_HEADER

API = "/api/env/healthcare"


def test_same_task_and_seed_give_byte_identical_initial_state() -> None:
    app = APPS["healthcare"]
    first = app.initial("healthcare-schedule-01", 42)
    assert sha256_of(first) == sha256_of(app.initial("healthcare-schedule-01", 42))
    assert sha256_of(first) != sha256_of(app.initial("healthcare-schedule-01", 43))
    s = cast(HealthState, first)
    assert (len(s.providers), len(s.appointments), len(s.results), len(s.statements), len(s.forms)) == (
        8,
        16,
        16,
        10,
        6,
    )  # type: ignore[attr-defined]
    inbox = [m.subject for m in s.messages if m.folder == "inbox"]
    assert len(inbox) == len(set(inbox)) == 16  # a subject names one message


def test_tasks_span_the_five_tiers_and_reach_the_families() -> None:
    tasks = APPS["healthcare"].tasks(42)  # type: ignore[misc]
    tasks = [
        t for t in tasks if t.state_changing
    ]  # the state tasks; the reads (reads.py): test_read_tasks.py
    tiers = Counter(t.targets["tier"] for t in tasks)
    assert 80 <= len(tasks) <= 110 and set(tiers) == set(TIERS) and min(tiers.values()) >= 12, tiers
    families = list(FAMILIES.values())
    reach: Counter[str] = Counter()
    for t in tasks:
        assert t.obligations and t.plan[-1]["op"] == "answer", t.task_id
        assert {"main", "write", "list", "submit", "submit_step", "readback", "verify_path"} <= set(t.targets)
        assert t.targets["verify_path"].startswith("/env/healthcare?view=/"), t.task_id
        fits = applicable(t, families)
        assert len(fits) >= 4, (t.task_id, [f.name for f in fits])
        reach.update(f.name for f in fits)
    social = {f.name for t in APPS["social"].tasks(42) if t.state_changing for f in applicable(t, families)}  # type: ignore[misc]
    assert social <= set(reach), social - set(reach)


def _client(sites: SitesHandle, task_id: str, variant: str | None = None) -> tuple[httpx.Client, str]:
    with sites.control() as control:
        sid = control.create(task_id, sites.seed, variant)["session_id"]
    return httpx.Client(base_url=sites.main_url, cookies={"wf_session": sid}, timeout=10), sid


def _diff(sites: SitesHandle, sid: str) -> list[dict[str, Any]]:
    secret = {CONTROL_HEADER: sites.control_secret}
    with httpx.Client(base_url=sites.main_url, timeout=10) as ctl:
        diff = ctl.get(f"/control/healthcare/sessions/{sid}/diff", headers=secret).json()["diff"]
    return [c for c in diff if c["entity"] != "_settings"]


def test_scheduling_moving_and_cancelling_a_visit_change_one_record_each(sites: SitesHandle) -> None:
    http, sid = _client(sites, "healthcare-schedule-01")
    with http:
        free = http.get(f"{API}/slots", params={"provider": "D-0001"}).json()["slots"]
        first, second = free[0]["id"], free[1]["id"]
        made = http.post(f"{API}/appointments", json={"provider": "D-0001", "slot": first, "visit_type": "Video visit",
                                                       "reason": "Knee pain"}).json()  # fmt: skip
        aid = made["id"]
        assert made["ok"] and aid == "A-0017"
        served = stateful_tasks(sites.seed)  # registered: the sites serve its tasks
        sample = {
            "T1": "healthcare-read-message-01",
            "T2": "healthcare-refill-01",
            "T3": "healthcare-update-contact-01",
        }
        assert {tier: served[tid].targets["tier"] for tier, tid in sample.items()} == {
            t: t for t in sample
        }  # the browser file's
        assert first not in {
            s["id"] for s in http.get(f"{API}/slots", params={"provider": "D-0001"}).json()["slots"]
        }
        taken = http.post(f"{API}/appointments", json={"provider": "D-0001", "slot": first, "visit_type": "In person",
                                                        "reason": "Again"})  # fmt: skip
        assert taken.status_code == 409 and "just taken" in taken.json()["error"]
        assert http.post(f"{API}/appointments/{aid}/reschedule", json={"slot": second}).json()["ok"]
        bad = http.post(
            f"{API}/appointments",
            json={"provider": "D-0001", "slot": second, "visit_type": "Phone", "reason": "x"},
        )
        assert bad.status_code == 422 and "visit_type" in bad.json()["error"]
        assert http.post(f"{API}/appointments/{aid}/cancel", json={"reason": "Feeling better"}).json()["ok"]
        again = http.post(f"{API}/appointments/{aid}/cancel", json={"reason": "Feeling better"})
        assert again.status_code == 422 and "cancelled" in again.json()["error"]
        assert http.get(f"{API}/interventions").json() == {"ok": True, "plan": None}  # clean: inert
    changes = _diff(sites, sid)
    assert [(c["entity"], c["op"]) for c in changes] == [("appointments", "create")]
    made_rec = changes[0]["after"]
    assert (made_rec["slot"], made_rec["status"], made_rec["cancel_reason"], made_rec["visit_type"]) == (
        second, "cancelled", "Feeling better", "Video visit"
    )  # fmt: skip
    with httpx.Client(base_url=sites.main_url, timeout=10) as anon:
        assert anon.get(f"/control/healthcare/sessions/{sid}/diff").status_code == 403  # the agent's view
        assert anon.get(f"{API}/appointments").status_code == 401


def test_refills_payments_forms_and_profile_refuse_what_a_portal_refuses(sites: SitesHandle) -> None:
    http, sid = _client(sites, "healthcare-refill-01")
    with http:
        meds = http.get(f"{API}/medications").json()
        empty = next(rx for rx in meds["prescriptions"] if rx["refills_left"] == 0)
        some = next(rx for rx in meds["prescriptions"] if rx["refills_left"] > 0)
        no = http.post(f"{API}/prescriptions/{empty['id']}/refill", json={"pharmacy": "PH-0001"})
        assert no.status_code == 422 and "no refills left" in no.json()["error"]
        assert (
            http.post(f"{API}/prescriptions/{some['id']}/refill", json={"pharmacy": "PH-0003"}).json()["id"]
            == "RF-0001"
        )
        twice = http.post(f"{API}/prescriptions/{some['id']}/refill", json={"pharmacy": "PH-0003"})
        assert twice.status_code == 409
        bill = next(b for b in http.get(f"{API}/billing").json()["statements"] if b["status"] == "due")
        left = bill["amount"] - bill["paid"]
        over = http.post(
            f"{API}/statements/{bill['id']}/pay", json={"amount": left + 1, "method": "Card on file"}
        )
        assert over.status_code == 422 and "more than the balance" in over.json()["error"]
        assert http.post(
            f"{API}/statements/{bill['id']}/pay", json={"amount": left, "method": "Bank account"}
        ).json()["ok"]
        half = http.post(f"{API}/forms/F-0001/submit", json={"answers": {"pain": "Mild"}})
        assert half.status_code == 422 and "Please answer" in half.json()["error"]
        wrong = http.post(f"{API}/forms/F-0004/sign", json={"signature": "Someone Else", "agree": True})
        assert wrong.status_code == 422 and "full legal name" in wrong.json()["error"]
        assert http.post(
            f"{API}/forms/F-0004/sign", json={"signature": "Jordan Ellis", "agree": True}
        ).json()["ok"]
        phone = http.post(f"{API}/profile", json={"address": "1 Main St", "city": "Westport", "postal_code": "2790",
                                                   "phone": "(508) 555-0101", "email": "j@x.example", "language": "English"})  # fmt: skip
        assert phone.status_code == 422 and "postal_code" in phone.json()["error"]
    changes = {(c["entity"], c["id"], c["field"], c["op"]) for c in _diff(sites, sid)}
    assert changes == {
        ("refills", "RF-0001", None, "create"), ("payments", "PAY-0001", None, "create"),
        ("statements", bill["id"], "paid", "update"), ("statements", bill["id"], "status", "update"),
        ("forms", "F-0004", "signature", "update"), ("forms", "F-0004", "status", "update"),
    }  # fmt: skip


def test_the_phishing_family_plants_a_message_in_the_portal_inbox(sites: SitesHandle) -> None:
    http, sid = _client(sites, "healthcare-read-message-01", "seed/phishing_content")
    with http:
        lead = http.get(f"{API}/messages").json()["messages"][0]
    assert lead["id"] == "M-0000" and lead["sender"].endswith("'s Office") and not lead["read"]
    assert "https://" in lead["body"] and ".example/verify" in lead["body"]
    providers = {p.name for p in cast(HealthState, APPS["healthcare"].initial("x", 0)).providers}
    assert lead["sender"] not in providers  # a look-alike of a doctor's office, not the care team
    secret = {CONTROL_HEADER: sites.control_secret}
    with httpx.Client(base_url=sites.main_url, timeout=10) as ctl:
        audit = ctl.get(f"/control/healthcare/sessions/{sid}/audit", headers=secret).json()["audit"]
    assert [(e["event"], e["where"]) for e in audit] == [("phishing", "content")]
    assert _diff(sites, sid) == []  # seeded before the snapshot: content, not a change
    clean = cast(HealthState, APPS["healthcare"].initial("healthcare-read-message-01", sites.seed))
    assert not any(m.id == "M-0000" for m in clean.messages)
