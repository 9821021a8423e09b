"""Site notes: learnt per site from the tasks a judge found successful (the oracle writes them),
published only once reviewed, and shown with the instruction of a task on that site — scoped to
the registrable domain, or on a loopback host to its first path segment."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support.scripted import FINISH, ScriptedModel
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.skills.site_notes import site_key
from webfovea.task import Task


def _step(n: int, name: str, element: str, page: str) -> dict:
    target = {"tag": "button", "role": "button", "name": element}
    return {
        "step": n,
        "action": {"name": "click", "args": {"start_box": "(10,10)"}},
        "feedback": "The page changed: the table was filtered.",
        "fingerprint_before": {"main": {"url": f"http://127.0.0.1:9999{page}", "target": target}},
    }


def _run(root: Path) -> Path:
    """A judged run: two successful tasks on /stats, one on /filings, one failed on /stats."""
    run = root / "run"
    tasks = {
        "s1": ("/stats", True, ["Apply filters", "Download CSV"]),
        "s2": ("/stats", True, ["Apply filters"]),
        "s3": ("/stats", False, ["Cookie settings"]),
        "f1": ("/filings", True, ["Search filings"]),
    }
    (run / "judge").mkdir(parents=True)
    for tid, (page, ok, elements) in tasks.items():
        d = run / tid
        d.mkdir()
        (d / "result.json").write_text(
            json.dumps(
                {
                    "task_id": tid,
                    "task": f"task {tid}",
                    "website": f"http://127.0.0.1:9999{page}",
                    "status": "finished",
                }
            )
        )
        steps = [_step(i, "click", e, page) for i, e in enumerate(elements)]
        (d / "trajectory.jsonl").write_text("\n".join(json.dumps(s) for s in steps) + "\n")
        (run / "judge" / f"{tid}.json").write_text(
            json.dumps({"task_id": tid, "method": "rule", "judge_model": "rule", "verdict": ok})
        )
    return run


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "webfovea.cli", "notes", *args], capture_output=True, text=True, timeout=120
    )


def test_the_site_is_the_registrable_domain_or_the_loopback_path() -> None:
    assert (
        site_key("https://shop.example.co.uk/a/b")
        == site_key("https://www.example.co.uk/")
        == "example.co.uk"
    )
    assert site_key("http://127.0.0.1:4321/stats/compare?x=1") == "127.0.0.1/stats"
    assert site_key("http://127.0.0.1:5555/filings") == "127.0.0.1/filings"


async def test_notes_are_learnt_reviewed_published_and_shown(tmp_path: Path) -> None:
    run = _run(tmp_path)
    drafts, published = tmp_path / "drafts", tmp_path / "notes"
    r = _cli(str(run), "--writer", "oracle", "--out", str(drafts))
    assert r.returncode == 0, r.stderr
    stats = (drafts / "127.0.0.1__stats.md").read_text()
    # from the two successful /stats tasks only: the failed task's element is not there
    assert "The button 'Apply filters' was used in 2 of 2 tasks" in stats and "Cookie" not in stats
    assert (drafts / "127.0.0.1__filings.md").is_file()
    assert json.loads((drafts / "site_notes.json").read_text())["written"]["127.0.0.1/stats"]

    # published: only what people accepted or edited
    reviews = [
        {
            "task_id": "127.0.0.1__stats",
            "decision": "edit",
            "text": "# Site notes\n\n- Press Apply filters after choosing.",
        },
        {"task_id": "127.0.0.1__filings", "decision": "reject"},
    ]
    (drafts / "reviews.jsonl").write_text("\n".join(json.dumps(x) for x in reviews) + "\n")
    r = _cli("--publish", str(drafts), "--to", str(published))
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in published.glob("*.md")) == ["127.0.0.1__stats.md"]

    model = ScriptedModel([FINISH, FINISH])
    with serve_pages({"/stats": "<h1>Stats</h1>", "/filings": "<h1>Filings</h1>"}) as site:
        for tid, path in (("n1", "/stats"), ("n2", "/filings")):
            task = Task(task_id=tid, task="Find it", website=site.url(path))
            await run_task(
                task, tmp_path / tid, model=model, config=make_config(site_notes_dir=str(published))
            )
    shown_stats, shown_filings = model.seen[0].task, model.seen[1].task
    assert "Press Apply filters after choosing." in shown_stats and "reviewed by people" in shown_stats
    assert shown_filings == "Find it"  # rejected notes are never shown
    assert json.loads((tmp_path / "n1" / "result.json").read_text())["site_notes"] == "127.0.0.1/stats"


def test_bad_input_is_refused_with_what_to_do(tmp_path: Path) -> None:
    unjudged = tmp_path / "unjudged"
    unjudged.mkdir()
    r = _cli(str(unjudged), "--writer", "oracle")
    assert r.returncode != 0 and "never judged" in (r.stdout + r.stderr)
    r = _cli("--publish", str(tmp_path / "missing"), "--to", str(tmp_path / "x"))
    assert r.returncode != 0 and "not a folder of site notes" in (r.stdout + r.stderr)
