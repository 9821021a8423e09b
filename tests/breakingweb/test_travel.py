"""The travel environment without a browser: its seeded stays and tasks are deterministic and
cover the five tiers (at least 12 tasks in each at seed 42, every task with four or more
families), its public API under /api/env/travel changes the typed state as a traveller's actions
would (and refuses bad input clearly), its controller endpoints under /control/travel answer
only with the runner's secret, and the phishing family plants a message in the inbox."""

from __future__ import annotations

from collections import Counter

import httpx
import pytest

from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.engine.determinism import sha256_of
from webfovea_breakingweb.interventions import FAMILIES
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.pairing import applicable
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_breakingweb.tiers import TIERS
from webfovea_proving_ground.serve import SitesHandle
from webfovea_proving_ground.sessions import CONTROL_HEADER

API = "/api/env/travel"
# The browser tests' oracle sample (seed 0): one task per tier T1-T3.
TIER_SAMPLE = {"T1": "travel-save-featured-01", "T2": "travel-search-save-01", "T3": "travel-change-01"}


def test_same_task_and_seed_give_byte_identical_initial_state() -> None:
    app = APPS["travel"]
    assert sha256_of(app.initial("travel-book-01", 42)) == sha256_of(app.initial("travel-book-01", 42))
    assert sha256_of(app.initial("travel-book-01", 42)) != sha256_of(app.initial("travel-book-01", 43))
    state = app.initial("travel-book-01", 0)
    names = [p.name for p in state.properties]  # type: ignore[attr-defined]
    assert len(names) == 60 and len(set(names)) == 60 and len({p.city for p in state.properties}) == 6  # type: ignore[attr-defined]
    statuses = Counter(b.status for b in state.bookings)  # type: ignore[attr-defined]
    assert statuses == {"completed": 5, "confirmed": 5, "cancelled": 2}


def test_seed_42_gives_80_to_110_tasks_in_five_tiers_each_with_four_families() -> None:
    tasks = APPS["travel"].tasks(42)  # type: ignore[misc]
    tasks = [
        t for t in tasks if t.state_changing
    ]  # the state tasks; the reads (reads.py): test_read_tasks.py
    assert 80 <= len(tasks) <= 110
    tiers = Counter(t.targets["tier"] for t in tasks)
    assert set(tiers) == set(TIERS) and min(tiers.values()) >= 12, tiers
    reach: Counter[str] = Counter()
    for t in tasks:
        fits = applicable(t, list(FAMILIES.values()))
        assert len(fits) >= 4, (t.task_id, [f.name for f in fits])
        reach.update(f.name for f in fits)
        assert t.obligations and t.plan[-1]["op"] == "answer", t.task_id
        assert t.targets["verify_path"].startswith("/env/travel?view=/"), t.task_id
    # As many families as the social site reaches: the seed's look-alikes and the forms' too.
    wanted = {
        "seed/decoys",
        "seed/aliases",
        "server/single_field_corruption",
        "client/label_shift",
        "server/save_drift",
    }
    assert wanted <= set(reach) and len(reach) >= 26


def test_the_browser_tests_sample_is_one_task_per_tier() -> None:
    tasks = {t.task_id: t for t in APPS["travel"].tasks(0)}  # type: ignore[misc]
    assert {tier: tasks[tid].targets["tier"] for tier, tid in TIER_SAMPLE.items()} == {
        t: t for t in TIER_SAMPLE
    }


def test_obligations_give_partial_credit_and_invariants_catch_a_stray_change() -> None:
    task = next(t for t in APPS["travel"].tasks(42) if t.task_id == "travel-replace-trip-01")  # type: ignore[misc]
    cancel, book, message = task.obligations
    diff = [
        {"entity": "bookings", "id": cancel["id"], "op": "update", "field": k, "before": None, "after": v}
        for k, v in cancel["fields"].items()
    ]
    diff.append({"entity": "bookings", "id": "BK-0013", "op": "create", "field": None, "before": None,
                 "after": {**book["fields"], "id": "BK-0013"}})  # fmt: skip
    partial = score_state(diff, task.obligations, task.noise)
    assert (
        partial.score == round(2 / 3, 4)
        and not partial.passed
        and partial.obligations_met == [True, True, False]
    )
    stray = {
        "entity": "properties",
        "id": "H-0001",
        "op": "update",
        "field": "saved",
        "before": False,
        "after": True,
    }
    done = [*diff, {"entity": "messages", "id": "M-0011", "op": "create", "field": None, "before": None,
                    "after": {**message["fields"], "id": "M-0011"}}]  # fmt: skip
    assert score_state(done, task.obligations, task.noise).passed
    spoiled = score_state([*done, stray], task.obligations, task.noise)
    assert not spoiled.passed and spoiled.score == 1.0 and spoiled.invariants_broken == [stray]


def _client(sites: SitesHandle, task_id: str, variant: str | None = None) -> tuple[httpx.Client, str]:
    stateful_tasks(
        sites.seed
    )  # built here first: under load, building it inside the create outlasts its timeout
    with sites.control() as control:
        sid = control.create(task_id, sites.seed, variant)["session_id"]
    return httpx.Client(base_url=sites.main_url, cookies={"wf_session": sid}, timeout=10), sid


def test_the_api_searches_books_changes_and_cancels_as_a_traveller_would(sites: SitesHandle) -> None:
    http, sid = _client(sites, "travel-book-01")
    with http:
        found = http.get(f"{API}/search", params={"dest": "Lisbon", "checkin": "2025-03-03", "checkout": "2025-03-06",
                                                  "guests": "2", "sort": "price"}).json()  # fmt: skip
        prices = [x["price"] for x in found["results"]]
        assert found["ok"] and found["nights"] == 3 and prices == sorted(prices) and found["total"] >= 1
        picky = http.get(
            f"{API}/search", params={"dest": "Lisbon", "free_cancel": "1", "min_rating": "8"}
        ).json()
        assert all(x["free_cancellation"] and x["rating"] >= 8 for x in picky["results"])
        hid = found["results"][0]["id"]
        rooms = http.get(
            f"{API}/properties/{hid}", params={"checkin": "2025-03-03", "checkout": "2025-03-06"}
        ).json()["rooms"]
        room = next(r for r in rooms if r["fits"])
        sent = {"room": room["id"], "check_in": "2025-03-03", "check_out": "2025-03-06", "guests": 2, "rooms": 1,
                "guest_name": "Mira Holt", "guest_email": "mira.holt@example.com"}  # fmt: skip
        made = http.post(f"{API}/bookings", json=sent).json()
        assert made["ok"] and made["id"] == "BK-0013"
        # Its units are taken: booking them all again on overlapping dates is refused.
        for _ in range(room["units"] - 1):
            assert http.post(f"{API}/bookings", json=sent).json()["ok"]
        full = http.post(
            f"{API}/bookings", json={**sent, "check_in": "2025-03-05", "check_out": "2025-03-08"}
        )
        assert full.status_code == 422 and "not available" in full.json()["error"]
        changed = http.post(
            f"{API}/bookings/BK-0013/modify",
            json={"check_in": "2025-03-10", "check_out": "2025-03-12", "guests": 2},
        )
        assert (
            changed.json()["ok"]
            and http.get(f"{API}/bookings/BK-0013").json()["booking"]["total"] == room["price"] * 2
        )
        # Bad input is refused with the reason, and nothing is half-written.
        back = http.post(
            f"{API}/bookings", json={**sent, "check_in": "2025-03-06", "check_out": "2025-03-03"}
        )
        assert back.status_code == 422 and "nights after check-in" in back.json()["error"]
        past = http.post(
            f"{API}/bookings", json={**sent, "check_in": "2024-12-01", "check_out": "2024-12-03"}
        )
        assert past.status_code == 422 and "in the past" in past.json()["error"]
        assert http.post(f"{API}/bookings", json={**sent, "guest_email": "nobody"}).status_code == 422
        assert http.get(f"{API}/search", params={"dest": "Lisbon", "sort": "cheap"}).status_code == 422
        no_reason = http.post(f"{API}/bookings/BK-0013/cancel", json={"reason": "because"})
        assert no_reason.status_code == 422 and "Change of plans" in no_reason.json()["error"]
        assert http.post(f"{API}/bookings/BK-0013/cancel", json={"reason": "Change of plans"}).json()["ok"]
        assert (
            http.post(f"{API}/bookings/BK-0001/cancel", json={"reason": "Change of plans"}).status_code == 422
        )  # a past stay
        # A past stay is reviewed once; sending it again edits that review.
        first = http.post(
            f"{API}/bookings/BK-0001/review", json={"score": 7, "title": "Fine", "text": ""}
        ).json()
        again = http.post(
            f"{API}/bookings/BK-0001/review", json={"score": 9, "title": "Better", "text": "x"}
        ).json()
        assert (
            first["id"] == again["id"]
            and http.get(f"{API}/bookings/BK-0001").json()["booking"]["review"]["score"] == 9
        )
        assert (
            http.post(f"{API}/bookings/BK-0013/review", json={"score": 9, "title": "No"}).status_code == 422
        )
        assert http.get(f"{API}/interventions").json() == {"ok": True, "plan": None}  # clean: inert
    secret = {CONTROL_HEADER: sites.control_secret}
    with httpx.Client(base_url=sites.main_url, timeout=10) as ctl:
        assert ctl.get(f"/control/travel/sessions/{sid}/diff").status_code == 403  # the agent's view
        diff = ctl.get(f"/control/travel/sessions/{sid}/diff", headers=secret).json()["diff"]
    first = next(c["after"] for c in diff if c["op"] == "create" and c["id"] == "BK-0013")
    assert (first["guest_name"], first["check_in"], first["status"]) == (
        "Mira Holt",
        "2025-03-10",
        "cancelled",
    )
    assert {c["entity"] for c in diff if c["entity"] != "_settings"} == {"bookings", "reviews"}


def test_the_phishing_family_plants_a_message_in_the_inbox(sites: SitesHandle) -> None:
    http, sid = _client(sites, "travel-read-message-01", "seed/phishing_content")
    with http:
        inbox = http.get(f"{API}/messages").json()
    lead = inbox["messages"][0]
    assert lead["id"] == "M-0000" and not lead["read"] and lead["sender"].endswith("Reservations")
    assert "https://" in lead["body"] and "pay" in lead["body"] and lead["booking"]
    secret = {CONTROL_HEADER: sites.control_secret}
    with httpx.Client(base_url=sites.main_url, timeout=10) as ctl:
        audit = ctl.get(f"/control/travel/sessions/{sid}/audit", headers=secret).json()["audit"]
        diff = ctl.get(f"/control/travel/sessions/{sid}/diff", headers=secret).json()["diff"]
    assert [(e["event"], e["where"]) for e in audit] == [("phishing", "content")]
    assert diff == []  # seeded before the snapshot: content, not a change the agent made
    clean = APPS["travel"].initial("travel-read-message-01", 0)
    assert not any(m.id == "M-0000" for m in clean.messages)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "query", [{"dest": ""}, {"dest": "Porto", "checkin": "2025-02-01"}, {"dest": "Porto", "guests": "0"}]
)
def test_a_search_without_what_it_needs_is_refused_by_name(sites: SitesHandle, query: dict[str, str]) -> None:
    http, _ = _client(sites, "travel-book-01")
    with http:
        got = http.get(f"{API}/search", params=query)
    assert got.status_code == 422 and got.json()["error"]
