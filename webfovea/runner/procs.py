"""The local process tree, read from /proc: who descends from whom, and what a process costs in
memory. Used to find a worker's browser, to check nothing outlives a run, and by the memory
benchmarks. Linux only; on other systems every lookup comes back empty."""

from __future__ import annotations

from pathlib import Path

PROC = Path("/proc")


def children_map() -> dict[int, list[int]]:
    """Parent pid → child pids, for every process readable at this instant."""
    out: dict[int, list[int]] = {}
    if not PROC.is_dir():
        return out
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            # The command name may hold spaces and parentheses: the fields start after the last ')'.
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue  # the process ended while we read
        out.setdefault(ppid, []).append(int(entry.name))
    return out


def descendants(root: int, children: dict[int, list[int]] | None = None) -> list[int]:
    """root's descendants, breadth-first (children before grandchildren)."""
    kids = children_map() if children is None else children
    out: list[int] = []
    queue = [root]
    while queue:
        for c in kids.get(queue.pop(0), []):
            out.append(c)
            queue.append(c)
    return out


def cmdline(pid: int) -> list[bytes]:
    try:
        return [a for a in (PROC / str(pid) / "cmdline").read_bytes().split(b"\0") if a]
    except OSError:
        return []


def memory_kib(pid: int) -> int:
    """Proportional set size (shared pages split among their users), else resident size; 0 if gone."""
    for name, key in (("smaps_rollup", "Pss:"), ("status", "VmRSS:")):
        try:
            for line in (PROC / str(pid) / name).read_text().splitlines():
                if line.startswith(key):
                    return int(line.split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return 0


def tree_memory_mib(root: int) -> float:
    """root and all its descendants, in MiB."""
    return sum(memory_kib(p) for p in [root, *descendants(root)]) / 1024
