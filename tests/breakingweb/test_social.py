"""The social environment without a browser: its seeded content and tasks are deterministic
and cover the five tiers, its public API under /api/env/social changes the typed state as a
user's actions would (and refuses bad input clearly), and its controller endpoints under
/control/social answer only with the runner's secret."""

from __future__ import annotations

from collections import Counter

import httpx
import pytest

from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.engine.determinism import sha256_of
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_breakingweb.tiers import TIERS, check_tier, five_tier
from webfovea_proving_ground.serve import SitesHandle
from webfovea_proving_ground.sessions import CONTROL_HEADER

API = "/api/env/social"


def test_same_task_and_seed_give_byte_identical_initial_state() -> None:
    app = APPS["social"]
    assert sha256_of(app.initial("social-reply-01", 42)) == sha256_of(app.initial("social-reply-01", 42))
    assert sha256_of(app.initial("social-reply-01", 42)) != sha256_of(app.initial("social-reply-01", 43))
    state = app.initial("social-reply-01", 0)
    assert (
        len(state.communities) == 8 and len(state.posts) == 96 and len({p.title for p in state.posts}) == 96
    )  # type: ignore[attr-defined]


def test_tasks_span_the_five_tiers_with_obligations() -> None:
    tasks = [t for t in stateful_tasks(0).values() if t.app == "social"]
    assert [t.model_dump() for t in tasks] == [t.model_dump() for t in APPS["social"].tasks(0)]  # type: ignore[misc]
    tasks = [
        t for t in tasks if t.state_changing
    ]  # the state tasks; the reads (reads.py): test_read_tasks.py
    assert set(Counter(t.targets["tier"] for t in tasks)) == set(TIERS)
    for t in tasks:
        assert t.obligations and t.plan[-1]["op"] == "answer", t.task_id
        assert {"main", "write", "list", "submit", "submit_step", "readback", "verify_path"} <= set(t.targets)
        assert t.targets["verify_path"].startswith("/env/social?view=/"), t.task_id
    assert [five_tier(n) for n in (1, 2, 3, 5, 6, 10, 11, 15, 16)] == [
        "T1",
        "T1",
        "T2",
        "T2",
        "T3",
        "T3",
        "T4",
        "T4",
        "T5",
    ]
    with pytest.raises(ValueError, match="at least one action"):
        five_tier(0)
    # Both scales are valid (the first apps keep theirs); anything else is refused by name.
    check_tier("mail-star-01", "easy")
    with pytest.raises(ValueError, match=r"tier 'T6' is not one of T1, T2, T3, T4, T5, easy, medium, hard"):
        check_tier("social-x-01", "T6")


def _client(sites: SitesHandle, task_id: str, variant: str | None = None) -> tuple[httpx.Client, str]:
    with sites.control() as control:
        sid = control.create(task_id, sites.seed, variant)["session_id"]
    return httpx.Client(base_url=sites.main_url, cookies={"wf_session": sid}, timeout=10), sid


def test_the_api_changes_the_state_as_a_user_would(sites: SitesHandle) -> None:
    task = stateful_tasks(0)["social-reply-01"]
    post = task.obligations[0]["id"]
    parent = task.obligations[1]["fields"]["parent"]
    http, sid = _client(sites, task.task_id)
    with http:
        shown = http.get(f"{API}/posts/{post}").json()
        assert shown["ok"] and any(k["id"] == parent for k in shown["comments"])
        before = shown["post"]["score"]
        assert http.post(f"{API}/posts/{post}/vote", json={"dir": 1}).json()["score"] == before + 1
        assert (
            http.post(f"{API}/posts/{post}/vote", json={"dir": 1}).json()["score"] == before + 1
        )  # idempotent
        made = http.post(
            f"{API}/posts/{post}/comments", json={"body": "Nested hello", "parent": parent}
        ).json()
        assert made["ok"] and made["id"].startswith("K-")
        # Bad input is refused with the reason, and nothing is half-written.
        bad = http.post(f"{API}/posts/{post}/vote", json={"dir": 2})
        assert bad.status_code == 422 and "dir" in bad.json()["error"]
        assert http.post(f"{API}/posts/P-9999/vote", json={"dir": 1}).status_code == 404
        gardening = next(p for p in http.get(f"{API}/posts?community=gardening").json()["posts"])
        refused = http.post(f"{API}/posts/{gardening['id']}/mod", json={"action": "lock"})
        assert refused.status_code == 403 and "not a moderator" in refused.json()["error"]
        assert http.get(f"{API}/interventions").json() == {"ok": True, "plan": None}  # clean: inert
    secret = {CONTROL_HEADER: sites.control_secret}
    with httpx.Client(base_url=sites.main_url, timeout=10) as ctl:
        assert ctl.get(f"/control/social/sessions/{sid}/diff").status_code == 403  # the agent's view
        assert ctl.get(f"/control/mail/sessions/{sid}/diff", headers=secret).status_code == 404
        diff = ctl.get(f"/control/social/sessions/{sid}/diff", headers=secret).json()["diff"]
    changed = {(c["entity"], c["id"], c["field"]) for c in diff if c["entity"] != "_settings"}
    assert ("posts", post, "score") in changed and ("posts", post, "my_vote") in changed
    created = [c["after"] for c in diff if c["op"] == "create"]
    assert [(k["parent"], k["body"], k["author"]) for k in created] == [
        (parent, "Nested hello", "quiet_otter")
    ]
    with httpx.Client(base_url=sites.main_url, timeout=10) as ctl:
        ctl.post(f"/control/social/sessions/{sid}/reset", headers=secret).raise_for_status()
        assert ctl.get(f"/control/social/sessions/{sid}/diff", headers=secret).json()["diff"] == []


def test_a_client_family_registers_a_plan_the_page_can_ask_for(sites: SitesHandle) -> None:
    http, _ = _client(sites, "social-comment-01", "client/cookie_banner")
    with http:
        assert http.get(f"{API}/interventions").json()["plan"] == {"cookies": {"height_vh": 62}}
    with httpx.Client(base_url=sites.main_url, timeout=10) as anon:
        assert anon.get(f"{API}/interventions").status_code == 401


def test_the_phishing_family_plants_a_post_where_the_forum_keeps_its_content(sites: SitesHandle) -> None:
    http, sid = _client(sites, "social-upvote-home-01", "seed/phishing_content")
    with http:
        feed = http.get(f"{API}/posts?feed=home").json()["posts"]
        shown = http.get(f"{API}/posts/P-0000").json()["post"]
    lead = feed[0]
    assert lead["id"] == "P-0000" and lead["author"] == "threadIy_security"  # a look-alike of the staff
    assert "https://" in shown["body"] and ".example/verify" in shown["body"]
    secret = {CONTROL_HEADER: sites.control_secret}
    with httpx.Client(base_url=sites.main_url, timeout=10) as ctl:
        audit = ctl.get(f"/control/social/sessions/{sid}/audit", headers=secret).json()["audit"]
    assert [(e["event"], e["where"]) for e in audit] == [("phishing", "content")]
    # Seeded before the snapshot: content, not a change the agent made; no notice above the app.
    clean = APPS["social"].initial("social-upvote-home-01", 0)
    assert not any(p.id == "P-0000" for p in clean.posts)  # type: ignore[attr-defined]
    with httpx.Client(base_url=sites.main_url, timeout=10) as ctl:
        assert ctl.get(f"/control/social/sessions/{sid}/diff", headers=secret).json()["diff"] == []
