"""The oracle through the real harness on built-in suite tasks (real sites, real Chromium).

With every component on, the oracle's decisions reach the page and it answers right.
Without coordinate alignment the harness sends 1920x1080, the oracle sees ~1430x804
(like a real provider) and the clicks land at ~3/4: the answer read from the page is wrong.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.task import Task
from webfovea_proving_ground.serve import SitesHandle
from webfovea_proving_ground.suites.builtin import load_builtin_suite

pytestmark = pytest.mark.asyncio(loop_scope="session")


def pick(sites: SitesHandle, failure_class: str, *, not_class: str | None = None) -> Task:
    """The first built-in task of a failure class (the suite is the other engineer's; ids may change)."""
    for task in load_builtin_suite(sites):
        if failure_class in task.failure_classes and (
            not_class is None or not_class not in task.failure_classes
        ):
            return task
    pytest.skip(f"no built-in task of class {failure_class!r}")


@pytest.mark.parametrize("failure_class", ["iframe", "fill"])
async def test_builtin_task_passes_with_all_components(sites, session, tmp_path: Path, failure_class):
    task = pick(sites, failure_class)
    result = await run_task(
        task,
        tmp_path / task.task_id,
        model="oracle",
        config=make_config(),
        session=session,
        capture=False,
        model_options={"contaminate_rate": 0.0, "continuation_rate": 0.0},
    )
    assert result.status == "finished"
    assert result.answer == str(task.answer)


async def test_misaligned_harness_gets_a_wrong_answer(sites, session, tmp_path: Path):
    task = pick(sites, "iframe", not_class="token")
    result = await run_task(
        task,
        tmp_path / task.task_id,
        model="oracle",
        config=make_config(disable=["coord_align"]),
        session=session,
        capture=False,
        model_options={"contaminate_rate": 0.0, "continuation_rate": 0.0},
    )
    # The oracle still answers from what the page shows: the filters never took effect.
    assert result.answer != str(task.answer)
