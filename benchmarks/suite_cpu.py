"""Where the test suite's CPU goes, by file and by test, from a `WEBFOVEA_TEST_CPU` profile.

    WEBFOVEA_TEST_CPU=/tmp/cpu.jsonl scripts/test
    .venv/bin/python benchmarks/suite_cpu.py /tmp/cpu.jsonl [--top 30] [--json OUT]

The suite is CPU-bound on the 2-core machines (docs/results/suite.md): its wall time is about
its CPU over the cores, so CPU, not a loaded machine's wall time, says which files to cut. With
root the profile counts each worker's cpuacct cgroup (every Chromium it started included).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path


def per_file(rows: list[dict]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = defaultdict(lambda: {"cpu": 0.0, "wall": 0.0, "tests": 0})
    for r in rows:
        f = out[r["test"].split("::")[0]]
        f["cpu"] += r["cpu"]
        f["wall"] += r["wall"]
        f["tests"] += 1
    return dict(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("profile", type=Path)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--json", type=Path, help="write the per-file table here")
    a = ap.parse_args()
    rows = [json.loads(line) for line in a.profile.read_text().splitlines() if line.strip()]
    if not rows:
        raise SystemExit(f"{a.profile} holds no test: run the suite with WEBFOVEA_TEST_CPU={a.profile}")
    files = per_file(rows)
    total = sum(f["cpu"] for f in files.values())
    print(
        f"{len(rows)} tests in {len(files)} files: {total:.0f} CPU-s ({total / 2:.0f} s on 2 cores at best)"
    )
    print(f"\n{'CPU-s':>7} {'share':>6} {'tests':>5}  file")
    for name, f in sorted(files.items(), key=lambda kv: -kv[1]["cpu"])[: a.top]:
        print(f"{f['cpu']:7.1f} {f['cpu'] / total:6.1%} {int(f['tests']):5d}  {name}")
    print(f"\n{'CPU-s':>7} {'wall-s':>7}  test")
    for r in sorted(rows, key=lambda r: -r["cpu"])[: a.top]:
        print(f"{r['cpu']:7.1f} {r['wall']:7.1f}  {r['test']}")
    if a.json:
        a.json.write_text(json.dumps(files, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
