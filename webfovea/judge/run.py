"""`webfovea judge run`: judge every task folder of a run, with a cache, into RUN_DIR/judge/.

RUN_DIR/judge/<task_id>.json   one judge record per task (fields: docs/judge.md)
RUN_DIR/judge/summary.json     judged success rate, counts, usage
RUN_DIR/judge/.cache/<sha>.json  the judged outcome keyed by the hash of everything the judge saw
                                (method, model, protocol, prompt, evidence text, images): re-judging
                                is free and offline

Nothing crashes the run: a folder without screenshots or capture, a failing endpoint, an
unreadable verdict — each task gets a record saying what was missing or went wrong, and the
summary counts those apart.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webfovea.judge import catalog
from webfovea.judge.evidence import DEFAULT_MAX_TOKENS, build_evidence
from webfovea.judge.folder import folder_task_id, read_task_folder
from webfovea.judge.method import JudgeCall, JudgeMethod
from webfovea.judge.records import (
    JudgeRecord,
    JudgeSummary,
    safe_record_name,
    write_judge_record,
    write_summary,
)
from webfovea.record import RecordError, read_run_tasks, write_json_atomic
from webfovea.task import Task

PROTOCOLS = ("I", "II", "III")
JUDGE_DIR = "judge"


@dataclass
class JudgeOptions:
    method: str = "naveval-webfovea"  # a name in the judge catalogue (judge/catalog.py)
    judge: str | None = None  # model spec; None for a method that asks no model (rule)
    filter: str = "webfovea"
    protocol: str = "I"
    workers: int = 4
    cache: bool = True
    max_tokens: int = DEFAULT_MAX_TOKENS
    base_url: str | None = None
    model_options: dict[str, Any] | None = None  # the model clients' options (timeouts, retries)
    out_dir: Path | None = None  # where the records go; None: RUN_DIR/judge


def task_folders(run_dir: Path) -> list[Path]:
    """Every task folder of a run: a sub-folder holding result.json (not the judge's own)."""
    return sorted(
        p
        for p in Path(run_dir).iterdir()
        if p.is_dir() and p.name != JUDGE_DIR and not p.name.startswith(".") and (p / "result.json").exists()
    )


def _inside_run(folder: Path) -> bool:
    return folder.resolve().is_relative_to(folder.parent.resolve())


def record_ids(folders: list[Path]) -> dict[Path, str]:
    """The id each folder's judge record is kept under: its task id, unless another folder
    gives the same one — then the folder named after the id (else the first by name) keeps it
    and the others are recorded under their folder's name, so no record overwrites another."""
    ids = {f: folder_task_id(f) if _inside_run(f) else f.name for f in folders}  # links out: not read
    owners: dict[str, Path] = {}
    for f in sorted(folders, key=lambda f: (f.name != ids[f], f.name)):
        owners.setdefault(ids[f], f)
    taken = set(owners)
    out: dict[Path, str] = {}
    for f in folders:
        if owners[ids[f]] == f:
            out[f] = ids[f]
            continue
        key, n = f.name, 1
        while key in taken:
            key, n = f"{f.name}.{n}", n + 1
        taken.add(key)
        out[f] = key
    return out


def _run_tasks(run_dir: Path) -> dict[str, Task]:
    try:
        tasks = read_run_tasks(run_dir) or []
    except RecordError:
        tasks = []
    return {t.task_id: t for t in tasks}


def _cache_key(opts: JudgeOptions, digest: str) -> str:
    return hashlib.sha256(f"{opts.method}|{opts.judge}|{opts.protocol}|{digest}".encode()).hexdigest()


def _judge_model_name(opts: JudgeOptions, method: JudgeMethod) -> str:
    return opts.judge if method.model and opts.judge else method.name


def _error_record(folder: Path, opts: JudgeOptions, error: str) -> JudgeRecord:
    method = catalog.get(opts.method)
    return JudgeRecord(
        task_id=folder.name,
        method=method.name,
        judge_model=_judge_model_name(opts, method),
        protocol=opts.protocol,
        filter=method.filter or opts.filter,
        error=error,
    )


async def _judge_one(
    folder: Path, opts: JudgeOptions, model: Any, tasks: dict[str, Task], out: Path
) -> JudgeRecord:
    method = catalog.get(opts.method)
    if not _inside_run(folder):
        return _error_record(folder, opts, "the task folder is a link out of the run folder; not read")
    rec = read_task_folder(folder)
    images = rec.images() if method.images else []  # read inside the folder, checked (folder.py)
    flt = method.filter or opts.filter
    ev = build_evidence(rec, flt=flt, max_tokens=opts.max_tokens, with_answer=opts.protocol == "III")
    extra = method.name + method.prompt_id + "".join(hashlib.sha256(b).hexdigest() for _, b in images)
    if method.reads:  # what the method reads beyond the evidence is part of what it saw
        extra += json.dumps({k: getattr(rec, k) for k in method.reads}, sort_keys=True, ensure_ascii=False)
    digest = ev.digest(extra)
    record = JudgeRecord(
        task_id=rec.task_id,
        method=method.name,
        judge_model=_judge_model_name(opts, method),
        protocol=opts.protocol,
        filter=flt,
        evidence_sha256=digest,
        problems=list(ev.problems),
        dropped_requests=len(ev.dropped),
    )
    # Only model verdicts are cached: a method without a model is cheap, and may read what
    # the digest does not cover (the rule judge: the run's tasks.json).
    cache_file = out / ".cache" / f"{_cache_key(opts, digest)}.json"
    if opts.cache and method.model and cache_file.exists():
        try:
            cached = JudgeRecord.model_validate_json(cache_file.read_text(encoding="utf-8"))
            return cached.model_copy(update={"cached": True, "task_id": rec.task_id})
        except ValueError:
            pass  # a damaged cache entry is judged again
    if not rec.task:
        record.error = "nothing to judge: " + "; ".join(rec.problems or ["result.json names no task"])
        return record
    if rec.layout == "webretriever" and rec.status.upper() == "FAIL":
        # NavEval judges only SUCCESS / FAIL_CALL_USER / FAIL_SCROLLDOWN / "": a plain FAIL stays a failure.
        record.verdict, record.score = False, 0.0
        record.reasoning = "the agent reported FAIL; NavEval does not judge failed runs"
        return record
    call = JudgeCall(
        evidence=ev,
        record=rec,
        protocol=opts.protocol,
        model=model if method.model else None,
        task=tasks.get(rec.task_id),
        images=images,
    )
    judged = await method.judge(call)
    record.fill(judged)
    if opts.cache and method.model and judged.verdict is not None:
        write_json_atomic(cache_file, record)
    return record


async def judge_run_async(
    run_dir: Path,
    opts: JudgeOptions,
    *,
    on_done: Callable[[JudgeRecord], None] | None = None,
    model: Any = None,
) -> JudgeSummary:
    method = catalog.get(opts.method)  # an unknown name is a ValueError naming the others
    if opts.protocol not in PROTOCOLS:
        raise ValueError(f"unknown protocol {opts.protocol!r}; use {', '.join(PROTOCOLS)}")
    out = Path(opts.out_dir) if opts.out_dir else Path(run_dir) / JUDGE_DIR
    folders = task_folders(run_dir)
    if not folders:
        raise ValueError(f"{run_dir} holds no task folders (sub-folders with result.json)")
    if method.model and model is None:
        if not opts.judge:
            raise ValueError(
                f"--method {opts.method} needs --judge MODEL_SPEC (openai:…, anthropic:…, replay:PATH)"
            )
        from webfovea.judge.client import make_judge

        model = make_judge(opts.judge, base_url=opts.base_url, options=opts.model_options)
    tasks = _run_tasks(run_dir)
    ids = record_ids(folders)
    sem = asyncio.Semaphore(max(1, opts.workers))
    records: list[JudgeRecord] = []

    async def one(folder: Path) -> None:
        async with sem:
            try:
                r = await _judge_one(folder, opts, model, tasks, out)
            except Exception as e:  # a damaged folder gets a record, never ends the run
                r = _error_record(folder, opts, f"{type(e).__name__}: {' '.join(str(e).split())[:300]}")
            if ids[folder] != r.task_id:
                r.problems.append(
                    f"task id {r.task_id!r} is also another folder's; recorded as {ids[folder]!r}"
                )
                r.task_id = ids[folder]
            try:
                name = safe_record_name(r.task_id, folder.name)
            except ValueError as e:  # an id no file can be named after: keep the record, say so
                name = "task-" + hashlib.sha256(folder.name.encode()).hexdigest()[:12]
                r.error = r.error or str(e)
            write_judge_record(out, name, r)
            records.append(r)
            if on_done:
                on_done(r)

    try:
        await asyncio.gather(*(one(f) for f in folders))
    finally:
        if model is not None and hasattr(model, "aclose"):
            await model.aclose()
    summary = JudgeSummary.of(
        sorted(records, key=lambda r: r.task_id),
        method.name,
        _judge_model_name(opts, method),
        opts.protocol,
        method.filter or opts.filter,
    )
    write_summary(out, summary)
    return summary


def judge_run(run_dir: Path, opts: JudgeOptions, **kw: Any) -> JudgeSummary:
    return asyncio.run(judge_run_async(run_dir, opts, **kw))


def evidence_json(
    folder: Path, *, flt: str, protocol: str = "I", max_tokens: int = DEFAULT_MAX_TOKENS
) -> dict[str, Any]:
    ev = build_evidence(folder, flt=flt, max_tokens=max_tokens, with_answer=protocol == "III")
    return {**ev.to_json(), "evidence_sha256": ev.digest()}


def dumps(obj: Any) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False)
