"""CPU seconds per test, browsers and servers included: where the suite's time goes.

The suite's wall time is bounded below by its CPU time over the cores (docs/results/suite.md),
and pytest's `--durations` shows wall time only, inflated by whatever else runs. With
``WEBFOVEA_TEST_CPU=FILE`` every test appends one JSON line to FILE: its node id, wall seconds
and the CPU seconds (user + system) its worker process and every descendant spent from the start
of its set-up to the end of its tear-down (a module fixture's cost lands on the module's first
test), with its start time and xdist worker. Where the cgroup-v1 CPU accounting controller is
writable (root on these machines: /sys/fs/cgroup/cpuacct), each worker moves itself into its own
accounting group and the CPU is that group's: every descendant counts, the Chromium processes
that re-parent themselves to init included (the /proc walk lost them, and with them most of a
CLI test's CPU). Otherwise it is read from /proc: processes that exited and whose parent exited
too are lost, which undercounts.
"""

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ENV = "WEBFOVEA_TEST_CPU"
_TICKS = os.sysconf("SC_CLK_TCK")
_CPUACCT = Path("/sys/fs/cgroup/cpuacct")
_group: list[Path | None] = []  # this worker's accounting group, once looked for


def _accounting_group() -> Path | None:
    """This process's own cpuacct group (made and joined on first use), or None."""
    if not _group:
        group = _CPUACCT / f"webfovea-test-{os.getpid()}"
        try:
            group.mkdir(exist_ok=True)
            (group / "cgroup.procs").write_text(str(os.getpid()))
            _group.append(group)
        except OSError:
            _group.append(None)
    return _group[0]


def _cpu_now() -> float:
    group = _accounting_group()
    if group is not None:
        try:
            return int((group / "cpuacct.usage").read_text()) / 1e9
        except OSError:
            pass
    return tree_cpu(os.getpid())


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            text = Path(f"/proc/{pid}/task/{task}/children").read_text()
            kids.extend(int(p) for p in text.split())
    except OSError:
        pass
    return kids


def _own_and_reaped(pid: int) -> float:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    # The command name is in parentheses and may hold spaces; fields 14-17 follow it.
    fields = stat[stat.rindex(")") + 2 :].split()
    return sum(int(v) for v in fields[11:15]) / _TICKS


def tree_cpu(root: int) -> float:
    """CPU seconds of `root` and all its live descendants, with their reaped children."""
    total, todo, seen = 0.0, [root], set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        total += _own_and_reaped(pid)
        todo.extend(_children(pid))
    return total


def pytest_unconfigure(config: pytest.Config) -> None:
    """Leave this worker's accounting group and remove it (a group goes only when empty)."""
    del config
    group = _group[0] if _group else None
    if group is None:
        return
    try:
        (_CPUACCT / "cgroup.procs").write_text(str(os.getpid()))
        group.rmdir()
    except OSError:
        pass  # a child still in it (a leaked browser): it goes when that process ends


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    out = os.environ.get(ENV)
    if not out:
        yield
        return
    cpu0, wall0, start = _cpu_now(), time.monotonic(), time.time()
    yield
    cpu, wall = _cpu_now() - cpu0, time.monotonic() - wall0
    line = {
        "test": item.nodeid,
        "cpu": round(cpu, 2),
        "wall": round(wall, 2),
        "start": round(start, 2),  # epoch seconds: the run's timeline, worker by worker
        "worker": os.environ.get("PYTEST_XDIST_WORKER", "main"),
    }
    with open(out, "a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")
