"""Hostile task folders: the judge reads nothing outside the folder and sends nothing it did
not check. What the fake judge endpoint on loopback received is the proof: the bytes of a
file outside the folder never appear in any request, whatever link or name led to them."""

from __future__ import annotations

import base64
import json
import os
import threading
from pathlib import Path

from tests.judge import folders
from tests.models.fake_llm import fake_llm, openai_ok
from webfovea.judge.evidence import build_evidence
from webfovea.judge.records import read_judge_records
from webfovea.judge.run import JudgeOptions, judge_run

FAST = {"base_delay_s": 0.05, "max_delay_s": 0.1, "timeout_s": 5.0}
YES = '{"all_passed": true, "score": 0.9, "reasoning": "ok", "details": []}'
SECRET = "SECRET-OUTSIDE-THE-FOLDER"


def _outside(tmp_path: Path) -> tuple[Path, Path, bytes]:
    """A private text file and a real PNG, both outside the run folder."""
    private = tmp_path / "private"
    private.mkdir()
    text = private / "id_rsa"
    text.write_text(SECRET + "\n")
    folders.png(private / "photo.png", (1, 2, 3))
    return text, private / "photo.png", (private / "photo.png").read_bytes()


def _sent_images(bodies: list[dict]) -> list[bytes]:
    out = []
    for body in bodies:
        for msg in body["messages"]:
            for part in msg["content"] if isinstance(msg["content"], list) else []:
                if part.get("type") == "image_url":
                    out.append(base64.b64decode(part["image_url"]["url"].split(",", 1)[1]))
    return out


def test_links_out_of_the_folder_and_fake_images_are_never_sent(tmp_path) -> None:
    text, photo, photo_bytes = _outside(tmp_path)
    run = tmp_path / "run"
    ours = folders.ours(run / "ours", steps=3)
    (ours / "step_002.png").unlink()
    (ours / "step_002.png").symlink_to(text)  # the last screenshot: a link to a private file
    (ours / "step_003.png").symlink_to(photo)  # a real PNG, but outside
    (ours / "step_004.png").write_text(SECRET)  # inside, but not a PNG
    (ours / "step_001.png").rename(ours / "inner.png")
    (ours / "step_001.png").symlink_to("inner.png")  # a link that stays inside is fine
    wr = folders.webretriever(run / "wr", steps=2)
    (wr / "trajectory" / "2.png").symlink_to(text)
    (wr / "trajectory" / "3.png").symlink_to(photo)
    (wr / "capture.json").unlink()
    outside_capture = tmp_path / "private" / "capture.json"
    outside_capture.write_text(json.dumps({"all_requests": [{"url": f"https://shop.example.com/{SECRET}"}]}))
    (wr / "capture.json").symlink_to(outside_capture)
    (run / "linked").symlink_to(folders.ours(tmp_path / "private" / "elsewhere"))  # a whole folder

    script = [openai_ok("1. a"), *[openai_ok("Reasoning: r\nScore: 4")] * 8, openai_ok('Status: "success"')]
    with fake_llm(script * 3, default=openai_ok(YES)) as srv:
        judge_run(
            run,
            JudgeOptions(
                method="naveval-webfovea",
                judge="openai:j",
                base_url=srv.base_url,
                model_options=FAST,
                workers=1,
            ),
        )
        judge_run(
            run,
            JudgeOptions(
                method="webjudge-webfovea",
                judge="openai:j",
                base_url=srv.base_url,
                model_options=FAST,
                workers=1,
                cache=False,
            ),
        )
        bodies = [r.body for r in srv.received]
    sent = json.dumps(bodies)
    images = _sent_images(bodies)
    assert SECRET not in sent and images
    assert all(img.startswith(b"\x89PNG\r\n\x1a\n") for img in images)
    assert photo_bytes not in images and not any(SECRET.encode() in img for img in images)
    # what stayed inside was sent: the linked-inside step 1 of ours, the webretriever's own 0.png and 1.png
    assert (ours / "inner.png").read_bytes() in images and (
        wr / "trajectory" / "1.png"
    ).read_bytes() in images
    records = read_judge_records(run / "judge")
    problems = " | ".join(records["ours"].problems)
    assert (
        "step_002.png: a link out of its folder" in problems
        and "step_003.png: a link out of its folder" in problems
    )
    assert "step_004.png: not a PNG image" in problems
    assert "capture.json: a link out of its folder" in " ".join(records["wr"].problems)
    assert records["linked"].error == "the task folder is a link out of the run folder; not read"
    assert records["linked"].usage["calls"] == 0


def test_the_evidence_names_the_last_screenshot_it_really_has(tmp_path) -> None:
    text, _, _ = _outside(tmp_path)
    f = folders.ours(tmp_path / "t", steps=2)
    (f / "step_002.png").symlink_to(text)
    ev = build_evidence(f)
    assert ev.screenshot == "step_001.png" and ev.image_bytes() == (f / "step_001.png").read_bytes()


def test_a_fifo_or_a_link_loop_is_a_problem_not_a_hang(tmp_path) -> None:
    f = folders.ours(tmp_path / "t", steps=2)
    (f / "capture.json").unlink()
    os.mkfifo(f / "capture.json")
    (f / "step_005.png").symlink_to(f / "step_006.png")
    (f / "step_006.png").symlink_to(f / "step_005.png")
    done: list = []
    worker = threading.Thread(target=lambda: done.append(build_evidence(f)), daemon=True)
    worker.start()
    worker.join(10)
    assert done, "reading the folder hung"
    problems = " | ".join(done[0].problems)
    assert "capture.json: not a regular file" in problems and "step_005.png: cannot be resolved" in problems


def test_a_result_with_fields_of_the_wrong_type_is_a_problem(tmp_path) -> None:
    f = folders.webretriever(tmp_path / "t")
    data = json.loads((f / "result.json").read_text())
    (f / "result.json").write_text(json.dumps({**data, "urls": 5, "actions": "x"}))
    ev = build_evidence(f)
    assert "result.json urls is not a list (int); ignored" in ev.problems and ev.urls == []


def test_two_folders_with_one_task_id_keep_two_records(tmp_path) -> None:
    from webfovea.judge.agree import agreement

    run = tmp_path / "run"
    for name, nav in (("t1", True), ("copy-of-t1", False), ("t1.1", True)):
        f = folders.ours(run / name, requests=[] if not nav else None)
        data = json.loads((f / "result.json").read_text())
        data.update(task_id="t1", truth={"nav_ok": nav, "answer_ok": True, "valid": True})
        (f / "result.json").write_text(json.dumps(data))
    with fake_llm([], default=openai_ok(YES)) as srv:
        summary = judge_run(
            run,
            JudgeOptions(
                method="naveval-webfovea", judge="openai:j", base_url=srv.base_url, model_options=FAST
            ),
        )
    records = read_judge_records(run / "judge")
    assert sorted(records) == ["copy-of-t1", "t1", "t1.1"] and summary.n == 3
    assert sorted(summary.per_task) == ["copy-of-t1", "t1", "t1.1"]
    assert records["t1"].problems == [] and "recorded as 'copy-of-t1'" in records["copy-of-t1"].problems[-1]
    result = agreement(run, bootstrap=0)
    assert result["n"] == 3 and result["agreement"] == 0.6667  # each folder paired with its own record
