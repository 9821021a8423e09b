"""The evidence builder on fixtures in both folder layouts: every filter rule."""

from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

from tests.judge import folders
from webfovea.judge import evidence
from webfovea.judge.budget import newest_within
from webfovea.judge.evidence import build_evidence, registrable_label
from webfovea.judge.folder import ordered_screenshots, read_task_folder
from webfovea.judge.prompt import evidence_text
from webfovea.judge.requests import blob_marker, clean, format_request, normalise


def test_registrable_label_ignores_subdomains_and_suffixes() -> None:
    assert registrable_label("https://api.example.co.uk/x") == "example"
    assert registrable_label("https://example.com") == "example"
    assert registrable_label("http://127.0.0.1:8000/a") == "127.0.0.1"
    assert registrable_label("http://localhost:9/a") == "localhost"
    assert registrable_label("https://a.b.github.io/") == "b"


def test_last_screenshot_is_the_last_step_by_number(tmp_path) -> None:
    f = folders.webretriever(tmp_path / "wr", steps=11)  # 0..10: a name sort would pick 9.png
    assert [p.name for p in ordered_screenshots(f / "trajectory")][-3:] == ["8.png", "9.png", "10.png"]
    ev = build_evidence(f)
    assert ev.screenshot == "10.png"
    ours = folders.ours(tmp_path / "ours", steps=12)
    assert build_evidence(ours).screenshot == "step_011.png"  # marked copies are not screenshots


def test_webretriever_naveval_filter(tmp_path) -> None:
    ev = build_evidence(folders.webretriever(tmp_path / "t"), flt="naveval")
    assert len(ev.requests) == 1  # image dropped (type), tracker dropped (domain)
    req = ev.requests[0]
    assert set(req) == {"method", "url", "json_data"}  # headers and raw bodies gone
    body = req["json_data"]
    assert "userAgent" not in body and "empty" not in body  # noise key, empty value
    assert body["variables"] == {"from": "A"}  # JSON in a string expanded; token (noise) dropped inside
    assert body["query"] == 'query Search { flights(from: "A") { id } }'  # GraphQL on one line
    assert body["blob"] == "hex data"
    assert body["next"] == "https://x.com/a b"  # URL-decoded
    assert ev.dropped == []  # NavEval records nothing about what it dropped
    assert ev.urls == ["https://shop.example.com/", "https://shop.example.com/search?q=a"]  # de-duplicated
    assert "- task: Find flights from A to B" in evidence_text(ev) and "key points" not in evidence_text(ev)


def test_webfovea_filter_records_every_drop(tmp_path) -> None:
    ev = build_evidence(folders.webretriever(tmp_path / "t"))
    reasons = {d["index"]: d["reason"] for d in ev.dropped}
    assert reasons == {1: "domain: other", 2: "type: image"}


def test_facts_only_never_thoughts_or_truth(tmp_path) -> None:
    wr = build_evidence(folders.webretriever(tmp_path / "wr"))
    text = json.dumps(wr.to_json())
    assert "secret reasoning" not in text and "hmm" not in text and "Search" in text
    ours = build_evidence(folders.ours(tmp_path / "o"))
    text = json.dumps(ours.to_json()) + evidence_text(ours)
    for hidden in ("I am sure", "wrong_row", "ws-secret-1", "nav_ok", "finished"):
        assert hidden not in text
    assert ours.actions == [
        "step 1: click(start_box=[10, 20]) -> executed",
        "step 2: click(start_box=[10, 21]) -> executed",
    ]
    assert (
        ours.answer is None and build_evidence(folders.ours(tmp_path / "o")).to_json().get("answer") is None
    )
    assert build_evidence(tmp_path / "o", with_answer=True).answer == "3.4"  # Protocol III only


def test_ours_keeps_start_site_subdomain_and_navigated_hosts(tmp_path) -> None:
    reqs = [
        {
            "url": "https://api.example.co.uk/a?x=1",
            "method": "GET",
            "resource_type": "xhr",
            "query_params": [["x", "1"]],
        },
        {"url": "https://cdn.partner.io/b", "method": "GET", "resource_type": "fetch"},
        {
            "url": "https://data.third.org/c",
            "method": "POST",
            "resource_type": "fetch",
            "body_params": [["country", "VN"], ["sessionId", "[redacted]"]],
        },
    ]
    f = folders.ours(
        tmp_path / "t", requests=reqs, navigations=[folders.START, "https://data.third.org/page"]
    )
    nav = build_evidence(f, flt="naveval")
    assert [r["url"] for r in nav.requests] == ["https://api.example.co.uk/a?x=1"]
    wf = build_evidence(f)
    assert [r["url"] for r in wf.requests] == ["https://api.example.co.uk/a?x=1", "https://data.third.org/c"]
    assert wf.requests[1]["json_data"] == {
        "country": "VN",
        "sessionId": "[redacted]",
    }  # parsed form body kept


def test_duplicates_collapse_then_budget_drops_oldest(tmp_path) -> None:
    reqs = [
        {"url": f"https://www.example.co.uk/api?page={i // 2}", "method": "GET", "resource_type": "fetch"}
        for i in range(40)
    ]
    f = folders.ours(tmp_path / "t", requests=reqs)
    ev = build_evidence(f, max_tokens=60)
    assert ev.tokens <= 60 and ev.requests
    assert ev.requests[-1]["url"].endswith("page=19") and ev.requests[-1]["repeated"] == 2
    kinds = [d["reason"].split(":")[0].split(" ")[0] for d in ev.dropped]
    assert kinds.count("duplicate") == 20 and "budget" in kinds
    assert all(d["reason"] == "budget: over 60 tokens" for d in ev.dropped if d["index"] % 2 == 0)
    nav = build_evidence(f, flt="naveval", max_tokens=60)
    assert nav.requests[0]["url"] != ev.requests[0]["url"] or len(nav.requests) != len(ev.requests)


def test_missing_parts_are_problems_not_crashes(tmp_path) -> None:
    f = folders.ours(tmp_path / "t", steps=0, with_capture=False)
    ev = build_evidence(f)
    assert ev.screenshot is None and "no capture.json" in ev.problems and "no screenshots" in ev.problems
    empty = tmp_path / "empty"
    empty.mkdir()
    rec = read_task_folder(empty)
    assert "no result.json" in rec.problems


def test_evidence_is_deterministic(tmp_path) -> None:
    f = folders.webretriever(tmp_path / "t")
    assert build_evidence(f).digest() == build_evidence(f).digest()
    assert build_evidence(f).digest() != build_evidence(f, flt="naveval").digest()


def test_blob_markers_and_clean() -> None:
    assert (
        blob_marker("QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0")
        == "base64 data"
    )
    assert blob_marker("\x00\x01abc") == "binary data"
    assert blob_marker("consumer-price-inflation-by-country") is None
    assert clean({"Cookie": "x", "events": [1], "a": {"b": None, "c": [""]}, "k": "v"}) == {"k": "v"}


def test_odd_screenshot_names(tmp_path) -> None:
    f = folders.webretriever(tmp_path / "t", steps=0)
    for name in ("screenshot_2.png", "step-10.jpg", "notes.png", "3_marked.png", "1.png"):
        folders.png(f / "trajectory" / name, (1, 2, 3))
    (f / "trajectory" / "readme.txt").write_text("x")
    assert [p.name for p in ordered_screenshots(f / "trajectory")] == [
        "1.png",
        "screenshot_2.png",
        "step-10.jpg",
    ]


def _fit_by_popping(kept, max_tokens):
    """The definition of the budget: drop the oldest while the list is over it."""
    kept = list(kept)
    while kept and evidence.count_tokens(json.dumps(kept, ensure_ascii=False)) > max_tokens:
        kept.pop(0)
    return kept


def test_the_budget_fit_keeps_what_dropping_one_by_one_keeps() -> None:
    rng = random.Random(7)
    for _ in range(200):
        kept = [
            {"index": i, "url": f"https://x.example/{i}", "body": "é" * rng.randrange(0, 300)}
            for i in range(rng.randrange(0, 40))
        ]
        budget = rng.randrange(1, 3000)
        dropped: list = []
        selected = [(r["index"], {k: v for k, v in r.items() if k != "index"}) for r in kept]
        got = newest_within(
            selected, dropped, budget, collapse=False, count=evidence.count_tokens, formatted=dict
        )
        assert got == _fit_by_popping(kept, budget)
        assert sorted(d["index"] for d in dropped) == [
            r["index"] for r in kept[: len(kept) - len(_fit_by_popping(kept, budget))]
        ]


def _collapsed_then_popped(reqs, budget):
    """The recipe formatting every request: collapse consecutive equals, then the budget."""
    out: list = []
    for i, raw in enumerate(reqs):
        f = format_request(normalise(raw, "webfovea", keep_form_bodies=True))
        if out and {k: v for k, v in out[-1].items() if k not in ("index", "repeated")} == f:
            out[-1]["repeated"] = out[-1].get("repeated", 1) + 1
        else:
            out.append({"index": i, **f})
    return [{k: v for k, v in r.items() if k != "index"} for r in _fit_by_popping(out, budget)]


def test_newest_first_shows_the_judge_what_formatting_everything_shows() -> None:
    """Repeats (some differing only in a noise key, which cleaning removes) across the cut:
    the kept requests, their `repeated` counts and the tokens are those of the full recipe,
    and every request is either kept or recorded as dropped."""
    rng = random.Random(11)
    for _ in range(60):
        reqs = []
        for i in range(rng.randrange(0, 60)):
            page = rng.choice([1, 1, 2, 3])
            body = {"page": page, "pad": "y" * rng.randrange(0, 200), "session": rng.choice(["a", "b"])}
            reqs.append({"url": f"https://www.example.co.uk/api?p={page}", "method": "POST"})
            reqs[-1].update(resource_type="fetch", body_json=body if i % 3 else {"page": page})
        f_reqs = [dict(r) for r in reqs]
        budget = rng.randrange(1, 2000)
        with tempfile.TemporaryDirectory() as d:
            ev = build_evidence(folders.ours(Path(d) / "t", requests=f_reqs), max_tokens=budget)
        assert ev.requests == _collapsed_then_popped(reqs, budget)
        # Each request kept (as its run's first) or dropped, once: a kept run's repeats are drops.
        assert len(ev.requests) + len(ev.dropped) == len(reqs)
        assert len({d["index"] for d in ev.dropped}) == len(ev.dropped)


def test_the_budget_fit_is_linear_in_the_capture(tmp_path, monkeypatch) -> None:
    """Characters counted for tokens, for a capture 10 times the budget: once for each
    request, plus a few exact counts of the kept list — not once per dropped request."""
    reqs = [
        {
            "url": f"https://api.example.co.uk/stats/api/table?page={i}",
            "method": "POST",
            "resource_type": "fetch",
            "body_json": {"rows": [{"country": f"C{i}-{j}", "value": i * j} for j in range(8)]},
        }
        for i in range(3000)
    ]
    f = folders.ours(tmp_path / "t", requests=reqs)
    counted = [0]
    real = evidence.count_tokens

    def counting(text: str) -> int:
        counted[0] += len(text)
        return real(text)

    monkeypatch.setattr(evidence, "count_tokens", counting)
    ev = build_evidence(f, max_tokens=20_000)
    assert len(ev.dropped) > 2000 and ev.tokens <= 20_000
    capture_chars = len(json.dumps(reqs))
    assert counted[0] < 2 * capture_chars  # one request at a time: 3000 drops re-counted would be ~1500x


def test_only_the_requests_the_budget_reaches_are_formatted(tmp_path, monkeypatch) -> None:
    """A capture 30 times the budget: the old requests are dropped unformatted (a 50 MB
    capture took 22-29 s when every request was cleaned first)."""
    reqs = [
        {
            "url": f"https://api.example.co.uk/stats/api/table?page={i}",
            "method": "POST",
            "resource_type": "fetch",
            "body_json": {"rows": [{"country": f"C{i}-{j}", "value": i * j} for j in range(8)]},
        }
        for i in range(3000)
    ]
    f = folders.ours(tmp_path / "t", requests=reqs)
    calls = [0]
    real = evidence.format_request

    def counting(req):
        calls[0] += 1
        return real(req)

    monkeypatch.setattr(evidence, "format_request", counting)
    ev = build_evidence(f, max_tokens=7_000)
    assert 0 < len(ev.requests) < 100 and len(ev.requests) + len(ev.dropped) == 3000
    assert calls[0] <= 2 * len(ev.requests) + 2
    assert all(d["reason"] == "budget: over 7000 tokens" for d in ev.dropped)
