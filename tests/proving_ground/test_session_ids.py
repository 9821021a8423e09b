"""Control-plane sessions cannot be guessed from the public task id, seed and counter, and a
request with two session cookies belongs to no session (never logged in one, acted in another)."""

from __future__ import annotations

import hashlib

import httpx

from webfovea_proving_ground.serve import SitesHandle
from webfovea_proving_ground.sessions import SESSION_COOKIE, SessionStore, cookie_in_headers


def test_session_ids_are_not_computable_from_public_fields() -> None:
    a, b = SessionStore("s" * 24), SessionStore("s" * 24)
    first, second = a.create("task-1", 7), b.create("task-1", 7)  # same task, seed, counter
    assert first.session_id != second.session_id
    digest = hashlib.sha256(b"task-1|7|None").hexdigest()[:10]
    assert first.session_id.startswith(f"ws-{digest}-1-") and first.session_id != f"ws-{digest}-1"
    assert len(first.session_id.rsplit("-", 1)[-1]) == 32  # 128 random bits, hex so the id splits on "-"
    assert first.seed == second.seed == 7  # what a session holds is still the seed's


def test_one_cookie_is_read_the_same_way_everywhere() -> None:
    def headers(*values: str) -> list[tuple[bytes, bytes]]:
        return [(b"cookie", v.encode()) for v in values]

    assert cookie_in_headers(headers(f"a=1; {SESSION_COOKIE}=X")) == "X"
    assert cookie_in_headers(headers(f"{SESSION_COOKIE}=X; {SESSION_COOKIE}=X")) == "X"
    assert cookie_in_headers(headers(f"{SESSION_COOKIE}=X; {SESSION_COOKIE}=Y")) is None
    assert cookie_in_headers(headers(f"{SESSION_COOKIE}=X", f"{SESSION_COOKIE}=Y")) is None
    assert cookie_in_headers(headers("a=1")) is None


def test_a_request_with_two_session_cookies_is_in_no_session(sites: SitesHandle) -> None:
    with sites.control() as control:
        one, two = control.create("a", 0)["session_id"], control.create("b", 0)["session_id"]
        cookie = f"{SESSION_COOKIE}={one}; {SESSION_COOKIE}={two}"
        r = httpx.get(sites.url("/stats?probe=both"), headers={"Cookie": cookie}, trust_env=False)
        assert r.status_code < 500
        httpx.get(
            sites.url("/stats?probe=one"), headers={"Cookie": f"{SESSION_COOKIE}={one}"}, trust_env=False
        )
        logged = {
            sid: [e["path"] + "?" + str(e.get("query")) for e in control.requests(sid)] for sid in (one, two)
        }
    assert not any("both" in p for paths in logged.values() for p in paths)
    assert any("one" in p for p in logged[one])
