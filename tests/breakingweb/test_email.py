"""The email environment without a browser: its seeded mailbox and tasks are deterministic and
cover the five tiers (80-110 tasks at seed 42, at least 12 a tier, each with at least four
families), its public API under /api/env/email changes the typed state as a user's actions
would (and refuses bad input clearly), its controller endpoints under /control/email answer
only with the runner's secret, and the phishing family plants an email in the inbox."""

from __future__ import annotations

from collections import Counter

import httpx

from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.engine.determinism import sha256_of
from webfovea_breakingweb.interventions import FAMILIES
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.pairing import applicable
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_breakingweb.tiers import TIERS
from webfovea_proving_ground.serve import SitesHandle
from webfovea_proving_ground.sessions import CONTROL_HEADER

API = "/api/env/email"


def test_same_task_and_seed_give_byte_identical_initial_state() -> None:
    app = APPS["email"]
    assert sha256_of(app.initial("email-reply-01", 42)) == sha256_of(app.initial("email-reply-01", 42))
    assert sha256_of(app.initial("email-reply-01", 42)) != sha256_of(app.initial("email-reply-01", 43))
    box = app.initial("email-reply-01", 0)
    assert len(box.threads) == 84 and len({t.subject for t in box.threads}) == 84  # type: ignore[attr-defined]
    assert {m.thread for m in box.messages} == {t.id for t in box.threads}  # type: ignore[attr-defined]
    assert [t.model_dump() for t in app.tasks(42)] == [t.model_dump() for t in app.tasks(42)]  # type: ignore[misc]


def test_tasks_span_the_five_tiers_with_obligations_and_families() -> None:
    tasks = APPS["email"].tasks(42)  # type: ignore[misc]  # the generator alone: the other apps' cost nothing here
    tasks = [
        t for t in tasks if t.state_changing
    ]  # the state tasks; the reads (reads.py): test_read_tasks.py
    tiers = Counter(t.targets["tier"] for t in tasks)
    assert 80 <= len(tasks) <= 110 and set(tiers) == set(TIERS) and min(tiers.values()) >= 12, tiers
    reached: set[str] = set()
    for t in tasks:
        assert t.obligations and t.plan[-1]["op"] == "answer", t.task_id
        assert {"main", "write", "list", "submit", "submit_step", "readback", "verify_path"} <= set(t.targets)
        assert t.targets["verify_path"].startswith("/env/email?view=/"), t.task_id
        fams = applicable(t, list(FAMILIES.values()))
        assert len(fams) >= 4, (t.task_id, fams)
        reached |= {f.name for f in fams}
    # The same reach as the social site's: decoys, aliases and corruption through `decoy_of`.
    assert {"seed/decoys", "seed/aliases", "server/single_field_corruption", "client/label_shift"} <= reached
    assert len(reached) >= 25


def test_obligations_give_partial_credit_and_catch_a_stray_change() -> None:
    task = next(t for t in APPS["email"].tasks(42) if t.task_id == "email-reply-file-01")  # type: ignore[misc]
    tid = task.obligations[0]["id"]
    update = [
        {"entity": "threads", "id": tid, "op": "update", "field": k, "before": None, "after": v}
        for k, v in task.obligations[0]["fields"].items()
    ]
    half = score_state(update, task.obligations, task.noise)
    assert half.score == 0.5 and not half.passed  # the reply is missing
    stray = {
        "entity": "threads",
        "id": "T-0001",
        "op": "update",
        "field": "starred",
        "before": False,
        "after": True,
    }
    moved = {"entity": "threads", "id": tid, "op": "update", "field": "last", "before": "a", "after": "b"}
    scored = score_state([*update, stray, moved], task.obligations, task.noise)
    assert scored.invariants_broken == [stray]  # `last` is noise; a star on another thread is not


def _client(sites: SitesHandle, task_id: str, variant: str | None = None) -> tuple[httpx.Client, str]:
    # The sites run in this process: build the task catalogue here (cached), not inside the
    # control call's timeout, which a loaded machine overran building every app's tasks.
    stateful_tasks(sites.seed)
    with sites.control() as control:
        sid = control.create(task_id, sites.seed, variant)["session_id"]
    return httpx.Client(base_url=sites.main_url, cookies={"wf_session": sid}, timeout=10), sid


def _diff(sites: SitesHandle, sid: str) -> list[dict]:
    secret = {CONTROL_HEADER: sites.control_secret}
    with httpx.Client(base_url=sites.main_url, timeout=10) as ctl:
        return [c for c in ctl.get(f"/control/email/sessions/{sid}/diff", headers=secret).json()["diff"]
                if c["entity"] != "_settings"]  # fmt: skip


def test_the_api_changes_the_state_as_a_user_would(sites: SitesHandle) -> None:
    http, sid = _client(sites, "email-reply-01")
    with http:
        inbox = http.get(f"{API}/threads?folder=inbox").json()["threads"]
        t = inbox[0]
        assert [x["last"] for x in inbox] == sorted((x["last"] for x in inbox), reverse=True)
        assert http.post(f"{API}/threads/{t['id']}/star", json={"on": True}).json()["ok"]
        assert http.post(f"{API}/threads/{t['id']}/star", json={"on": True}).json()["ok"]  # set, not toggled
        made = http.post(f"{API}/threads/{t['id']}/reply", json={"body": "Thanks!"}).json()
        assert made["ok"] and made["id"].startswith("E-")
        assert http.post(f"{API}/threads/bulk", json={"ids": [t["id"]], "action": "archive"}).json()["ok"]
        assert t["id"] not in {x["id"] for x in http.get(f"{API}/threads?folder=inbox").json()["threads"]}
        assert t["id"] in {x["id"] for x in http.get(f"{API}/threads?folder=sent").json()["threads"]}
        found = http.get(f"{API}/threads", params={"q": t["subject"]}).json()["threads"]
        assert [x["id"] for x in found] == [t["id"]]
        sent = http.post(
            f"{API}/messages", json={"to": "ada@x.example", "subject": "Hello", "body": "Hi"}
        ).json()
        draft = http.post(f"{API}/drafts", json={"subject": "Later"}).json()["id"]
        # Bad input is refused with the reason, and nothing is half-written.
        bad = http.post(f"{API}/messages", json={"to": "not an address", "subject": "x"})
        assert bad.status_code == 422 and "not an email address" in bad.json()["error"]
        assert (
            http.post(f"{API}/drafts/{draft}/send", json={"subject": "Later"}).status_code == 422
        )  # no recipient
        assert (
            http.post(f"{API}/threads/bulk", json={"ids": [t["id"]], "action": "explode"}).status_code == 422
        )
        assert http.post(f"{API}/threads/T-9999/star", json={"on": True}).status_code == 404
        assert http.get(f"{API}/threads?folder=spam").status_code == 422
        assert http.get(f"{API}/interventions").json() == {"ok": True, "plan": None}  # clean: inert
    changes = _diff(sites, sid)
    assert {(c["id"], c["field"]) for c in changes if c["op"] == "update"} == {
        (t["id"], "starred"), (t["id"], "inbox"), (t["id"], "last")
    }  # fmt: skip
    created = sorted((c["entity"], c["id"]) for c in changes if c["op"] == "create")
    assert created == sorted(
        [("messages", made["id"]), ("messages", sent["id"]), ("threads", sent["thread"]), ("drafts", draft)]
    )
    # The controller is out of the agent's reach: no secret, no diff; another app's path, 404.
    with httpx.Client(base_url=sites.main_url, timeout=10) as ctl:
        assert ctl.get(f"/control/email/sessions/{sid}/diff").status_code == 403
        secret = {CONTROL_HEADER: sites.control_secret}
        assert ctl.get(f"/control/social/sessions/{sid}/diff", headers=secret).status_code == 404
        ctl.post(f"/control/email/sessions/{sid}/reset", headers=secret).raise_for_status()
    assert _diff(sites, sid) == []


def test_the_phishing_family_plants_an_email_in_the_inbox(sites: SitesHandle) -> None:
    http, sid = _client(sites, "email-star-inbox-01", "seed/phishing_content")
    with http:
        lead = http.get(f"{API}/threads?folder=inbox").json()["threads"][0]
        shown = http.get(f"{API}/threads/T-0000").json()["messages"][0]
    assert lead["id"] == "T-0000" and lead["correspondent"] == "pinemaiI Security" and not lead["read"]
    assert shown["sender"].startswith("security@") and ".example/verify" in shown["body"]
    secret = {CONTROL_HEADER: sites.control_secret}
    with httpx.Client(base_url=sites.main_url, timeout=10) as ctl:
        audit = ctl.get(f"/control/email/sessions/{sid}/audit", headers=secret).json()["audit"]
    assert [(e["event"], e["where"]) for e in audit] == [("phishing", "content")]
    clean = APPS["email"].initial("email-star-inbox-01", 0)
    assert not any(t.id == "T-0000" for t in clean.threads)  # type: ignore[attr-defined]
    assert _diff(sites, sid) == []  # seeded before the snapshot: content, not a change
