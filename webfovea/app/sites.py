"""The proving ground for the length of a run, and the names task files and records give it.

A task file names the proving ground `http://proving-ground/...` (its ports change with every
start); `resolve_site_url` points such a task at the running sites, and `port_aliases` gives the
runner the same names back so a resume on new ports is the same run."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from webfovea.app.errors import AppError
from webfovea.app.reporter import Reporter

if TYPE_CHECKING:
    from webfovea_proving_ground.serve import SitesHandle

PROVING_GROUND = "http://proving-ground"
PROVING_GROUND_FRAMES = PROVING_GROUND + "-frames"  # its second origin (documents, iframes)
BENCHMARK_PREFIX = "webfovea_"  # the benchmarks' distributions (packages/) import as webfovea_*
INSTALL_HINT = (
    "the proving ground is not installed: pip install -e packages/webfovea-proving-ground "
    "(and the other packages/ of a clone of webfovea; scripts/setup installs them all)"
)


@contextlib.contextmanager
def needs_proving_ground(what: str) -> Iterator[None]:
    """Around an import of the proving ground (its own distribution, docs/plugins.md): when it is
    not installed, an AppError saying what needed it and how to install it."""
    try:
        yield
    except ModuleNotFoundError as e:
        if not (e.name or "").startswith(BENCHMARK_PREFIX):
            raise
        raise AppError(f"{what}: {INSTALL_HINT}") from None


def go_offline() -> None:
    """Every browser this process or its workers launch from now on is offline ($WEBFOVEA_OFFLINE)."""
    import os

    from webfovea.browser.session import OFFLINE_ENV

    os.environ[OFFLINE_ENV] = "1"


@contextlib.contextmanager
def proving_ground(
    seed: int, ports: tuple[int, int] = (0, 0), reporter: Reporter | None = None
) -> Iterator[SitesHandle]:
    """The proving-ground sites for the length of a run; a taken port is a one-line error.

    The proving ground runs offline: its browsers resolve no name but localhost."""
    with needs_proving_ground("the proving ground's sites"):
        from webfovea_proving_ground.serve import start_sites

    go_offline()
    try:
        handle = start_sites(seed=seed, ports=ports)
    except OSError as e:
        raise AppError(str(e)) from None
    with handle:
        (reporter or Reporter()).note(f"proving ground: {handle.main_url} (frames from {handle.frame_url})")
        yield handle


def resolve_site_url(website: str, main_url: str) -> str:
    """`http://proving-ground/stats/` in a task file -> the running proving ground's URL."""
    if website.startswith(PROVING_GROUND + "/") or website == PROVING_GROUND:
        return main_url + website[len(PROVING_GROUND) :]
    return website


def port_aliases(sites: SitesHandle | None) -> dict[str, str] | None:
    """The running sites' per-start origins -> their stable names (left out of a run's identity)."""
    if sites is None:
        return None
    return {sites.main_url: PROVING_GROUND, sites.frame_url: PROVING_GROUND_FRAMES}
