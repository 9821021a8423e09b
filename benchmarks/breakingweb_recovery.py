"""Every applicable family's recovery plan on chosen BreakingWeb base tasks, with the oracle:
pass = the backend state meets the task's obligations and breaks no invariant. It checks that an
environment's pages let a careful agent recover from each family (seed 003's "recoverable"
rule) beyond the one cheapest task per family that tests/breakingweb/test_design_rules.py runs.

    .venv/bin/python benchmarks/breakingweb_recovery.py social-reply-01 social-message-01 \
        [--families contradictory_update,shuffled_list] [--seed 0]
    .venv/bin/python benchmarks/breakingweb_recovery.py --matrix [--seed 0]

`--matrix` runs the design rules' "recoverable" check in full: every family (the extensions
too) on every registered official environment it applies to, each on that environment's
cheapest applicable task (fewest plan steps).

Prints one line a variant: id, PASS/FAIL, the harness's steps, the audit's firings, the
obligations met (a retrieval task's are request predicates over the session's request log) and
the first invariants broken, and for a retrieval task its answer, which must match too; the last
line counts the passes.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
from pathlib import Path

from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.browser.session import BrowserSession
from webfovea.config import HarnessConfig
from webfovea.eval.scoring import score_answer
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.environments import present_official
from webfovea_breakingweb.interventions import FAMILIES
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.suite import load_breakingweb_suite
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_proving_ground.serve import start_sites


def matrix(seed: int) -> set[str]:
    """`<task>--<family>` for every family on every official environment it applies to, on the
    environment's cheapest applicable task."""
    out = set()
    tasks = stateful_tasks(seed)
    for env in present_official():
        for fam in FAMILIES.values():
            fits = [t for t in tasks.values() if t.app == env and fam.refusal(t, APPS[env]) is None]
            if fits:
                out.add(f"{min(fits, key=lambda t: (len(t.plan), t.task_id)).task_id}--{fam.short}")
    return out


async def main(base: list[str], families: list[str], seed: int, only: set[str] | None = None) -> int:
    passed = total = 0
    with start_sites(seed=seed) as sites:
        os.environ[SECRET_ENV] = sites.control_secret
        suite = [
            t for t in load_breakingweb_suite(sites, seed=seed, pairing="sweep", families=["all"])
            if "--" in t.task_id and (t.task_id in only if only is not None else t.task_id.split("--")[0] in base)
            and (not families or t.task_id.split("--")[1] in families)
        ]  # fmt: skip
        session = await BrowserSession.launch()
        try:
            for task in suite:
                extra = task.model_extra or {}
                careful = task.model_copy(update={"plan": extra["recovery_plan"]})
                with tempfile.TemporaryDirectory() as out:
                    result = await run_task(
                        careful,
                        Path(out),
                        model="oracle",
                        config=HarnessConfig(max_steps=40),
                        session=session,
                    )
                with sites.control() as control:
                    diff, audit = control.diff(result.session_id), control.audit(result.session_id)["audit"]
                    requests = control.requests(result.session_id)
                # A retrieval task's obligations are request predicates (the log), and its answer counts.
                state = score_state(diff["diff"], extra["obligations"], extra["noise"], requests)
                ok = state.passed and (task.state_changing or score_answer(result.answer, task.answer).passed)
                broken = [(c["entity"], c["id"], c["field"]) for c in state.invariants_broken[:3]]
                total, passed = total + 1, passed + ok
                said = [] if task.state_changing else [f"answer={result.answer!r} expected={task.answer!r}"]
                print(
                    task.task_id, "PASS" if ok else "FAIL", result.steps, len(audit), state.obligations_met,
                    broken, *said, flush=True,
                )  # fmt: skip
        finally:
            await session.close()
    print(f"{passed}/{total} variants recovered")
    return 0 if passed == total else 1


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tasks", nargs="*", help="base task ids (e.g. social-reply-01)")
    ap.add_argument("--matrix", action="store_true", help="every family on every official environment")
    ap.add_argument(
        "--families", default="", help="short family names, comma-separated (default: all that apply)"
    )
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    if not a.tasks and not a.matrix:
        ap.error("name base tasks or give --matrix")
    fams = [f for f in a.families.split(",") if f]
    raise SystemExit(asyncio.run(main(a.tasks, fams, a.seed, matrix(a.seed) if a.matrix else None)))
