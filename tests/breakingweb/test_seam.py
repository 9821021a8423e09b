"""The app seam: an app registered from outside the package (a tiny notes app, its own state,
API, page and task generator) is served, gets sessions with its seeded state, is scored by its
obligations over its own entity, and the families apply to it through its tasks' targets."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea_breakingweb import apps
from webfovea_breakingweb.engine import store as st
from webfovea_breakingweb.engine.page import document
from webfovea_breakingweb.engine.spec import AppSpec, BaseState, StatefulTask
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.suite import load_breakingweb_suite
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.plan import L, answer, click, fill, text_has, value_is
from webfovea_proving_ground.serve import SitesHandle, start_sites
from webfovea_proving_ground.sessions import Session, SessionStore

pytestmark = pytest.mark.asyncio(loop_scope="session")


class Note(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    text: str = Field(min_length=1, max_length=80)


class Tag(BaseModel):
    model_config = ConfigDict(extra="forbid")
    id: str
    name: str


class NotesState(BaseState):
    notes: list[Note] = Field(default_factory=list)
    tags: list[Tag] = Field(default_factory=list)


def build(r: random.Random, seed: int) -> NotesState:
    words = ["alpha", "beta", "gamma", "delta", "omega"]
    return NotesState(
        notes=[Note(id=f"N-{i:04d}", text=r.choice(words)) for i in range(1, 4)],
        tags=[Tag(id="T-1", name="misc")],
    )


def routes(app: AppSpec, main: FastAPI, store: SessionStore) -> None:
    @main.get(app.api + "/notes")
    async def notes(request: Request) -> JSONResponse:
        s = st.session_for(request, store, app)
        if isinstance(s, JSONResponse):
            return s
        return JSONResponse({"ok": True, "notes": [n.model_dump() for n in s.state.notes]})

    @main.post(app.api + "/notes")
    async def add(request: Request) -> JSONResponse:
        s = st.session_for(request, store, app)
        if isinstance(s, JSONResponse):
            return s
        body = await st.body_of(request)
        if isinstance(body, JSONResponse):
            return body
        fields = st.submitted(s, app, None, {"text": body.get("text", "")})

        def change(state: NotesState) -> dict[str, Any]:
            note = Note(id=st.next_id(state.notes, "N-"), text=fields["text"])  # a 422 if invalid
            state.notes.append(note)
            return {"id": note.id}

        return st.answer(s, change)


SCRIPT = """
async function load() {
  const d = await WF.call('GET', '/notes');
  if (!d) return;
  document.querySelector('#notes tbody').innerHTML = d.notes.map((n) =>
    '<tr data-id="' + WF.esc(n.id) + '"><td class="text">' + WF.esc(n.text) + '</td></tr>').join('');
}
document.querySelector('#add').addEventListener('click', async () => {
  const d = await WF.call('POST', '/notes', {text: document.querySelector('#text').value});
  if (d) { WF.toast('Added. Reference', d.id); await load(); }
});
WF.afterLogin(load);
load();
"""


def page(app: AppSpec, session: Session | None, plan: dict[str, Any] | None) -> str:
    body = """<h1>Notes</h1><div id="wf-status"></div>
<label for="text">Note</label> <input id="text" type="text"> <button id="add" type="button">Add</button>
<table id="notes"><thead><tr><th>Text</th></tr></thead><tbody></tbody></table>"""
    return document(app, plan, body, script=SCRIPT)


def tasks(seed: int) -> list[StatefulTask]:
    text = "remember the milk"
    plan = [
        fill(L("#text"), text, expect=value_is(L("#text"), text)),
        click(L("#add"), expect=text_has(L("#toast"), "Reference")),
        answer(L("#toast .ref")),
    ]
    return [
        StatefulTask(
            task_id="notes-add-01",
            app="notes",
            instruction=f"Add the note “{text}” and report its reference.",
            obligations=[{"entity": "notes", "op": "create", "count": 1, "fields": {"text": text}}],
            noise=[],
            plan=plan,
            targets={
                "main": ["POST", "/api/notes/notes"],
                "write": ["POST", "/api/notes/notes"],
                "submit": "#add",
                "submit_step": 1,
                "redo_from": 0,
                "readback": text_has(L("#notes"), text),
            },
        )
    ]


NOTES = AppSpec(
    name="notes", title="Notes", path="/app/notes", state_model=NotesState, build=build,
    routes=routes, page=page, tasks=tasks,
)  # fmt: skip


@pytest.fixture(scope="module")
def sites() -> Iterator[SitesHandle]:
    apps.register(NOTES)
    try:
        with start_sites(seed=0) as handle:
            yield handle
    finally:
        apps.unregister(NOTES)


def _client(sites: SitesHandle, variant: str | None = None) -> tuple[httpx.Client, str]:
    with sites.control() as control:
        sid = control.create("notes-add-01", 0, variant)["session_id"]
    return httpx.Client(base_url=sites.main_url, cookies={"wf_session": sid}, trust_env=False), sid


async def test_registered_app_is_collected_served_and_scored(sites: SitesHandle) -> None:
    assert "notes-add-01" in stateful_tasks(0) and "req-create-01" in stateful_tasks(0)
    http, sid = _client(sites)
    html = http.get("/app/notes").text
    assert "/_static/iv.js" in html and "window.__IV_PLAN__ = null" in html
    seeded = http.get("/api/notes/notes").json()["notes"]
    assert [n["id"] for n in seeded] == ["N-0001", "N-0002", "N-0003"]
    r = http.post("/api/notes/notes", json={"text": ""})
    assert r.status_code == 422 and "text" in r.json()["error"]
    with sites.control() as control:
        assert control.diff(sid)["diff"] == []  # rejected: nothing half-written, the clock unmoved
    assert http.post("/api/notes/notes", json={"text": "remember the milk"}).json()["id"] == "N-0004"
    with sites.control() as control:
        diff = control.diff(sid)["diff"]
    task = stateful_tasks(0)["notes-add-01"]
    assert [(c["entity"], c["op"]) for c in diff if c["entity"] != "_settings"] == [("notes", "create")]
    assert score_state(diff, task.obligations, task.noise).passed
    # The same content for every session of the seed, and another app's session is refused.
    other, _ = _client(sites)
    assert other.get("/api/notes/notes").json()["notes"] == seeded
    assert http.get("/api/requests/records").status_code == 409


async def test_families_apply_through_the_targets(sites: SitesHandle) -> None:
    http, sid = _client(sites, "network/fabricated_success")
    assert http.post("/api/notes/notes", json={"text": "remember the milk"}).json()["ok"]
    with sites.control() as control:
        assert control.diff(sid)["diff"] == []  # forged: the answer said ok, nothing was stored
        assert [e["event"] for e in control.audit(sid)["audit"]] == ["fired"]
    variants = {
        t.task_id for t in load_breakingweb_suite(sites, paired=True) if t.task_id.startswith("notes")
    }
    assert {"notes-add-01", "notes-add-01--fabricated_success", "notes-add-01--swallowed_click"} <= variants


async def test_the_oracle_operates_the_app_in_chromium(
    sites: SitesHandle, session: BrowserSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    task = next(t for t in load_breakingweb_suite(sites) if t.task_id == "notes-add-01")
    result = await run_task(
        task, tmp_path, model="oracle", config=HarnessConfig(max_steps=10), session=session
    )
    assert result.answer == "N-0004"
    with sites.control() as control:
        diff = control.diff(result.session_id)["diff"]
    assert score_state(diff, (task.model_extra or {})["obligations"]).passed
