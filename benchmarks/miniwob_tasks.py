"""Every MiniWoB++ task the BrowserGym test's solver knows, through webfovea's harness: BrowserGym
sets each up on the harness's page, the scripted solver acts on the structured observation, and
BrowserGym's reward scores it. The test (tests/environments/test_browsergym.py) runs a sample of
four; this is the whole list, with the CPU it takes.

    PYTHONPATH=.:packages/webfovea-proving-ground:packages/webfovea-breakingweb \\
        .venv/bin/python benchmarks/miniwob_tasks.py [--seed 3] [--json out.json]

Exits 1 when a task is not set up, acted on and scored as the test expects.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.environments.test_browsergym import TASKS, MiniwobSolver
from webfovea.agent import run_task
from webfovea.browser.session import BrowserSession
from webfovea.config import make_config
from webfovea.environments.browsergym.tasks import browsergym_tasks
from webfovea.eval.summary import score_result


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


async def run_all(seed: int) -> list[dict[str, Any]]:
    config = make_config(observation="structured")
    rows = []
    session = await BrowserSession.launch()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for task_id in TASKS:
                (task,) = browsergym_tasks(f"browsergym:{task_id}", seed=seed)
                t0, c0 = time.monotonic(), _cpu()
                result = await run_task(
                    task, Path(tmp) / task_id, model=MiniwobSolver(), config=config, session=session
                )
                score = result.state.score if result.state is not None else None
                rows.append(
                    {
                        "task": task_id,
                        "status": result.status,
                        "score": score,
                        "passed": result.status == "env_done"
                        and score == 1.0
                        and score_result(task, result).passed,
                        "wall_s": round(time.monotonic() - t0, 2),
                        # this process only: the browser's processes are not its children
                        "cpu_s": round(_cpu() - c0, 2),
                    }
                )
    finally:
        await session.close()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    rows = asyncio.run(run_all(a.seed))
    for r in rows:
        print(
            f"{r['task']:34} {r['status']:10} score={r['score']} wall={r['wall_s']:6.2f}s cpu={r['cpu_s']:5.2f}s"
        )
    # After the browser closed: its processes were reaped, so their CPU is counted here.
    print(
        f"{sum(r['passed'] for r in rows)}/{len(rows)} passed; {_cpu():.1f} CPU-s in all (browser included)"
    )
    if a.json:
        a.json.write_text(json.dumps(rows, indent=1))
    sys.exit(0 if all(r["passed"] for r in rows) else 1)


if __name__ == "__main__":
    main()
