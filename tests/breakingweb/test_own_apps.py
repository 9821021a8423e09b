"""The mail client and the issue tracker without a browser: their task generators (enough
templates and tasks, every tier, deterministic by seed, built on the content the server
serves) and their JSON APIs (a write changes only what differs; bad input is a 422 that
leaves nothing written; another app's session is refused)."""

from __future__ import annotations

import httpx
import pytest

from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.engine.determinism import canonical, sha256_of
from webfovea_breakingweb.engine.diff import entities
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.serve import SitesHandle

OWN = ("mail", "tracker")


def _tasks(app: str, seed: int = 0) -> list:
    return APPS[app].tasks(seed)  # type: ignore[misc]


@pytest.mark.parametrize("app", OWN)
def test_templates_tiers_and_counts(app: str) -> None:
    tasks = _tasks(app)
    templates = {t.targets["template"] for t in tasks}
    assert len(templates) >= 10 and len(tasks) >= 75
    assert {t.targets["tier"] for t in tasks} == {"easy", "medium", "hard"}
    kinds = {t.targets["template"]: t.state_changing for t in tasks}
    assert any(kinds.values()) and not all(kinds.values())  # retrieval and state-changing
    assert all(t.task_id.startswith(f"{app}-") and t.task_id in stateful_tasks(0) for t in tasks)


@pytest.mark.parametrize("app", OWN)
def test_generator_is_deterministic_by_seed_and_reads_the_served_content(app: str) -> None:
    first = canonical([t.model_dump() for t in _tasks(app, 0)])
    assert first == canonical([t.model_dump() for t in _tasks(app, 0)])
    assert first != canonical([t.model_dump() for t in _tasks(app, 1)])
    spec = APPS[app]
    state = spec.initial("any-task", 0)
    assert sha256_of(state) == sha256_of(spec.initial("another-task", 0))  # one content per seed
    records = entities(state)
    for t in _tasks(app):
        assert t.plan and t.plan[-1]["op"] == "answer", t.task_id
        for ob in t.obligations:
            if ob.get("op") in ("update", "delete"):  # they name records the served state holds
                assert str(ob["id"]) in records[ob["entity"]], (t.task_id, ob)
        if t.state_changing:
            assert t.obligations and t.answer is None and "readback" in t.targets
            assert t.targets["verify_path"].startswith(spec.path)
            assert {"main", "write", "list", "submit_step"} <= set(t.targets)
        else:
            assert t.answer not in (None, "") and t.obligations  # where the answer came from


def _client(sites: SitesHandle, task: str) -> tuple[httpx.Client, str]:
    with sites.control() as control:
        sid = control.create(task, 0, None)["session_id"]
    return httpx.Client(base_url=sites.main_url, cookies={"wf_session": sid}, trust_env=False), sid


def _diff(sites: SitesHandle, sid: str) -> list[dict]:
    with sites.control() as control:
        return [c for c in control.diff(sid)["diff"] if c["entity"] != "_settings"]


def test_mail_api_changes_only_what_differs_and_refuses_bad_input(sites: SitesHandle) -> None:
    http, sid = _client(sites, "mail-star-01")
    inbox = http.get("/api/mail/messages", params={"folder": "inbox"}).json()
    read = [m["id"] for m in inbox["messages"] if m["read"]][:3]
    assert http.post("/api/mail/bulk/read", json={"ids": read}).json()["changed"] == []
    assert _diff(sites, sid) == []  # marking read messages read changes nothing
    assert http.post("/api/mail/bulk/move", json={"ids": read, "folder": "sent"}).status_code == 422
    assert http.post("/api/mail/bulk/label", json={"ids": read, "label": "nope"}).status_code == 422
    assert (
        http.post("/api/mail/send", json={"to": "not an address", "body": "x", "subject": "s"}).status_code
        == 422
    )
    assert http.post("/api/mail/messages/M-9999/star").status_code == 404
    assert _diff(sites, sid) == []
    assert http.post(f"/api/mail/messages/{read[0]}/label", json={"label": "work"}).json()["ok"]
    assert {(c["id"], c["field"]) for c in _diff(sites, sid)} <= {(read[0], "labels"), (read[0], "updated")}
    assert http.get("/api/tracker/tickets").status_code == 409  # another app's session


def test_tracker_api_validates_and_keeps_labels_sorted(sites: SitesHandle) -> None:
    http, sid = _client(sites, "tracker-assign-01")
    assert http.post("/api/tracker/tickets/T-0001/move", json={"status": "someday"}).status_code == 422
    assert http.put("/api/tracker/tickets/T-0001", json={"assignee": "u-nobody"}).status_code == 422
    assert http.post("/api/tracker/tickets/T-0001/comments", json={"body": "  "}).status_code == 422
    assert http.post("/api/tracker/tickets", json={"title": "x"}).status_code == 422
    assert _diff(sites, sid) == []
    r = http.put("/api/tracker/tickets/T-0001", json={"labels": ["ux", "bug", "ux"]}).json()
    assert r["record"]["labels"] == ["bug", "ux"]
    new = http.post("/api/tracker/tickets/T-0001/comments", json={"body": "Looks good."}).json()["record"]
    ticket = http.get("/api/tracker/tickets/T-0001").json()
    assert ticket["comments"][-1]["id"] == new["id"] and new["author"] == "u-me"
