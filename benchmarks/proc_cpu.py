"""Where a command's CPU goes, by kind of process: run it, sample /proc, print a table.

    .venv/bin/python benchmarks/proc_cpu.py [--out FILE.json] [--every 0.25] -- scripts/test

Every `--every` seconds it reads each process's CPU (utime + stime, /proc/PID/stat) and sorts
the process into a kind: the test workers, webfovea's CLIs and runner workers, Ray, Playwright's
driver (Node), Chromium by `--type` (browser, renderer, gpu-process, zygote, utility),
Tesseract, mypy, the rest by name. A process started after the command counts from its start,
one running before from the first sample; one that lives less than `--every` is missed. It
also reads /proc/stat: how busy the machine's cores were while the command ran. Linux only.
Used for docs/results/suite.md ("Where the CPU goes").
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

CHROME_TYPES = ("renderer", "gpu-process", "utility", "zygote", "crashpad-handler")


def kind(pid: str) -> str | None:
    try:
        args = [
            a.decode(errors="replace") for a in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") if a
        ]
        comm = Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return None
    line = " ".join(args)
    if "chrom" in comm or "chrom" in line[:200]:
        return "chrome:" + next((t for t in CHROME_TYPES if f"--type={t}" in line), "browser")
    if "run-driver" in line:
        return "node:playwright-driver"
    if comm.startswith("node"):
        return "node:other"
    if "tesseract" in comm:
        return "tesseract"
    if "python" in comm or "python" in line[:80] or comm.startswith(("ray", "raylet", "gcs_server")):
        if "mypy" in line:
            return "python:mypy"
        if "ray" in line or comm.startswith(("ray", "raylet", "gcs_server")):
            return "python:ray"
        if "execnet" in line or (len(args) > 1 and args[1] == "-u"):
            return "python:test-worker"
        if "webfovea" in line:  # before pytest: a CLI's --out is often under /tmp/pytest-of-…
            return "python:webfovea"
        if "pytest" in line:
            return "python:pytest"
        return "python:other"
    return "other:" + comm


def busy_jiffies() -> tuple[int, int]:
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


class Sampler:
    def __init__(self, every: float) -> None:
        self.every = every
        self.seen: dict[tuple[str, str], list] = {}  # (pid, start time) -> [kind, first, last]
        self.stop = threading.Event()
        self.tick = os.sysconf("SC_CLK_TCK")
        # Processes started after this count from zero; older ones from their first sample.
        self.since = float(Path("/proc/uptime").read_text().split()[0]) * self.tick

    def sample(self) -> None:
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except OSError:
                continue
            rest = stat[stat.rfind(")") + 2 :].split()
            cpu = (int(rest[11]) + int(rest[12])) / self.tick
            key = (pid, rest[19])
            if key in self.seen:
                self.seen[key][2] = cpu
            elif (k := kind(pid)) is not None:
                self.seen[key] = [k, 0.0 if int(rest[19]) >= self.since else cpu, cpu]

    def run(self) -> None:
        while not self.stop.is_set():
            self.sample()
            self.stop.wait(self.every)

    def table(self) -> dict[str, dict[str, float]]:
        cpu: collections.Counter[str] = collections.Counter()
        count: collections.Counter[str] = collections.Counter()
        for k, first, last in self.seen.values():
            cpu[k] += last - first
            count[k] += 1
        return {k: {"cpu_s": round(v, 1), "processes": count[k]} for k, v in cpu.most_common() if v >= 0.05}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, help="write the table as JSON here too")
    ap.add_argument("--every", type=float, default=0.25, help="seconds between samples")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    args = ap.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("give the command to measure after --, e.g. -- scripts/test")
    sampler = Sampler(args.every)
    thread = threading.Thread(target=sampler.run, daemon=True)
    busy0, total0 = busy_jiffies()
    t0 = time.monotonic()
    thread.start()
    rc = subprocess.call(command)
    sampler.stop.set()
    thread.join()
    sampler.sample()
    busy1, total1 = busy_jiffies()
    wall = time.monotonic() - t0
    table = sampler.table()
    report = {
        "command": command,
        "exit_code": rc,
        "wall_s": round(wall, 1),
        "cores": os.cpu_count(),
        "cores_busy": round((busy1 - busy0) / max(1, total1 - total0), 3),
        "by_kind": table,
    }
    print(
        f"\n{wall:.0f} s wall, cores {report['cores_busy']:.0%} busy; CPU by kind of process:",
        file=sys.stderr,
    )
    for k, row in table.items():
        print(f"  {row['cpu_s']:8.1f} s  {row['processes']:5d}  {k}", file=sys.stderr)
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n")
    return rc


if __name__ == "__main__":
    sys.exit(main())
