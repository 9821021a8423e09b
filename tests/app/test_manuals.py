"""`webfovea manual` end to end, with the oracle as agent and as writer and the rule judge: a run
on the proving ground, its successes turned into manuals, a task the judge turned down re-run
and judged again, the fault variants left for review; every click line names its element by
text the page shows; and a Protocol II run with the manuals passes the tasks they are for."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

from webfovea.app import BenchOptions, run_bench
from webfovea.app.manuals import ManualOptions, run_manuals
from webfovea.app.sites import proving_ground
from webfovea.browser.session import BrowserSession
from webfovea.judge.manuals.facts import read_trajectory_facts
from webfovea.judge.records import read_judge_records, write_judge_record
from webfovea.judge.run import JudgeOptions, judge_run

TASKS = "stats-select-03-nz,stats-select-04-tr"
_QUOTED = re.compile(r"^\d+\. Click the \w[\w ]* '(.+?)'\.", re.MULTILINE)


async def _visible(pages: list[tuple[str, str]], seed: int) -> list[str]:
    """The (page, name) pairs whose name is NOT among the page's visible text."""
    missing = []
    with proving_ground(seed) as handle:
        session = await BrowserSession.launch()
        try:
            page = await session.fresh_page()
            for path, name in pages:
                await page.goto(handle.main_url.rstrip("/") + path)
                if await page.get_by_text(name, exact=True).filter(visible=True).count() == 0:
                    missing.append(f"{path}: {name!r}")
        finally:
            await session.close()
    return missing


def test_manuals_from_a_judged_run_then_protocol_two(tmp_path: Path) -> None:
    run = tmp_path / "run"
    first = run_bench(BenchOptions("builtin", only=TASKS, faults="wrong_filter", out_dir=run))
    assert first.summary.tasks == 4
    judge_run(run, JudgeOptions(method="rule"))
    records = read_judge_records(run / "judge")
    clean = sorted(t for t in records if "--" not in t)
    assert [records[t].verdict for t in clean] == [True, True]
    assert all(r.verdict is False for t, r in records.items() if "--" in t)  # the wrong filters
    # A judge that turned the first clean trajectory down: it is re-run, judged again, written.
    rejected = records[clean[0]].model_copy(update={"verdict": False, "reasoning": "filter not seen"})
    write_judge_record(run / "judge", clean[0], rejected)

    result = run_manuals(ManualOptions(run_dir=run, writer="oracle", retries=1))
    out = run / "manuals"
    assert sorted(result.written) == clean
    assert result.written[clean[0]] == str(out / "retries" / "1" / clean[0])
    assert result.written[clean[1]] == str(run / clean[1])
    review = json.loads((out / "needs_review.json").read_text())
    assert sorted(p["task_id"] for p in review) == sorted(t for t in records if "--" in t)
    assert all(p["why"].startswith("judged unsuccessful (rule)") and len(p["tried"]) == 2 for p in review)

    # Every click line names its element by text the page it was on shows.
    pairs = []
    for task_id, folder in result.written.items():
        text = (out / f"{task_id}.md").read_text()
        clicks = [f for f in read_trajectory_facts(Path(folder)).facts if f.action.startswith("click(")]
        names = _QUOTED.findall(text)
        assert clicks and len(names) == len(clicks) == text.count(". Click "), text
        pairs += [(f.page or "/", name) for f, name in zip(clicks, names, strict=True)]
    assert "marked point" not in "".join((out / f"{t}.md").read_text() for t in clean)
    assert asyncio.run(_visible(pairs, seed=0)) == []

    # Protocol II with those manuals: the task gets its manual and passes. One task is enough: the
    # one whose manual came from its retry (the other's is read from the run the same way).
    second = run_bench(
        BenchOptions("builtin", only=clean[0], protocol="II", docs=out, out_dir=tmp_path / "protocol-ii")
    )
    assert (second.summary.tasks, second.summary.passed) == (1, 1)
    for task_id in clean[:1]:
        told = json.loads((tmp_path / "protocol-ii" / task_id / "result.json").read_text())["task"]
        assert "Operational documentation for this site:" in told
        assert (out / f"{task_id}.md").read_text().strip() in told
