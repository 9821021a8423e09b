"""Functions that run in spawned child processes (they must be importable by module path)."""

from __future__ import annotations

from pathlib import Path

from webfovea.runner.queue import TaskQueue

# Steps of the stand-in agent's slow tasks (1 s each); a resume must use the same number.
SLOW_STEPS = 8


def claim_all(out: str, wid: str, conn) -> None:  # type: ignore[no-untyped-def]
    q = TaskQueue(Path(out))
    got = []
    while (tid := q.claim(wid)) is not None:
        got.append(tid)
        q.finish(tid, "finished")
    conn.send(got)


def run_fake_suite(out: str, url: str, faults_json: str, backend: str = "local") -> None:
    """A parent process for the Ctrl-C test: run_tasks with the stand-in agent."""
    import json

    from tests.runner.fake_agent import make_tasks, run_task
    from webfovea.config import make_config
    from webfovea.runner.api import RunOptions, run_tasks
    from webfovea.runner.supervisor import Policy

    tasks = make_tasks(url, json.loads(faults_json), steps=SLOW_STEPS)
    outcome = run_tasks(
        tasks,
        Path(out),
        RunOptions(
            model="fake",
            config=make_config(),
            workers=2,
            task_timeout_s=30.0,
            backend=backend,
            show_progress=True,
            policy=Policy(stall_s=20.0, poll_s=0.2, stop_grace_s=15.0),
            task_fn=run_task,
        ),
    )
    print(json.dumps({"complete": outcome.complete, "interrupted": outcome.interrupted}), flush=True)


if __name__ == "__main__":
    import sys

    run_fake_suite(*sys.argv[1:5])
