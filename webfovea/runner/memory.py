"""What a worker costs in memory, and giving back what a finished task left behind.

`release_memory` runs in the worker between tasks. `tree_breakdown` splits a worker's process
tree by role (the worker's Python, the Playwright driver, Chromium's browser, GPU, utility
processes, zygotes and each renderer) so the benchmarks can say where the memory goes.
Linux only: elsewhere the trim is a no-op and every breakdown is empty.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import json
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from pathlib import Path

from webfovea.runner.procs import PROC, children_map, cmdline, descendants

_libc: ctypes.CDLL | None = None
# glibc mallopt parameters (malloc.h)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD, _M_ARENA_MAX = -1, -3, -8


def _glibc() -> ctypes.CDLL | None:
    global _libc
    if _libc is None:
        name = ctypes.util.find_library("c")
        try:
            _libc = ctypes.CDLL(name) if name else None
        except OSError:
            _libc = None
    # musl and others have no mallopt/malloc_trim: every call below is then a no-op
    return _libc if _libc is not None and hasattr(_libc, "malloc_trim") else None


def tune_allocator() -> None:
    """Make freed memory go back to the system instead of staying in the worker. Call before any
    thread starts. Two arenas: asyncio.to_thread's workers otherwise get one arena each, and every
    arena keeps its own high-water mark. A fixed mmap threshold: glibc's default raises it to the
    largest block freed so far, after which decoded screenshots (megabytes each) come from the
    heap, fragment it, and are not given back when freed."""
    libc = _glibc()
    if libc is None:
        return
    libc.mallopt(_M_ARENA_MAX, 2)
    libc.mallopt(_M_MMAP_THRESHOLD, 256 * 1024)
    libc.mallopt(_M_TRIM_THRESHOLD, 1024 * 1024)


# Node's options for the Playwright driver. Its young generation by default grows to 3 x 16 MiB,
# filled mostly by screenshots passing through as base64; 1 MiB semi-spaces measured 24 MiB less
# PSS per driver (big strings go straight to the large-object space either way). --jitless: the
# driver relays CDP messages (JSON parsing is native code either way) and the machine code its JIT
# tiers generate for Playwright's bundle over a long run is the rest of its growth: 158-163 ->
# 125-131 MiB at the peak over 18 heavy pages, step times within noise (docs/memory.md).
# --expose-gc: for driver_preload.js, which keeps Playwright's sources at one byte a character
# and then collects their two-byte copies once.
DRIVER_NODE_OPTIONS = "--max-semi-space-size=1 --jitless --expose-gc"
DRIVER_PRELOAD = Path(__file__).with_name("driver_preload.js")
PRELOAD_SWITCH = "WEBFOVEA_DRIVER_PRELOAD"  # "off": the driver loads Playwright's sources as Node does
_USER_CHOICES = {
    "--max-semi-space-size": "semi-space",
    "--jitless": "jitless",
    "--expose-gc": "--expose-gc",
}  # option -> what the user's names


def tune_driver_env(env: MutableMapping[str, str]) -> None:
    """Add the driver's Node options and preload to `env` (the worker's environment, which the
    Playwright driver inherits), each unless the user already chose it (a semi-space size;
    --jitless or --no-jitless; WEBFOVEA_DRIVER_PRELOAD=off for no preload)."""
    current = env.get("NODE_OPTIONS", "")
    add = [o for o in DRIVER_NODE_OPTIONS.split() if _USER_CHOICES[o.split("=", 1)[0]] not in current]
    preload = str(DRIVER_PRELOAD)
    wanted = env.get(PRELOAD_SWITCH, "").strip().lower() != "off"
    if wanted and preload not in current and DRIVER_PRELOAD.is_file():
        add.append(f"--require {json.dumps(preload) if ' ' in preload else preload}")
    if add:
        env["NODE_OPTIONS"] = " ".join([current, *add]).strip()


def release_memory() -> None:
    """Collect cycles, then hand freed heap pages back to the system (between tasks). What a
    task leaves in the arenas would otherwise stay for the rest of the run."""
    gc.collect()
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)


def smaps_kib(pid: int) -> dict[str, int]:
    """The process's /proc/PID/smaps_rollup counters in KiB (Pss, Rss, Private_Dirty, ...);
    empty when it is gone or unreadable."""
    out: dict[str, int] = {}
    try:
        text = (PROC / str(pid) / "smaps_rollup").read_text()
    except OSError:
        return out
    for line in text.splitlines()[1:]:
        key, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            out[key] = int(parts[0])
    return out


def role_of(cmd: list[bytes]) -> str:
    """A process's role in a worker tree, from its command line."""
    # Chromium rewrites its argv into one space-separated string (its process title).
    args = b" ".join(cmd).split(b" ")
    if not args or not args[0]:
        return "other"
    exe = args[0].rsplit(b"/", 1)[-1]
    if b"python" in exe:
        return "python"
    if exe == b"node" or b"run-driver" in args:
        return "node driver"
    if b"crashpad" in exe:
        return "crashpad"
    kind = next((a[len(b"--type=") :] for a in args if a.startswith(b"--type=")), None)
    if kind is None:
        return "browser" if b"chrom" in exe or b"headless" in exe else "other"
    if kind == b"utility":
        sub = next((a.split(b"=", 1)[1] for a in args if a.startswith(b"--utility-sub-type=")), b"")
        return {b"network.mojom.NetworkService": "network", b"storage.mojom.StorageService": "storage"}.get(
            sub, "utility other"
        )
    if kind == b"renderer":
        # The tab strip/WebUI renderer headless Chromium keeps is not a page's renderer.
        return "renderer (webui)" if b"--top-chrome-webui" in args else "renderer"
    if kind == b"gpu-process":
        return "gpu"
    return kind.decode(errors="replace")  # zygote, ...


@dataclass
class Breakdown:
    """One sample of a process tree: PSS and private memory (USS) per role, in KiB."""

    pss: dict[str, int] = field(default_factory=dict)
    uss: dict[str, int] = field(default_factory=dict)
    count: dict[str, int] = field(default_factory=dict)
    renderers: list[int] = field(default_factory=list)  # PSS of each page renderer
    label: str = ""  # what the tree was doing (the benchmark's task id)

    @property
    def pss_mib(self) -> float:
        return sum(self.pss.values()) / 1024

    @property
    def uss_mib(self) -> float:
        return sum(self.uss.values()) / 1024

    def add(self, role: str, counters: dict[str, int]) -> None:
        pss = counters.get("Pss", 0)
        uss = counters.get("Private_Clean", 0) + counters.get("Private_Dirty", 0)
        self.pss[role] = self.pss.get(role, 0) + pss
        self.uss[role] = self.uss.get(role, 0) + uss
        self.count[role] = self.count.get(role, 0) + 1
        if role == "renderer":
            self.renderers.append(pss)

    def lines(self) -> list[str]:
        """A per-role table, largest first: role, processes, PSS MiB, private MiB."""
        rows = [f"{'role':<18} {'procs':>5} {'PSS MiB':>8} {'private MiB':>11}"]
        for role in sorted(self.pss, key=lambda r: -self.pss[r]):
            rows.append(
                f"{role:<18} {self.count[role]:>5} {self.pss[role] / 1024:>8.1f} {self.uss[role] / 1024:>11.1f}"
            )
        if self.renderers:
            each = ", ".join(f"{k / 1024:.0f}" for k in sorted(self.renderers, reverse=True))
            rows.append(f"{'  each renderer':<18} {'':>5} {each}")
        rows.append(f"{'total':<18} {sum(self.count.values()):>5} {self.pss_mib:>8.1f} {self.uss_mib:>11.1f}")
        return rows


def tree_breakdown(root: int, children: dict[int, list[int]] | None = None) -> Breakdown:
    """root (a worker process) and all its descendants, split by role."""
    kids = children_map() if children is None else children
    out = Breakdown()
    for pid in [root, *descendants(root, kids)]:
        counters = smaps_kib(pid)
        if counters:
            role = role_of(cmdline(pid))
            if role == "other":  # no command line to go by (exiting, or between fork and exec)
                role = f"other ({_comm(pid)})"
            out.add(role, counters)
    return out


def _comm(pid: int) -> str:
    """The kernel's name for a process (/proc/PID/comm), which survives a rewritten command line."""
    try:
        return (PROC / str(pid) / "comm").read_text().strip() or "?"
    except OSError:
        return "?"
