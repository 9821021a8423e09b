"""`webfovea notes`: operating notes per site from judged runs, and their publication once
people reviewed them (docs/site-notes.md).

`write_site_notes(RUN..., writer, OUT)`: every task a judge found successful (RUN/judge, as
`webfovea manual` reads it) is grouped by its site (skills/site_notes.py `site_key`); the writer
model turns each site's trajectories into `OUT/<site>.md` (drafts), and `OUT/site_notes.json`
says what each was written from. People review the drafts as they review manuals
(`OUT/reviews.jsonl`, judge/manuals/reviews.py: accept, edit, reject, keyed by the file stem);
`publish_site_notes(OUT, DIR)` writes to DIR the accepted notes and the edited texts only — the
folder a harness reads (`site_notes_dir`). A draft nobody reviewed is not published.
"""

from __future__ import annotations

import asyncio
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webfovea.app.errors import AppError
from webfovea.app.reporter import Reporter
from webfovea.judge.manuals import verdicts
from webfovea.judge.manuals.facts import Trajectory, read_trajectory_facts
from webfovea.record import write_json_atomic, write_text_atomic
from webfovea.skills.site_notes import note_name, site_key
from webfovea.task import Task

SUMMARY = "site_notes.json"


@dataclass
class SiteNotesResult:
    out_dir: Path
    written: dict[str, list[str]] = field(default_factory=dict)  # site -> the task folders used
    failed: dict[str, str] = field(default_factory=dict)  # site -> why no notes were written
    usage: dict[str, int] = field(default_factory=dict)


def _successes(run_dirs: list[Path]) -> dict[str, list[tuple[str, Path, Trajectory]]]:
    """Per site, the (task id, folder, facts) of every task judged successful, in run order."""
    from webfovea.judge.run import record_ids, task_folders

    by_site: dict[str, list[tuple[str, Path, Trajectory]]] = {}
    for run in run_dirs:
        records = verdicts(run)
        if not records:
            raise AppError(f"{run} was never judged: run `webfovea judge run {run} --method M` first")
        for folder, tid in sorted(record_ids(task_folders(run)).items()):
            rec = records.get(tid)
            if rec is None or rec.verdict is not True:
                continue
            try:
                traj = read_trajectory_facts(folder)
            except ValueError:
                continue
            result_site = site_key(_website(folder) or "")
            if result_site:
                by_site.setdefault(result_site, []).append((tid, folder, traj))
    return by_site


def _website(folder: Path) -> str | None:
    import json

    try:
        website = json.loads((folder / "result.json").read_text()).get("website")
    except (OSError, ValueError, AttributeError):
        return None
    return str(website) if website else None


def write_site_notes(
    run_dirs: list[Path],
    writer: str,
    out_dir: Path,
    *,
    base_url: str | None = None,
    reporter: Reporter | None = None,
) -> SiteNotesResult:
    from webfovea.judge.site_notes import NotesError, write_notes
    from webfovea.models.base import ModelError
    from webfovea.models.factory import make_model

    reporter = reporter or Reporter()
    by_site = _successes(run_dirs)
    if not by_site:
        raise AppError("no task of these runs was judged successful: there is nothing to learn notes from")
    out_dir.mkdir(parents=True, exist_ok=True)
    result = SiteNotesResult(out_dir, usage={"prompt_tokens": 0, "completion_tokens": 0, "calls": 0})

    async def one(site: str, items: list[tuple[str, Path, Trajectory]]) -> None:
        first = items[0]
        task = Task(task_id=f"site-notes:{site}", task=first[2].task, website=_website(first[1]) or "")
        try:
            model: Any = make_model(writer, task=task, base_url=base_url)
        except ValueError as e:
            raise AppError(f"--writer: {e}") from None
        try:
            written = await write_notes(model, site, [t for _, _, t in items])
        except (ModelError, NotesError) as e:
            result.failed[site] = f"the writer failed: {e}"
            return
        finally:
            if hasattr(model, "aclose"):
                await model.aclose()
        write_text_atomic(out_dir / note_name(site), written.text)
        result.written[site] = [str(f) for _, f, _ in items]
        for key in ("prompt_tokens", "completion_tokens"):
            result.usage[key] += int(written.usage.get(key, 0))
        result.usage["calls"] += 1
        reporter.note(f"notes for {site}: from {len(items)} successful task(s)")

    async def all_sites() -> None:
        for site, items in sorted(by_site.items()):
            await one(site, items)

    asyncio.run(all_sites())
    write_json_atomic(
        out_dir / SUMMARY,
        {
            "writer": writer,
            "runs": [str(r) for r in run_dirs],
            "written": result.written,
            "failed": result.failed,
            "usage": result.usage,
        },
    )
    return result


def publish_site_notes(drafts: Path, to: Path) -> dict[str, str]:
    """Copy the reviewed notes of `drafts` into `to`: {file: accept | edit}; rejected and unreviewed
    drafts are left out (and a published file they left earlier removed)."""
    from webfovea.judge.manuals.reviews import ReviewFileError, read_reviews

    if not drafts.is_dir():
        raise AppError(f"{drafts} is not a folder of site notes (write them with `webfovea notes RUN...`)")
    try:
        reviews = read_reviews(drafts)
    except ReviewFileError as e:
        raise AppError(str(e)) from None
    to.mkdir(parents=True, exist_ok=True)
    published: dict[str, str] = {}
    for draft in sorted(drafts.glob("*.md")):
        review = reviews.get(draft.stem)
        target = to / draft.name
        if review is None or review.decision == "reject":
            target.unlink(missing_ok=True)
            continue
        if review.decision == "edit":
            write_text_atomic(target, review.text if review.text.endswith("\n") else review.text + "\n")
        else:
            shutil.copyfile(draft, target)
        published[draft.name] = review.decision
    return published
