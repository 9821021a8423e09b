"""The harness × condition table (docs/results/harness-effect.md) in one command: the oracle — an
instrument, not a model — through every harness on the same official BreakingWeb pairs, then the
table of those runs (`python -m webfovea_breakingweb.harnesses`).

    PYTHONPATH=.:packages/webfovea-proving-ground:packages/webfovea-breakingweb \
        .venv/bin/python benchmarks/harness_effect.py [--out runs/hx] [--arms vision,structured,...] \
        [--only T1,T2,...] [--workers 2] [--jobs 2] [--fresh]

Arms: `vision` and `structured` (webfovea's own harness, `--observation`), `text` and `gui`
(seed 003's contracts through the BrowserGym registration; gui at Claude's viewport) and
`browser-use` (browser-use's own agent loop, docs/breakingweb.md). Each arm is one
`webfovea bench breakingweb --model oracle --pairing official` into `<out>/<arm>`; `--jobs` arms
run at once (the text, gui and browser-use runners take their tasks one after another, so
running arms side by side is where their parallelism comes from). A re-run resumes every arm.
Prints each arm's command wall time, then the table; writes `<out>/harness-table.{json,md}`.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

# 32 official pairs (seed 42): every one of the 24 official families at least once, the seven
# official environments in turn (chosen by family, rarest first, then the least-used app).
PAIRS = (
    "ecommerce-cart-qty-01,education-subscribe-05,email-archive-inbox-04,finance-buy-market-watch-06,"
    "healthcare-view-result-02,social-engage-04,travel-book-filtered-02,ecommerce-cancel-order-05,"
    "education-read-announcement-05,email-compose-03,finance-rebalance-03,healthcare-compose-03,"
    "social-create-post-02,travel-map-save-04,ecommerce-add-address-03,education-catch-up-06,"
    "email-compose-01,finance-fund-and-buy-02,healthcare-cancel-appointment-05,social-save-home-03,"
    "travel-map-save-03,ecommerce-exchange-02,education-resubmit-02,email-label-new-04,"
    "finance-recurring-amount-04,healthcare-care-day-04,social-comment-05,travel-book-02,"
    "ecommerce-buy-checkout-01,education-favorite-03,email-compose-02,finance-cancel-order-01"
)
ARMS: dict[str, tuple[str, list[str]]] = {  # arm: (its label in the table, its bench options)
    "vision": ("webfovea vision", ["--observation", "vision"]),
    "structured": ("webfovea structured", ["--observation", "structured"]),
    "text": ("text", ["--harness", "text"]),
    "gui": ("gui (claude)", ["--harness", "gui", "--model-family", "claude"]),
    "browser-use": ("browser-use", ["--harness", "browser-use"]),
}


def run_arm(arm: str, out: Path, only: str, workers: int, fresh: bool) -> tuple[str, float, int]:
    cmd = [sys.executable, "-m", "webfovea.cli", "bench", "breakingweb", "--model", "oracle"]
    cmd += ["--pairing", "official", "--only", only, "--workers", str(workers), "--out", str(out / arm)]
    cmd += ARMS[arm][1] + (["--fresh"] if fresh else [])
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    with (out / f"{arm}.log").open("w", encoding="utf-8") as log:
        rc = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT, check=False).returncode
    return arm, time.monotonic() - t0, rc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("runs/hx"))
    ap.add_argument("--arms", default=",".join(ARMS))
    ap.add_argument("--only", default=PAIRS, help="base task ids (each runs clean and under its variant)")
    ap.add_argument("--workers", type=int, default=2, help="browsers per arm (webfovea's harness)")
    ap.add_argument("--jobs", type=int, default=2, help="arms run at once")
    ap.add_argument("--fresh", action="store_true", help="set earlier results aside")
    ap.add_argument("--table-only", action="store_true", help="only the table of the arms' folders")
    args = ap.parse_args()
    arms = [a.strip() for a in args.arms.split(",") if a.strip()]
    if unknown := [a for a in arms if a not in ARMS]:
        ap.error(f"unknown arm(s) {unknown}; choose from {', '.join(ARMS)}")
    if not args.table_only:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            jobs = [pool.submit(run_arm, a, args.out, args.only, args.workers, args.fresh) for a in arms]
            for job in jobs:
                arm, seconds, rc = job.result()
                print(f"{arm}: command wall time {seconds:.0f} s (exit {rc}; log {args.out / arm}.log)")
    runs = [f"{args.out / a}={ARMS[a][0]}" for a in arms if (args.out / a / "summary.json").exists()]
    table = [sys.executable, "-m", "webfovea_breakingweb.harnesses", *runs]
    table += ["--json", str(args.out / "harness-table.json"), "--md", str(args.out / "harness-table.md")]
    return subprocess.run(table, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
