"""The stateful apps' JSON API and control plane, over HTTP against the running sites:
bad input gets clear errors and leaves no half-written state; evaluator state stays private."""

from __future__ import annotations

import httpx
import pytest

from webfovea_proving_ground.serve import SitesHandle
from webfovea_proving_ground.sessions import CONTROL_HEADER

GOOD = {"dataset": "trade-q", "delivery": "2025-03-11", "format": "XLSX", "rows": 2500, "notes": "n"}


def _client(
    sites: SitesHandle, task: str = "req-create-01", variant: str | None = None
) -> tuple[httpx.Client, str]:
    with sites.control() as control:
        sid = control.create(task, 0, variant)["session_id"]
    return httpx.Client(base_url=sites.main_url, cookies={"wf_session": sid}, trust_env=False), sid


def test_schema_violation_is_a_422_and_changes_nothing(sites: SitesHandle) -> None:
    http, sid = _client(sites)
    r = http.post("/api/requests/records", json={**GOOD, "rows": -3})
    assert r.status_code == 422 and "rows" in r.json()["error"]
    r = http.post("/api/requests/records", json={**GOOD, "delivery": "next week"})
    assert r.status_code == 422 and "delivery" in r.json()["error"]
    with sites.control() as control:
        assert control.diff(sid)["diff"] == []
    assert (
        http.post("/api/requests/records", json=GOOD).json()["record"]["id"] == "R-0004"
    )  # counter untouched


def test_unknown_or_inapplicable_variant_is_refused(sites: SitesHandle) -> None:
    headers = {CONTROL_HEADER: sites.control_secret}
    r = httpx.post(
        sites.control_url,
        json={"task_id": "req-create-01", "variant": "network/teleport"},
        headers=headers,
        trust_env=False,
    )
    assert r.status_code == 422 and "unknown intervention family" in r.json()["error"]
    r = httpx.post(
        sites.control_url,
        json={"task_id": "req-lookup-01", "variant": "server/save_drift"},
        headers=headers,
        trust_env=False,
    )
    assert r.status_code == 422 and "state-changing" in r.json()["error"]
    r = httpx.post(
        sites.control_url,
        json={"task_id": "stats-select-01", "variant": "client/label_shift"},
        headers=headers,
        trust_env=False,
    )
    assert r.status_code == 422 and "not a stateful task" in r.json()["error"]


def test_control_routes_need_the_secret(sites: SitesHandle) -> None:
    _, sid = _client(sites)
    for method, path in [("GET", "diff"), ("GET", "audit"), ("POST", "reset")]:
        r = httpx.request(method, f"{sites.control_url}/{sid}/{path}", trust_env=False)
        assert r.status_code == 403


def test_deleted_session_gets_a_clear_error(sites: SitesHandle) -> None:
    http, sid = _client(sites)
    httpx.delete(
        f"{sites.control_url}/{sid}", headers={CONTROL_HEADER: sites.control_secret}, trust_env=False
    )
    r = http.get("/api/requests/records")
    assert r.status_code == 401 and "session" in r.json()["error"].lower()


def test_reset_restores_the_initial_state_and_clears_the_audit(sites: SitesHandle) -> None:
    http, sid = _client(sites, variant="network/fabricated_success")
    assert http.post("/api/requests/records", json=GOOD).json()["ok"]  # forged: nothing stored
    assert http.post("/api/requests/records", json=GOOD).json()["ok"]  # real
    with sites.control() as control:
        before = control.diff(sid)
        assert [c["op"] for c in before["diff"] if c["entity"] == "records"] == ["create"]
        assert [e["event"] for e in control.audit(sid)["audit"]] == ["fired"]
        again = control.reset(sid)
        assert again["initial_sha256"] == before["initial_sha256"]
        assert control.diff(sid)["diff"] == [] and control.audit(sid)["audit"] == []
    assert http.post("/api/requests/records", json=GOOD).json()["ok"]  # the rule fires again after a reset
    with sites.control() as control:
        assert control.diff(sid)["diff"] == []


@pytest.mark.parametrize("path", ["/app/requests", "/api/requests/records", "/api/requests/catalogue"])
def test_public_surface_shows_no_evaluator_state(sites: SitesHandle, path: str) -> None:
    http, _ = _client(sites, "req-lookup-01", "seed/planted_answer")
    text = http.get(path).text
    for secret_word in ("initial_sha256", "planted", "seed/", '"family"', "obligation", sites.control_secret):
        assert secret_word not in text
