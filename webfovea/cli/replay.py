"""`webfovea replay`: an earlier run's recorded model replies against the current harness."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from webfovea.cli.common import (
    CapOpt,
    CoordsOpt,
    DisableOpt,
    OfflineOpt,
    ProfileOpt,
    build_config,
    fail,
    go_offline,
)
from webfovea.cli.runs import SUITES, _proving_ground, _run_and_summarise

if TYPE_CHECKING:
    pass


def replay(
    run_dir: Annotated[Path, typer.Argument(help="An earlier run folder (with tasks.json) to replay.")],
    profile: ProfileOpt = "webfovea",
    disable: DisableOpt = None,
    out_dir: Annotated[Path | None, typer.Option("--out", help="Where to write the replayed run.")] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="Proving-ground seed, if the run was the built-in suite.")
    ] = 0,
    coords: CoordsOpt = None,
    cap: CapOpt = None,
    offline: OfflineOpt = False,
) -> None:
    """Re-run the raw model replies recorded in RUN_DIR against the current harness."""
    if offline:
        go_offline()
    from webfovea.record import RecordError, read_run_info, read_run_tasks

    try:
        tasks = read_run_tasks(run_dir)
        run_info = read_run_info(run_dir)
    except RecordError as e:
        raise fail(str(e)) from None
    if not tasks:
        raise fail(f"{run_dir} has no tasks.json; replay needs a run folder written by `webfovea bench`")
    out_dir = out_dir or run_dir.with_name(run_dir.name + "-replay")
    model = f"replay:{run_dir}"
    # Recorded replies name targets the way the run's observation mode did (points or refs).
    recorded = (run_info.config or {}).get("observation") if run_info is not None else None
    config = build_config(model, profile, disable, coords, cap, observation=recorded)
    meta = {"model": model, "replay_of": str(run_dir)}
    suite = run_info.suite if run_info is not None else None
    if suite in SUITES or any(t.site for t in tasks):
        from webfovea.proving_ground.breakingweb.suite import load_breakingweb_suite
        from webfovea.proving_ground.suites.builtin import load_builtin_suite

        with _proving_ground(seed) as handle:
            loaded = (
                load_breakingweb_suite(handle, seed, paired=True)
                if suite == "breakingweb"
                else load_builtin_suite(handle, seed=seed)
            )
            fresh = {t.task_id: t for t in loaded}
            tasks = [fresh.get(t.task_id, t) for t in tasks]  # the sites' new ports
            _run_and_summarise(
                tasks,
                out_dir,
                model=model,
                config=config,
                workers=1,
                cdp_urls=None,
                backend="local",
                address=None,
                base_url=None,
                meta=meta,
                handle=handle,
            )
        return
    _run_and_summarise(
        tasks,
        out_dir,
        model=model,
        config=config,
        workers=1,
        cdp_urls=None,
        backend="local",
        address=None,
        base_url=None,
        meta=meta,
    )
