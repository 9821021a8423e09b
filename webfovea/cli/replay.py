"""`webfovea replay`: an earlier run's recorded model replies against the current harness
(`webfovea.app.run_replay`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from webfovea.cli.common import (
    CapOpt,
    ConsoleReporter,
    CoordsOpt,
    DisableOpt,
    OfflineOpt,
    ProfileOpt,
    app_errors,
)


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
    from webfovea.app.replay import ReplayOptions, run_replay

    options = ReplayOptions(
        run_dir=run_dir,
        profile=profile,
        disable=list(disable or []),
        out_dir=out_dir,
        seed=seed,
        coords=coords,
        cap=cap,
        offline=offline,
    )
    with app_errors():
        run_replay(options, ConsoleReporter())
