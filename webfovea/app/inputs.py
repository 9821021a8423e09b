"""What bench's options turn into before the run: the model spec for `--via`, the fault plans
the oracle follows, Protocol II's manuals in each task, the price table."""

from __future__ import annotations

from pathlib import Path

from webfovea.app.errors import AppError
from webfovea.app.reporter import Reporter
from webfovea.app.sites import needs_proving_ground
from webfovea.task import Task

PROTOCOLS = ("I", "II", "III")


def _is_oracle(model: str) -> bool:
    return model == "oracle" or model.startswith("oracle:")


def oracle_via_spec(model: str, via: str) -> str:
    """`oracle` + `--via anthropic` -> `oracle:via=anthropic,provider=<the served model's row>`."""
    from webfovea.models.conventions import conventions_for

    with needs_proving_ground("--via"):
        from webfovea_proving_ground.oracle.via import DEFAULT_VIA_MODEL

    if not _is_oracle(model):
        raise AppError("--via goes with --model oracle (a real model already talks to its provider)")
    if via not in DEFAULT_VIA_MODEL:
        raise AppError(f"--via {via!r} is not served; use one of: {', '.join(DEFAULT_VIA_MODEL)}")
    options = model.partition(":")[2]
    row = conventions_for(DEFAULT_VIA_MODEL[via]).family
    extra = f"via={via}" + ("" if "provider=" in options else f",provider={row}")
    return f"oracle:{options + ',' if options else ''}{extra}"


def fault_names(faults: str | None, model: str) -> list[str]:
    """`--faults all` or a list -> the fault plans' names (the oracle's only)."""
    if not faults:
        return []
    if not _is_oracle(model):
        raise AppError("--faults makes the oracle follow fault plans: use it with --model oracle")
    with needs_proving_ground("--faults"):
        from webfovea_proving_ground.oracle.faults import parse_faults

    try:
        return parse_faults(faults)
    except ValueError as e:
        raise AppError(str(e)) from None


def check_protocol(protocol: str | None, docs: Path | None) -> None:
    if protocol is None and docs is not None:
        raise AppError("--manuals means Protocol II: add --protocol II")
    if protocol is None:
        return
    if protocol not in PROTOCOLS:
        raise AppError(f"unknown protocol {protocol!r}; use I, II or III")
    if (protocol == "II") != (docs is not None):
        raise AppError(
            "Protocol II needs --manuals DIR, and --manuals means Protocol II: give both or neither"
        )
    if docs is not None and not docs.is_dir():
        raise AppError(
            f"--manuals {docs} is not a folder of <task_id>.md manuals (write them with `webfovea manual`)"
        )
    if docs is not None and not any(docs.glob("*.md")):
        raise AppError(f"--manuals {docs} holds no <task_id>.md manual (write them with `webfovea manual`)")


def with_docs(tasks: list[Task], docs: Path, reporter: Reporter | None = None) -> list[Task]:
    """Protocol II: each task's manual appended to its instruction (tasks without one keep theirs)."""
    from webfovea.judge.manuals import docs_for
    from webfovea.judge.manuals.reviews import ReviewFileError, read_reviews

    try:
        reviews = read_reviews(docs)
    except ReviewFileError as e:
        raise AppError(f"--manuals: {e}") from None
    out_tasks, given = [], 0
    for t in tasks:
        manual = docs_for(t.task_id, docs, reviews)
        if manual:
            given += 1
            t = t.model_copy(
                update={"task": f"{t.task}\n\nOperational documentation for this site:\n{manual.strip()}"}
            )
        out_tasks.append(t)
    (reporter or Reporter()).note(f"protocol II: {given} of {len(tasks)} tasks have a manual in {docs}")
    return out_tasks


def read_prices(path: Path | None) -> dict[str, float] | None:
    if path is None:
        return None
    from webfovea.eval.costs import PriceError, read_prices

    try:
        return read_prices(path)
    except PriceError as e:
        raise AppError(str(e)) from None
