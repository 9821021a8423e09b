"""The BreakingWeb servers a gym environment runs against: the proving ground's sites (which
mount the stateful apps), started on loopback once per process and seed, as
`webfovea bench` and the tests start them (`start_sites`). BrowserGym drives Playwright's sync
API in the caller's thread; the sites serve from their own threads, so both live in one
process and an AgentLab worker needs nothing started beforehand.
"""

from __future__ import annotations

import atexit
import threading

from webfovea_proving_ground.serve import SitesHandle, start_sites

_lock = threading.Lock()
_running: dict[int, SitesHandle] = {}


def sites_for(seed: int) -> SitesHandle:
    """The running sites for `seed` (started on first use, stopped when the process exits)."""
    with _lock:
        handle = _running.get(seed)
        # A run's own sites (use_sites) are stopped by that run: a later episode in the same
        # process (a test module after an in-process `bench --harness text`) starts its own.
        if handle is None or not handle.running:
            handle = _running[seed] = start_sites(seed=seed)
            atexit.register(handle.stop)
        return handle


def stop_all() -> None:
    """Stop every server this process started (tests; the process exit does it otherwise)."""
    with _lock:
        for handle in _running.values():
            handle.stop()
        _running.clear()


def use_sites(handle: SitesHandle) -> None:
    """Run the environments against sites the caller started (`webfovea bench --harness`: the
    run's own sites, whose control plane scores it); the caller stops them."""
    with _lock:
        _running[int(handle.seed)] = handle
