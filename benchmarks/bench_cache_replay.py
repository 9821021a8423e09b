"""Model calls of a built-in task run twice with the workflow cache (docs/embedding.md).

    PYTHONPATH=. .venv/bin/python benchmarks/bench_cache_replay.py [TASK_ID ...] [--out DIR]

Starts the proving ground, runs each task with the oracle (the `webfovea` profile: the verifier
on, the oracle as the task's own verifier) and a fresh cache folder, then runs it again on the
unchanged sites. Prints, per run, the steps replayed from the cache and the model calls of
every role: act (`usage`), verify (`verifier_usage`), look/locate (`vision_usage`, when apart).
A run replayed whole should make none.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.record.schema import TaskResult
from webfovea_proving_ground.serve import start_sites
from webfovea_proving_ground.suites.builtin import load_builtin_suite

DEFAULT = ("stats-select-03-nz", "filings-find-01", "rankings-font-01")


def calls(r: TaskResult) -> str:
    verify = r.verifier_usage.model_calls if r.verifier_usage is not None else 0
    vision = r.vision_usage.model_calls if r.vision_usage is not None else 0
    replayed = r.cache["cached_steps"] if r.cache else 0
    return (
        f"{r.status:<9} answer {r.answer!r:<12} steps {r.steps}  replayed {replayed}  "
        f"model calls: act {r.usage.model_calls}, verify {verify}, vision {vision}"
    )


async def main(ids: list[str], out: Path) -> None:
    with start_sites() as sites:
        tasks = {t.task_id: t for t in load_builtin_suite(sites)}
        for task_id in ids:
            task, cache = tasks[task_id], out / task_id / "cache"
            for run in ("first", "second"):
                r = await run_task(
                    task, out / task_id / run, model="oracle", config=make_config(), cache=cache, offline=True
                )
                took = r.cache["model_from_step"] if r.cache else None
                why = (
                    f"  (the model from step {took}: {r.cache['why']})"
                    if r.cache and took is not None
                    else ""
                )
                print(f"{task_id:<22} {run:<6} {calls(r)}{why}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*", default=list(DEFAULT))
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    asyncio.run(main(args.ids, args.out or Path(tempfile.mkdtemp(prefix="cache-replay-"))))
