"""Every determinism pair of tests/breakingweb/test_determinism.py (every template's first task
clean, and every seed/server family once on each app it takes) hashed in two fresh processes
with different PYTHONHASHSEED: the initial state, the diff after one fixed write and the audit
log must be byte-identical in both. The test hashes every pair in its own process and a third
of them in one other process; this is the full check, for a new environment or family.

    .venv/bin/python benchmarks/breakingweb_determinism.py [--hashseeds 1,977]

Prints the pairs, the CPU seconds each process spent and the pairs that differ; exits 1 when any
does.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = """
import json, resource, sys
sys.path.insert(0, {root!r})
from webfovea_proving_ground.serve import start_sites
from tests.breakingweb.test_determinism import _pairs, _session_hashes
with start_sites() as h:
    hashes = _session_hashes(h.main_url, h.control_secret, _pairs())
use = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({{"hashes": hashes, "cpu": use.ru_utime + use.ru_stime}}))
"""


def hashes_in(hashseed: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", SCRIPT.format(root=str(ROOT))],
        env={**os.environ, "PYTHONHASHSEED": hashseed},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hashseeds", default="1,977", help="two PYTHONHASHSEED values, comma-separated")
    a = ap.parse_args()
    seeds = [s.strip() for s in a.hashseeds.split(",") if s.strip()]
    if len(seeds) != 2 or seeds[0] == seeds[1] or not all(s.isdigit() for s in seeds):
        ap.error(f"--hashseeds takes two different integers, not {a.hashseeds!r}")
    runs = []
    for proc in [hashes_in(s) for s in seeds]:  # side by side: each waits on its own HTTP
        out, err = proc.communicate(timeout=900)
        if proc.returncode != 0:
            raise SystemExit(f"a hashing process failed:\n{err[-3000:]}")
        runs.append(json.loads(out.strip().splitlines()[-1]))
    first, second = runs[0]["hashes"], runs[1]["hashes"]
    differ = sorted(k for k in first.keys() | second.keys() if first.get(k) != second.get(k))
    print(f"{len(first)} pairs; CPU-s per process: " + ", ".join(f"{r['cpu']:.1f}" for r in runs))
    for key in differ:
        print(f"DIFFERS {key}: {first.get(key)} != {second.get(key)}")
    print(
        f"{len(first) - len(differ)}/{len(first)} pairs identical under PYTHONHASHSEED {' and '.join(seeds)}"
    )
    raise SystemExit(1 if differ else 0)


if __name__ == "__main__":
    main()
