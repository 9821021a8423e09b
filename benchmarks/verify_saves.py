"""The `verify` switch against a misbehaving save, with the oracle default and with its
realistic quirks forced on: pass = the server really holds the one request (backend state,
not the answer). Oracle numbers: they measure the harness's gate, not a real model.

    .venv/bin/python benchmarks/verify_saves.py [--out /tmp/verify-saves]

Site: tests/support/saves.py (a form whose "Saved" toast can lie). Each cell is one run
from a fresh server; it prints status, steps, what the server holds and the taxonomy label.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the repository: tests.support

from tests.support.saves import serve_saves  # noqa: E402
from webfovea.agent import run_task  # noqa: E402
from webfovea.config import make_config  # noqa: E402
from webfovea.eval.taxonomy import Checks, classify  # noqa: E402
from webfovea.record import read_trajectory  # noqa: E402
from webfovea.task import Task  # noqa: E402
from webfovea_proving_ground.plan import L, answer_value, click, fill, text_has  # noqa: E402

TITLE = "Water data 2024"
SITES: dict[str, dict] = {
    "clean": {},
    "forged_success": {"lie_first": 1},
    "transient_503": {"fail_first": 1},
    "rate_limit_429": {"limit_s": 3},
    "covering_overlay": {"overlay": True},
}
ORACLES = {"default": "oracle", "quirky": "oracle:trust_toast_rate=1,fast_retry_rate=1,reclick_rate=1"}


def task(url: str) -> Task:
    answer = answer_value("saved")
    answer["verify"] = {"state": text_has(L("#items"), TITLE)}
    plan = [fill(L("#title"), TITLE), click(L("#save"), expect=text_has(L("#toast"), "Saved")), answer]
    return Task(
        task_id="save",
        task=f"Save a data request titled '{TITLE}'.",
        website=url,
        state_changing=True,
        plan=plan,
    )


async def cell(out: Path, site: str, oracle: str, verify: bool) -> tuple[bool, str]:
    folder = out / f"{site}-{oracle}-{'verify' if verify else 'noverify'}"
    with serve_saves(**SITES[site]) as srv:
        res = await run_task(
            task(srv.url("/form")),
            folder,
            model=ORACLES[oracle],
            capture=False,
            config=make_config(disable=[] if verify else ["verify"], max_steps=20),
        )
        items = list(srv.items)
    passed = items == [TITLE]
    label = classify(
        res,
        read_trajectory(folder),
        Checks(positives_ok=TITLE in items, invariants_ok=items.count(TITLE) <= 1),
    )
    return passed, f"{res.status:<12} {res.steps:>2} steps  holds {items}  {label or ''}"


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("/tmp/verify-saves"))
    args = ap.parse_args()
    totals: dict[tuple[str, bool], int] = {}
    for oracle in ORACLES:
        for site in SITES:
            for verify in (False, True):
                passed, line = await cell(args.out, site, oracle, verify)
                totals[(oracle, verify)] = totals.get((oracle, verify), 0) + int(passed)
                print(
                    f"{oracle:<8} {site:<17} verify {'on ' if verify else 'off'}  "
                    f"{'PASS' if passed else 'fail'}  {line}",
                    flush=True,
                )
    for (oracle, verify), n in sorted(totals.items()):
        print(f"{oracle:<8} verify {'on ' if verify else 'off'}: {n}/{len(SITES)} saves really stored")


if __name__ == "__main__":
    asyncio.run(main())
