"""Ablation table on the built-in suite with the oracle: profile or disabled component ->
passed/total and +fixed/-broken against the full `webfovea` profile, plus whether every
broken task belongs to the disabled component's own failure class.

    .venv/bin/python benchmarks/ablations.py [--out runs/ablations] [--workers 2]

Runs `webfovea bench builtin` once per row (resumable: a finished row is not re-run).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from webfovea.record import Summary, read_summary_file

# disabled component -> the failure classes whose tasks it may break
ROWS: list[tuple[str, list[str], set[str]]] = [
    ("webfovea", [], set()),
    ("reference", [], set()),
    ("coord_align", ["coord_align"], {"coordinates"}),
    ("select", ["select"], {"select"}),
    ("fill", ["fill"], {"fill", "date_input", "autocomplete"}),
    ("token_strip", ["token_strip"], {"token"}),
    ("iframe_fallback", ["iframe_fallback"], {"iframe"}),
    ("hover", ["hover"], {"hover"}),
    ("find_text", ["find_text"], {"find_text"}),
    ("settle_aware", ["settle_aware"], {"late_answer"}),
    ("container_scroll", ["container_scroll"], {"scroll_box"}),
    ("person_pointer", ["person_pointer"], {"hover_intent"}),
]


def bench(out: Path, name: str, disable: list[str], workers: int) -> Summary:
    run_dir = out / name
    if not (run_dir / "summary.json").exists():
        cmd = [
            sys.executable,
            "-m",
            "webfovea.cli",
            "bench",
            "builtin",
            "--model",
            "oracle",
            "--workers",
            str(workers),
            "--out",
            str(run_dir),
        ]
        if name == "reference":
            cmd += ["--profile", "reference"]
        for d in disable:
            cmd += ["--disable", d]
        print("$", " ".join(cmd[2:]), flush=True)
        subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL)
    loaded = read_summary_file(run_dir)
    if loaded is None or loaded[1]:
        raise SystemExit(f"{run_dir}: the run did not complete (no summary.json)")
    return loaded[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path("runs/ablations"))
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    base = bench(args.out, "webfovea", [], args.workers)
    base_pass = {t for t, r in base.per_task.items() if r.passed}
    lines = ["| run | passed/total | +fixed/-broken | broken tasks outside its class |", "|---|---|---|---|"]
    for name, disable, classes in ROWS:
        s = bench(args.out, name, disable, args.workers)
        passed = {t for t, r in s.per_task.items() if r.passed}
        fixed, broken = passed - base_pass, base_pass - passed
        outside = sorted(t for t in broken if classes and not set(s.per_task[t].failure_classes) & classes)
        label = name if name in ("webfovea", "reference") else f"--disable {name}"
        out_txt = "—" if not classes else (", ".join(outside) or "none")
        lines.append(f"| {label} | {len(passed)}/{s.tasks} | +{len(fixed)}/−{len(broken)} | {out_txt} |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
