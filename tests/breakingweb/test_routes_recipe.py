"""The recipe "Adding an endpoint to an app" (docs/breakingweb.md), followed: a throwaway app
whose one write route is one decorated function through engine/routes.py. The helper, not the
handler, answers a missing session, another app's session and a bad body; a good write changes
the state through the save hooks, so server/save_drift's audit line is written."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field

from webfovea_breakingweb import apps
from webfovea_breakingweb.engine import store as st
from webfovea_breakingweb.engine.routes import AppRoutes, Call
from webfovea_breakingweb.engine.spec import AppSpec, BaseState, StatefulTask
from webfovea_proving_ground.plan import L, text_has
from webfovea_proving_ground.serve import SitesHandle, start_sites
from webfovea_proving_ground.sessions import SessionStore

DUE = r"^20\d\d-[01]\d-[0-3]\d$"


class Memo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    text: str
    due: str = Field(pattern=DUE)


class MemoState(BaseState):
    memos: list[Memo] = Field(default_factory=list)


class NewMemo(BaseModel):
    """The body of `POST /api/memo/memos`: the helper validates it (a 422 names the field)."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, max_length=40)
    due: str = Field(pattern=DUE)


def routes(app: AppSpec, main: FastAPI, store: SessionStore) -> None:
    r = AppRoutes(app, main, store)

    @r.write("/memos", body=NewMemo)
    def add(c: Call) -> dict[str, Any]:
        fields = c.submitted(None, c.body.model_dump())  # the save hooks see the write
        memo = Memo(id=st.next_id(c.state.memos, "M-"), **fields)
        c.state.memos.append(memo)
        return {"message": "Added. Reference", "id": memo.id}


def tasks(seed: int) -> list[StatefulTask]:
    route = ["POST", "/api/memo/memos"]
    return [
        StatefulTask(
            task_id="memo-add-01",
            app="memo",
            instruction="Add the memo “call the bank” due 2025-03-11.",
            obligations=[{"entity": "memos", "op": "create", "count": 1, "fields": {"due": "2025-03-11"}}],
            noise=[],
            targets={
                "main": route,
                "write": route,
                "submit_step": 0,
                "readback": text_has(L("#memos"), "2025-03-11"),
                "drift": {"field": "due", "kind": "swap_day_month", "value": "2025-03-11", "input": "#due"},
            },
        )
    ]


MEMO = AppSpec(
    name="memo",
    title="Memos",
    path="/app/memo",
    state_model=MemoState,
    build=lambda r, seed: MemoState(),
    routes=routes,
    tasks=tasks,
)
GOOD = {"text": "call the bank", "due": "2025-03-11"}


@pytest.fixture(scope="module")
def sites() -> Iterator[SitesHandle]:
    apps.register(MEMO)
    try:
        with start_sites(seed=0) as handle:
            yield handle
    finally:
        apps.unregister(MEMO)


def _client(
    sites: SitesHandle, task: str = "memo-add-01", variant: str | None = None
) -> tuple[httpx.Client, str]:
    with sites.control() as control:
        sid = control.create(task, 0, variant)["session_id"]
    return httpx.Client(base_url=sites.main_url, cookies={"wf_session": sid}, trust_env=False), sid


def test_a_missing_or_foreign_session_is_answered_by_the_helper(sites: SitesHandle) -> None:
    r = httpx.post(sites.main_url + "/api/memo/memos", json=GOOD, trust_env=False)
    assert r.status_code == 401 and r.json()["ok"] is False and "No active session" in r.json()["error"]
    other, _ = _client(sites, "req-create-01")
    r = other.post("/api/memo/memos", json=GOOD)
    assert r.status_code == 409 and r.json()["error"].endswith("not Memos.")


def test_a_bad_body_is_a_422_naming_the_field_and_changes_nothing(sites: SitesHandle) -> None:
    http, sid = _client(sites)
    r = http.post("/api/memo/memos", json={**GOOD, "due": "next week"})
    assert r.status_code == 422 and r.json() == {
        "ok": False,
        "error": f"due: String should match pattern '{DUE}'",
    }
    r = http.post("/api/memo/memos", json={"text": "x"})
    assert r.status_code == 422 and r.json()["error"].startswith("due:")
    r = http.post("/api/memo/memos", content=b"not json")
    assert r.status_code == 400 and r.json()["error"] == "The request body is not JSON."
    with sites.control() as control:
        assert control.diff(sid)["diff"] == []


def test_a_good_write_changes_the_state_and_the_save_hooks_log_it(sites: SitesHandle) -> None:
    http, sid = _client(sites, variant="server/save_drift")
    r = http.post("/api/memo/memos", json=GOOD)
    assert r.status_code == 200 and r.json() == {"ok": True, "message": "Added. Reference", "id": "M-0001"}
    with sites.control() as control:
        diff = control.diff(sid)["diff"]
        audit = control.audit(sid)["audit"]
    created = [c for c in diff if c["entity"] == "memos"]
    assert len(created) == 1 and created[0]["op"] == "create"
    assert "2025-11-03" in str(created[0])  # stored as the drift left it: day and month swapped
    assert [(e["layer"], e["event"], e["field"]) for e in audit] == [("server", "drift", "due")]
