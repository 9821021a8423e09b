"""What the viewer refuses, asked over raw HTTP (no browser normalises the path first): files
outside the run, files that are not images, other hosts, forged forms."""

from __future__ import annotations

import http.client
import re
import sys
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest

from tests.view.fixture_run import serving


def _get(url: str, path: str, host: str | None = None) -> tuple[int, bytes]:
    netloc = urlsplit(url).netloc
    conn = http.client.HTTPConnection(netloc, timeout=10)
    conn.putrequest("GET", path, skip_host=True)
    conn.putheader("Host", host or netloc)
    conn.endheaders()
    resp = conn.getresponse()
    return resp.status, resp.read()


def _post(url: str, path: str, form: dict[str, str], origin: str | None = None) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection(urlsplit(url).netloc, timeout=10)
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    if origin:
        headers["Origin"] = origin
    conn.request("POST", path, body=urlencode(form), headers=headers)
    resp = conn.getresponse()
    return resp.status, resp.read()


@pytest.mark.parametrize(
    "path",
    [
        "/run/0/file/gdp-th/../../secret.png",
        "/run/0/file/gdp-th/%2e%2e/%2e%2e/secret.png",
        "/run/0/file/gdp-th/..%2f..%2fsecret.png",
        "/run/0/file/..%2fsecret.png/x.png",
        "/run/0/file/gdp-th/linked.png",
        "/run/0/file/gdp-th/result.json",
        "/run/0/task/..%2f..",
    ],
)
def test_nothing_outside_the_run_and_nothing_but_images_is_served(run: Path, path: str) -> None:
    with serving(run) as url:
        status, body = _get(url, path)
        assert status in (400, 403, 404), (path, status)
        assert b"the secret outside the run" not in body
        assert b'"task_id"' not in body
        ok, image = _get(url, "/run/0/file/gdp-th/step_000_marked.png")  # the same route serves the run's
        assert ok == 200 and image.startswith(b"\x89PNG")


def test_another_host_is_refused(run: Path) -> None:
    with serving(run) as url:
        port = urlsplit(url).port
        status, _ = _get(url, "/run/0/", host=f"attacker.example:{port}")
        assert status == 421
        assert _get(url, "/run/0/", host=f"localhost:{port}")[0] == 200


def test_a_forged_label_form_writes_nothing(run: Path) -> None:
    with serving(run) as url:
        page = _get(url, "/run/0/task/cpi-vn")[1].decode()
        token = re.search(r'name="token" value="([^"]+)"', page).group(1)
        form = {"label": "success", "labeller": "x", "note": ""}
        assert _post(url, "/run/0/label/cpi-vn", form)[0] == 403  # no token
        assert (
            _post(url, "/run/0/label/cpi-vn", {**form, "token": token}, origin="http://evil.example")[0]
            == 403
        )
        assert _post(url, "/run/0/label/cpi-vn", {**form, "token": token}, origin="null")[0] == 403
        assert not (run / "labels.jsonl").exists()
        assert _post(url, "/run/0/label/cpi-vn", {**form, "token": token, "label": "yes"})[0] == 400
        assert not (run / "labels.jsonl").exists()
        assert _post(url, "/run/0/label/cpi-vn", {**form, "token": token})[0] == 303
        assert '"label": "success"' in (run / "labels.jsonl").read_text()


def test_a_malformed_review_file_is_shown_and_refuses_reviews(run: Path) -> None:
    (run / "manuals" / "reviews.jsonl").write_text('{"task_id": "cpi-vn", "decision": "maybe"}\n')
    with serving(run) as url:
        status, body = _get(url, "/run/0/manual/cpi-vn")
        assert status == 200
        assert b"reviews.jsonl line 1: decision &#x27;maybe&#x27;" in body
        assert b'id="review-form"' not in body


def test_the_list_and_a_task_page_read_no_capture_and_the_list_no_trajectory(run: Path) -> None:
    opened: list[str] = []
    watching = [True]

    def hook(event: str, args: tuple[object, ...]) -> None:
        if watching[0] and event == "open" and args:
            opened.append(str(args[0]))

    sys.addaudithook(hook)  # an audit hook cannot be removed: it stops recording below
    try:
        with serving(run) as url:
            assert _get(url, "/run/0/")[0] == 200
            assert not [p for p in opened if p.endswith(("trajectory.jsonl", "capture.json"))]
            assert _get(url, "/run/0/task/cpi-vn")[0] == 200
            assert any(p.endswith("trajectory.jsonl") for p in opened)  # the hook sees the reads
            assert not [p for p in opened if p.endswith("capture.json")]
            assert _get(url, "/run/0/evidence/cpi-vn")[0] == 200  # read when asked for
            assert any(p.endswith("capture.json") for p in opened)
    finally:
        watching[0] = False
