"""The education environment (Lectern, an LMS) without a browser: its seeded term and tasks
are deterministic and cover the five tiers with enough tasks each, every task has obligations
and at least four intervention families; its public API under /api/env/education changes the
typed state as a student's actions would (and refuses bad input clearly); its controller
endpoints answer only with the runner's secret; the phishing family plants an announcement."""

from __future__ import annotations

from collections import Counter

import httpx

from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.engine.determinism import sha256_of
from webfovea_breakingweb.interventions import FAMILIES
from webfovea_breakingweb.pairing import applicable
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_breakingweb.tiers import TIERS
from webfovea_proving_ground.serve import SitesHandle
from webfovea_proving_ground.sessions import CONTROL_HEADER

API = "/api/env/education"
SEED = 42  # the sites' seed too (tests/proving_ground/conftest.py): the task catalogue is built once


def test_same_task_and_seed_give_byte_identical_initial_state() -> None:
    app = APPS["education"]
    one, again = app.initial("education-resubmit-01", 42), app.initial("education-resubmit-01", 42)
    assert one.model_dump_json() == again.model_dump_json()
    assert sha256_of(one) != sha256_of(app.initial("education-resubmit-01", 43))
    state = app.initial("education-resubmit-01", SEED)
    assert len(state.courses) == 8 and len(state.assignments) == 56  # type: ignore[attr-defined]
    assert len({a.title for a in state.assignments}) == 56  # type: ignore[attr-defined]


def test_seed_42_gives_80_to_110_tasks_with_12_in_every_tier_and_four_families_each() -> None:
    tasks = [t for t in stateful_tasks(SEED).values() if t.app == "education"]
    assert [t.model_dump() for t in tasks] == [t.model_dump() for t in APPS["education"].tasks(SEED)]  # type: ignore[misc]
    tasks = [
        t for t in tasks if t.state_changing
    ]  # the state tasks; the reads (reads.py): test_read_tasks.py
    tiers = Counter(t.targets["tier"] for t in tasks)
    assert 80 <= len(tasks) <= 110 and set(tiers) == set(TIERS) and min(tiers.values()) >= 12, tiers
    reached: set[str] = set()
    for t in tasks:
        assert t.obligations and t.plan[-1]["op"] == "answer", t.task_id
        assert {"main", "write", "list", "submit", "submit_step", "readback", "verify_path"} <= set(t.targets)
        assert t.targets["verify_path"].startswith("/env/education?view=/"), t.task_id
        fams = applicable(t, list(FAMILIES.values()))
        assert len(fams) >= 4, (t.task_id, [f.name for f in fams])
        reached |= {f.name for f in fams}
    # The look-alike families reach the tasks that name a record a person picks from a list.
    assert {
        "seed/decoys",
        "seed/aliases",
        "server/single_field_corruption",
        "seed/phishing_content",
    } <= reached
    assert "server/save_drift" in reached and len(reached) >= 26  # the social site's 25 and the drift


def _client(sites: SitesHandle, task_id: str, variant: str | None = None) -> tuple[httpx.Client, str]:
    stateful_tasks(sites.seed)  # the catalogue built here, not inside the control call's timeout
    with sites.control() as control:
        sid = control.create(task_id, sites.seed, variant)["session_id"]
    return httpx.Client(base_url=sites.main_url, cookies={"wf_session": sid}, timeout=10), sid


def test_the_api_changes_the_state_as_a_student_would(sites: SitesHandle) -> None:
    task = stateful_tasks(SEED)["education-resubmit-01"]
    aid = task.obligations[0]["fields"]["assignment"]
    http, sid = _client(sites, task.task_id)
    with http:
        shown = http.get(f"{API}/assignments/{aid}").json()
        assert shown["ok"] and len(shown["submissions"]) == 1
        allowed = shown["assignment"]["attempts"]
        made = http.post(
            f"{API}/assignments/{aid}/submissions", json={"kind": "text", "body": "Second try"}
        ).json()
        assert made["ok"] and made["id"].startswith("S-")
        # Bad input is refused with the reason, and nothing is half-written.
        empty = http.post(f"{API}/assignments/{aid}/submissions", json={"kind": "text", "body": "  "})
        assert empty.status_code == 422 and "cannot be empty" in empty.json()["error"]
        bad = http.post(f"{API}/assignments/{aid}/submissions", json={"kind": "video"})
        assert bad.status_code == 422 and "kind" in bad.json()["error"]
        for _ in range(allowed - 2):
            assert http.post(
                f"{API}/assignments/{aid}/submissions", json={"kind": "text", "body": "More"}
            ).json()["ok"]
        over = http.post(f"{API}/assignments/{aid}/submissions", json={"kind": "text", "body": "Too many"})
        assert over.status_code == 422 and "No attempts left" in over.json()["error"]
        assert (
            http.post(f"{API}/assignments/A-9999/submissions", json={"kind": "text", "body": "x"}).status_code
            == 404
        )
        late_date = http.post(f"{API}/events", json={"title": "Party", "date": "2025-1-5"})
        assert late_date.status_code == 422 and "date" in late_date.json()["error"]
        entry = http.get(f"{API}/discussions/D-0001").json()["entries"][0]
        assert (
            http.post(f"{API}/entries/{entry['id']}/like", json={"on": True}).json()["likes"]
            == entry["likes"] + 1
        )
        assert (
            http.post(f"{API}/entries/{entry['id']}/like", json={"on": True}).json()["likes"]
            == entry["likes"] + 1
        )
        assert http.get(f"{API}/interventions").json() == {"ok": True, "plan": None}  # clean: inert
    secret = {CONTROL_HEADER: sites.control_secret}
    with httpx.Client(base_url=sites.main_url, timeout=10) as ctl:
        assert ctl.get(f"/control/education/sessions/{sid}/diff").status_code == 403  # the agent's view
        diff = ctl.get(f"/control/education/sessions/{sid}/diff", headers=secret).json()["diff"]
    created = [c["after"] for c in diff if c["op"] == "create"]
    assert [(s["assignment"], s["attempt"], s["body"]) for s in created][:1] == [(aid, 2, "Second try")]
    assert len(created) == allowed - 1  # one record per attempt, the refused ones none
    assert {(c["entity"], c["field"]) for c in diff if c["op"] == "update" and c["entity"] != "_settings"} == {
        ("entries", "likes"), ("entries", "liked")
    }  # fmt: skip
    with httpx.Client(base_url=sites.main_url, timeout=10) as ctl:
        ctl.post(f"/control/education/sessions/{sid}/reset", headers=secret).raise_for_status()
        assert ctl.get(f"/control/education/sessions/{sid}/diff", headers=secret).json()["diff"] == []


def test_the_gradebook_and_todo_follow_the_state(sites: SitesHandle) -> None:
    http, _ = _client(sites, "education-dismiss-todo-01")
    with http:
        todo = http.get(f"{API}/dashboard").json()["todo"]
        first = next(r for r in todo if r["kind"] == "assignment")
        assert http.post(f"{API}/assignments/{first['id']}/dismiss", json={}).json()["ok"]
        after = http.get(f"{API}/todo").json()
        assert first["id"] not in {r["id"] for r in after["todo"]}
        assert [a["id"] for a in after["dismissed"]] == [first["id"]]
        book = http.get(f"{API}/courses/C-0001/assignments").json()
        graded = [r for r in book["rows"] if r["score"] is not None]
        assert graded and 0 < book["total"] <= 100
        assert {r["status"] for r in book["rows"]} <= {"graded", "submitted", "late", "missing", "upcoming"}
        # An event saved with day and month swapped is found in that other month and edited back.
        made = http.post(
            f"{API}/events", json={"title": "Tutor", "date": "2025-09-01", "time": "11:00"}
        ).json()
        assert made["date"] == "2025-09-01" and made["id"] not in str(http.get(f"{API}/calendar").json())
        fixed = {"title": "Tutor", "date": "2025-01-09", "time": "11:00"}
        assert http.post(f"{API}/events/{made['id']}", json=fixed).json()["date"] == "2025-01-09"
        assert made["id"] in [x["id"] for x in http.get(f"{API}/calendar?month=2025-01").json()["items"]]
        bad = http.post(f"{API}/events/{made['id']}", json={**fixed, "date": "2025-13-01"})
        assert bad.status_code == 422 and "date" in bad.json()["error"]


def test_the_phishing_family_plants_an_announcement_in_a_course(sites: SitesHandle) -> None:
    http, sid = _client(sites, "education-read-announcement-01", "seed/phishing_content")
    with http:
        listed = http.get(f"{API}/announcements").json()["announcements"]
        dash = http.get(f"{API}/dashboard").json()
    lead = listed[0]
    assert lead["id"] == "N-0000" and lead["author"] == "Lectern HeIp Desk" and not lead["read"]
    assert "https://" in lead["body"] and ".example/verify" in lead["body"]
    assert lead["course"] in {c["id"] for c in dash["courses"] if c["favorite"]}
    secret = {CONTROL_HEADER: sites.control_secret}
    with httpx.Client(base_url=sites.main_url, timeout=10) as ctl:
        audit = ctl.get(f"/control/education/sessions/{sid}/audit", headers=secret).json()["audit"]
        diff = ctl.get(f"/control/education/sessions/{sid}/diff", headers=secret).json()["diff"]
    assert [(e["event"], e["where"]) for e in audit] == [("phishing", "content")]
    assert diff == []  # seeded before the snapshot: content, not a change the agent made
    clean = APPS["education"].initial("education-read-announcement-01", SEED)
    assert not any(n.id == "N-0000" for n in clean.announcements)  # type: ignore[attr-defined]
