"""Judged trajectories as training records for open models (`webfovea export --format sft|dpo`).

SFT: one record per executed step (or per episode): the system prompt, what the model was sent
(rebuilt by `steps.py`: text and screenshots as sent) and its cleaned reply. DPO: where one task
has a passed and a failed trajectory among the runs given, their first diverging step: the
prompt of the passed one, its reply chosen, the failed one's reply rejected.

Each set is written twice, in the two shapes trainers read (`shapes.py`, docs/export.md):
`*.jsonl` for LLaMA-Factory and ms-swift (registered in `dataset_info.json`), `*_trl.jsonl` for
TRL. Images are copied to `images/<sha256>.png` once; `metadata.json` declares the coordinate
convention; `provenance.jsonl` says where each record came from, line by line. The export is
written into a hidden sibling and renamed into place, like the WebRetriever export.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from webfovea.export.pairs import dpo_pairs
from webfovea.export.shapes import Images, Turn, dataset_info, dpo_records, sft_records
from webfovea.export.steps import APPROXIMATED, StepSample, TaskSkipped, step_samples
from webfovea.export.tasks import JudgedTask, judged_tasks
from webfovea.export.uitars import UITARS_SYSTEM, uitars_reply
from webfovea.export.webretriever import ExportError
from webfovea.record.confined import UnsafeFile

VERDICTS = ("pass", "any")
PER = ("step", "episode")
GRAMMARS = ("webfovea", "uitars")
MARK = "webfovea-training-export"  # metadata.json names it: --force replaces only such a folder


@dataclass
class TrainingOptions:
    fmt: str = "sft"
    per: str = "step"
    verdict: str = "pass"
    judge: str | None = None
    grammar: str = "webfovea"
    force: bool = False


@dataclass
class TrainingSummary:
    out_dir: Path
    records: int = 0
    tasks: int = 0  # tasks whose steps were exported
    duplicates: int = 0
    images: int = 0
    left_out_steps: int = 0  # rejected replies, cached steps, no screenshot, outside UI-TARS's grammar
    verdicts: dict[str, int] = field(default_factory=dict)  # "passed"/"failed"/"none" -> tasks
    skipped: dict[str, str] = field(default_factory=dict)  # task -> why it was left out


def _reply(sample: StepSample, grammar: str) -> str | None:
    return sample.reply if grammar == "webfovea" else uitars_reply(sample.thought, sample.action)


def _turn(task: JudgedTask, sample: StepSample, grammar: str) -> Turn | None:
    reply = _reply(sample, grammar)
    if reply is None:
        return None
    system = UITARS_SYSTEM if grammar == "uitars" else sample.system
    return Turn(system, list(sample.parts), reply, task.traj.folder)


def _digest(record: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(record, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def _prepare_out(out_dir: Path, force: bool) -> Path:
    if out_dir.exists() and (not out_dir.is_dir() or any(out_dir.iterdir())):
        if not force:
            raise ExportError(
                f"{out_dir} is not empty: export into a new folder, or give --force to replace it"
            )
        try:
            mark = json.loads((out_dir / "metadata.json").read_text(encoding="utf-8")).get("export")
        except (OSError, ValueError, AttributeError):
            mark = None
        if mark != MARK:
            raise ExportError(
                f"{out_dir} is not a training export (no metadata.json of one): --force will not replace it"
            )
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{out_dir.name}.partial-", dir=out_dir.parent))
    umask = os.umask(0)
    os.umask(umask)
    work.chmod(0o777 & ~umask)  # mkdtemp's 0700 is for the work in progress, not the export
    return work


def _finish(work: Path, out_dir: Path) -> None:
    """Put the finished export in place; an earlier one (--force) goes only once this one is whole."""
    if out_dir.exists():
        old = out_dir.with_name(f".{out_dir.name}.old-{os.getpid()}")
        out_dir.rename(old)
        work.rename(out_dir)
        shutil.rmtree(old, ignore_errors=True)
    else:
        work.rename(out_dir)


def _write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    with path.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def _check(opts: TrainingOptions) -> None:
    for value, allowed, what in (
        (opts.fmt, ("sft", "dpo"), "format"),
        (opts.per, PER, "--per"),
        (opts.verdict, VERDICTS, "--verdict"),
        (opts.grammar, GRAMMARS, "--grammar"),
    ):
        if value not in allowed:
            raise ExportError(f"unknown {what} {value!r}: use one of {', '.join(allowed)}")


def export_training(runs: list[Path], out_dir: Path, opts: TrainingOptions) -> TrainingSummary:
    """Write the SFT or DPO records of `runs` under `out_dir` (docs/export.md)."""
    _check(opts)
    runs, out_dir = [Path(r).absolute() for r in runs], Path(out_dir)
    tasks = judged_tasks(runs, opts.judge)  # ExportError: not a run, no judged task
    work = _prepare_out(out_dir, opts.force)
    summary = TrainingSummary(out_dir=out_dir)
    try:
        images = Images(work)
        samples: dict[int, list[StepSample]] = {}
        for i, task in enumerate(tasks):
            key = "none" if task.verdict.passed is None else "passed" if task.verdict.passed else "failed"
            summary.verdicts[key] = summary.verdicts.get(key, 0) + 1
            try:
                rewrite = uitars_reply if opts.grammar == "uitars" else None
                samples[i], left_out = step_samples(task.traj, rewrite)
                summary.left_out_steps += left_out
            except (TaskSkipped, UnsafeFile, OSError) as e:
                summary.skipped[task.label] = str(e)
        if opts.fmt == "sft":
            rows, trl, prov = _sft(tasks, samples, images, opts, summary)
            names = ("sft.jsonl", "sft_trl.jsonl")
        else:
            rows, trl, prov = _dpo(tasks, samples, images, opts, summary)
            names = ("dpo.jsonl", "dpo_trl.jsonl")
        _write_jsonl(work / names[0], rows)
        _write_jsonl(work / names[1], trl)
        _write_jsonl(work / "provenance.jsonl", prov)
        summary.records, summary.images = len(rows), len(images.seen)
        (work / "dataset_info.json").write_text(
            json.dumps(dataset_info(opts.fmt), indent=2), encoding="utf-8"
        )
        (work / "metadata.json").write_text(
            json.dumps(_metadata(tasks, opts, summary, names), indent=2, ensure_ascii=False), encoding="utf-8"
        )
        _finish(work, out_dir)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return summary


def _groups(
    task: JudgedTask, samples: list[StepSample], opts: TrainingOptions, summary: TrainingSummary
) -> list[tuple[list[Turn], list[int]]]:
    """The turns of each record, with their step numbers. Per episode, a step the grammar cannot
    write ends a record and the next one starts afresh with its full input (the history as text),
    so no conversation skips a step silently."""
    groups: list[tuple[list[Turn], list[int]]] = [([], [])]
    for s in samples:
        turn = _turn(task, s, opts.grammar)
        if turn is None:
            summary.left_out_steps += 1
            if groups[-1][0]:
                groups.append(([], []))
            continue
        if opts.per == "step" and groups[-1][0]:
            groups.append(([], []))
        groups[-1][0].append(turn)
        groups[-1][1].append(s.step)
    return [g for g in groups if g[0]]


Rows = tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]


def _sft(
    tasks: list[JudgedTask],
    samples: dict[int, list[StepSample]],
    images: Images,
    opts: TrainingOptions,
    summary: TrainingSummary,
) -> Rows:
    rows: list[dict[str, Any]] = []
    trl: list[dict[str, Any]] = []
    prov: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, task in enumerate(tasks):
        wanted = task.verdict.passed is True if opts.verdict == "pass" else task.verdict.passed is not None
        if i not in samples or not wanted:  # a task nothing judged is never training data
            continue
        built: list[tuple[dict[str, Any], dict[str, Any], list[int]]] = []
        try:  # the task whole or not at all: a screenshot linked out of its folder leaves it out
            for group, numbers in _groups(task, samples[i], opts, summary):
                built.append((*sft_records(group, opts.per, images), numbers))
        except (UnsafeFile, OSError) as e:
            summary.skipped[task.label] = str(e)
            continue
        exported = False
        for row, trl_row, numbers in built:
            digest = _digest(row)
            if digest in seen:  # the same input and reply again (a repeated step, a re-run)
                summary.duplicates += 1
                continue
            seen.add(digest)
            exported = True
            rows.append(row)
            trl.append(trl_row)
            prov.append({**task.provenance(), "steps": numbers})
        summary.tasks += exported
    return rows, trl, prov


def _dpo(
    tasks: list[JudgedTask],
    samples: dict[int, list[StepSample]],
    images: Images,
    opts: TrainingOptions,
    summary: TrainingSummary,
) -> Rows:
    rows: list[dict[str, Any]] = []
    trl: list[dict[str, Any]] = []
    prov: list[dict[str, Any]] = []
    seen: set[str] = set()
    for good, bad, k in dpo_pairs(tasks, samples):
        turn = _turn(tasks[good], samples[good][k], opts.grammar)
        rejected = _reply(samples[bad][k], opts.grammar)
        if turn is None or rejected is None or turn.reply == rejected:
            summary.left_out_steps += 1
            continue
        try:
            row, trl_row = dpo_records(turn, rejected, images)
        except (UnsafeFile, OSError) as e:
            summary.skipped[tasks[good].label] = str(e)
            continue
        digest = _digest(row)
        if digest in seen:
            summary.duplicates += 1
            continue
        seen.add(digest)
        rows.append(row)
        trl.append(trl_row)
        prov.append({"chosen": tasks[good].provenance(), "rejected": tasks[bad].provenance(), "step": k})
        summary.tasks += 1
    return rows, trl, prov


def _metadata(
    tasks: list[JudgedTask], opts: TrainingOptions, summary: TrainingSummary, names: tuple[str, str]
) -> dict[str, Any]:
    sizes = sorted({tuple(s) for t in tasks for s in t.image_sizes()})
    conventions = sorted({t.coordinate_convention() for t in tasks})
    return {
        "export": MARK,
        "format": opts.fmt,
        "files": {"sharegpt": names[0], "trl": names[1], "provenance": "provenance.jsonl"},
        "per": opts.per,
        "grammar": opts.grammar,
        "verdict": opts.verdict,
        "judge": opts.judge or "default (site truth, else the run's own scoring)",
        "coordinates": {
            "convention": conventions[0] if len(conventions) == 1 else conventions,
            "meaning": "pixels of the image file as sent (x right, y down, origin top left); "
            "norm1000/norm999: 0-1000 (0-999) of its width and height",
            "image_sizes": [list(s) for s in sizes],
        },
        "records": summary.records,
        "duplicates_dropped": summary.duplicates,
        "left_out_steps": summary.left_out_steps,
        "skipped_tasks": summary.skipped,
        "verdicts": summary.verdicts,
        "runs": sorted({str(t.traj.run) for t in tasks}),
        "approximated": list(APPROXIMATED),
    }
