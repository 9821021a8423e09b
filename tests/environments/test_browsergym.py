"""BrowserGym's MiniWoB++ tasks through webfovea's harness: BrowserGym sets each task up on the
harness's own page, a scripted model acts on what the structured observation shows, and
BrowserGym's `validate` gives the reward that scores the run."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("browsergym.miniwob", reason="BrowserGym is an optional extra (docs/browsergym.md)")

from webfovea.agent import run_task  # noqa: E402
from webfovea.config import make_config  # noqa: E402
from webfovea.driving.environment import EnvironmentError, make_environment  # noqa: E402
from webfovea.environments.browsergym.catalog import BrowserGymMissing, task_ids  # noqa: E402
from webfovea.environments.browsergym.tasks import browsergym_tasks  # noqa: E402
from webfovea.eval.summary import score_result  # noqa: E402
from webfovea.models.base import ModelInput, ModelReply, Usage  # noqa: E402
from webfovea.task import EnvironmentSpec  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _ref(snapshot: str, role: str, name: str | None = None, nth: int = 0) -> str:
    label = rf' "{re.escape(name)}"' if name is not None else ""
    refs = re.findall(rf"- {role}{label}[^\n]*?\[ref=(e\d+)\]", snapshot)
    assert len(refs) > nth, (role, name, snapshot)
    return refs[nth]


def plan(goal: str) -> list[tuple[str, str, str | None, int, dict[str, str]]]:
    """The steps a careful person takes for a goal: (action, role, name, nth, extra args)."""
    if goal == "Click the button.":
        return [("click", "button", "Click Me!", 0, {})]
    if m := re.fullmatch(r"Click button (\w+), then click button (\w+)\.", goal):
        return [("click", "button", m[1], 0, {}), ("click", "button", m[2], 0, {})]
    if m := re.fullmatch(r"Click button (\w+)\.", goal) or re.fullmatch(
        r'Click on the "(.+)" button\.', goal
    ):
        return [("click", "button", m[1], 0, {})]
    if m := re.fullmatch(r'Enter "(.+)" into the text field and press Submit\.', goal):
        return [("fill", "textbox", None, 0, {"content": m[1]}), ("click", "button", "Submit", 0, {})]
    if m := re.fullmatch(r'Enter the password "(.+)" into both text fields and press submit\.', goal):
        return [
            ("fill", "textbox", None, 0, {"content": m[1]}),
            ("fill", "textbox", None, 1, {"content": m[1]}),
            ("click", "button", "Submit", 0, {}),
        ]
    if m := re.fullmatch(
        r'Enter the username "(.+)" and the password "(.+)" into the text fields and press login\.', goal
    ):
        return [
            ("fill", "textbox", None, 0, {"content": m[1]}),
            ("fill", "textbox", None, 1, {"content": m[2]}),
            ("click", "button", "Login", 0, {}),
        ]
    if goal == "Focus into the textbox.":
        return [("click", "textbox", None, 0, {})]
    if m := re.fullmatch(r"Select (.+) from the list and click Submit\.", goal):
        return [("select", "combobox", None, 0, {"option": m[1]}), ("click", "button", "Submit", 0, {})]
    if m := re.fullmatch(r"Select (.*) and click Submit\.", goal):
        names = [n for n in re.split(r",\s*", m[1]) if n]
        steps = [("click", "checkbox|radio", n, 0, {}) for n in names]
        return [*steps, ("click", "button", "Submit", 0, {})]
    if goal == 'Close the dialog box by clicking the "x".':
        return [("click", "button", "Close", 0, {})]
    raise AssertionError(f"no plan for {goal!r}")


class MiniwobSolver:
    """A scripted model for the MiniWoB tasks below: it reads only what a model is given (the
    goal and the snapshot text) and names each target by its reference."""

    def __init__(self) -> None:
        self.done = 0

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        steps = plan(inp.task)
        if self.done >= len(steps):
            return ModelReply("Thought: all done\nAction: finished(content='done')", Usage(1, 1))
        action, role, name, nth, extra = steps[self.done]
        self.done += 1
        ref = _ref(inp.snapshot or "", f"(?:{role})", name, nth)
        args = ", ".join([f"ref='{ref}'", *(f"{k}='{v}'" for k, v in extra.items())])
        return ModelReply(f"Thought: {action} {name or role}\nAction: {action}({args})", Usage(1, 1))

    async def aclose(self) -> None:
        pass


TASKS = [
    "miniwob.click-test",
    "miniwob.click-test-2",
    "miniwob.click-button",
    "miniwob.click-button-sequence",
    "miniwob.enter-text",
    "miniwob.enter-password",
    "miniwob.login-user",
    "miniwob.focus-text",
    "miniwob.click-checkboxes",
    "miniwob.click-option",
    "miniwob.choose-list",
    "miniwob.click-dialog",
]
# The test's sample: one task per kind of step the solver takes that no other test here takes
# (fills, checkboxes, a select, a dialog); click-test, click-test-2 and click-button* run below.
# All of TASKS: benchmarks/miniwob_tasks.py (docs/results/suite.md).
SAMPLE = ["miniwob.login-user", "miniwob.click-checkboxes", "miniwob.choose-list", "miniwob.click-dialog"]


async def test_miniwob_tasks_are_set_up_acted_on_and_scored_by_browsergym(session, tmp_path: Path) -> None:
    config = make_config(observation="structured")
    for task_id in SAMPLE:
        (task,) = browsergym_tasks(f"browsergym:{task_id}", seed=3)
        result = await run_task(
            task, tmp_path / task_id, model=MiniwobSolver(), config=config, session=session
        )
        # The episode ended by BrowserGym's own `done`, with its reward: the score of the run.
        assert result.status == "env_done", (task_id, result.status, result.error)
        assert result.state is not None and result.state.score == 1.0, (task_id, result.state)
        assert result.task and not result.task.startswith("(BrowserGym task")  # its goal was the instruction
        assert score_result(task, result).passed
        saved = json.loads((tmp_path / task_id / "result.json").read_text())
        assert saved["state"]["judged_by"] == "environment" and saved["state"]["benchmark_task"] == task_id


async def test_a_wrong_action_is_scored_as_browsergym_scores_it(session, tmp_path: Path) -> None:
    """Clicking the other button ends click-test-2's episode with no reward: the run fails,
    whatever the model says afterwards."""

    class Wrong(MiniwobSolver):
        async def next_reply(self, inp: ModelInput) -> ModelReply:
            target = re.fullmatch(r"Click button (\w+)\.", inp.task)
            assert target is not None
            other = "TWO" if target[1] == "ONE" else "ONE"
            ref = _ref(inp.snapshot or "", "button", other)
            return ModelReply(f"Thought: x\nAction: click(ref='{ref}')", Usage(1, 1))

    (task,) = browsergym_tasks("browsergym:miniwob.click-test-2", seed=1)
    result = await run_task(
        task, tmp_path / "t", model=Wrong(), config=make_config(observation="structured"), session=session
    )
    assert result.status == "env_done" and result.state is not None and result.state.score == 0.0
    assert not score_result(task, result).passed


async def test_a_task_that_ends_before_the_episode_is_scored_at_the_end(session, tmp_path: Path) -> None:
    """The model says it finished without acting: BrowserGym is asked once more when the task
    ends, and its reward (none) is what the run scores."""

    class Quitter(MiniwobSolver):
        async def next_reply(self, inp: ModelInput) -> ModelReply:
            return ModelReply("Thought: x\nAction: finished(content='done')", Usage(1, 1))

    (task,) = browsergym_tasks("browsergym:miniwob.click-test")
    config = make_config(observation="structured", disable=["verify"])
    result = await run_task(task, tmp_path / "q", model=Quitter(), config=config, session=session)
    assert result.status == "finished"
    assert result.state is not None and result.state.score == 0.0 and result.state.done is False
    assert not score_result(task, result).passed


async def test_specs_name_tasks_and_bad_specs_say_what_exists() -> None:
    assert "miniwob.click-test" in task_ids("miniwob") and len(task_ids("miniwob")) > 100
    assert task_ids("miniwob.click-test-*") == ["miniwob.click-test-2", "miniwob.click-test-transfer"]
    with pytest.raises(BrowserGymMissing, match="webfovea runs miniwob"):
        task_ids("webarena.1")
    with pytest.raises(BrowserGymMissing, match="no miniwob task matches"):
        task_ids("miniwob.no-such-task")
    with pytest.raises(EnvironmentError, match="unknown environment kind 'gym'"):
        make_environment(EnvironmentSpec(kind="gym", name="x"))
    with pytest.raises(EnvironmentError, match="unknown BrowserGym task"):
        make_environment(EnvironmentSpec(kind="browsergym", name="miniwob.nope"))


async def test_bench_runs_a_browsergym_spec_and_scores_it_by_the_reward(session, tmp_path: Path) -> None:
    """`webfovea bench browsergym:miniwob.click-test-2` end to end: the solver's recorded replies
    replayed through the command line, with the summary scored by BrowserGym's reward."""
    import os
    import subprocess
    import sys

    recorded = tmp_path / "recorded"
    for task in browsergym_tasks("browsergym:miniwob.click-button*", seed=0):
        await run_task(
            task, recorded / task.task_id, model=MiniwobSolver(), config=make_config(observation="structured"),
            session=session,
        )  # fmt: skip
    out = tmp_path / "run"
    res = subprocess.run(
        [sys.executable, "-m", "webfovea.cli", "bench", "browsergym:miniwob.click-button*", "--seed", "0",
         "--model", f"replay:{recorded}", "--observation", "structured", "--out", str(out)],
        capture_output=True, text=True, timeout=600, env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip
    assert res.returncode == 0, res.stdout[-2000:] + res.stderr[-2000:]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["passed"] == 2 and summary["tasks"] == 2, summary
    for task_id in ("miniwob.click-button", "miniwob.click-button-sequence"):
        result = json.loads((out / task_id / "result.json").read_text())
        assert result["status"] == "env_done" and result["state"]["score"] == 1.0
    res = subprocess.run(
        [sys.executable, "-m", "webfovea.cli", "bench", "browsergym:webarena.1", "--out", str(tmp_path / "x")],
        capture_output=True, text=True, timeout=120, env={**os.environ, "COLUMNS": "200"},
    )  # fmt: skip
    assert res.returncode == 2 and "webfovea runs miniwob" in " ".join(res.stderr.split())


async def test_a_browsergym_run_resumes_though_its_pages_port_changed(tmp_path: Path) -> None:
    """Each start serves MiniWoB's pages on a new free port, which every task's start URL names;
    a re-run of the same command is still the same run and resumes (nothing left to run)."""
    import os
    import subprocess
    import sys

    script = tmp_path / "answer.txt"
    script.write_text("Action: finished(content='done')\n")
    env = {k: v for k, v in os.environ.items() if k != "MINIWOB_URL"} | {"COLUMNS": "200"}
    out = tmp_path / "run"
    args = [sys.executable, "-m", "webfovea.cli", "bench", "browsergym:miniwob.click-test", "--model",
            f"script:{script}", "--observation", "structured", "--out", str(out)]  # fmt: skip
    first = subprocess.run(args, capture_output=True, text=True, timeout=300, env=env)
    assert first.returncode == 0, first.stdout[-2000:] + first.stderr[-2000:]
    started = json.loads((out / "miniwob.click-test" / "result.json").read_text())["started_at"]
    again = subprocess.run(args, capture_output=True, text=True, timeout=300, env=env)
    assert again.returncode == 0, again.stdout[-2000:] + again.stderr[-2000:]
    assert "changed" not in again.stderr
    # Resumed, not re-run: the task's result is the first run's.
    assert json.loads((out / "miniwob.click-test" / "result.json").read_text())["started_at"] == started
