"""BreakingWeb run as an AgentLab user runs a benchmark (headless chromium through BrowserGym's
own environment): AgentLab's `ExpArgs.run()` on the registered id, an agent that reads the raw
page (AgentLab's `use_raw_page_output`) and learns its task from AgentLab's `set_task_name`, and
AgentLab's own result loader reading the episode: its reward is the backend's verdict."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

pytest.importorskip("agentlab.experiments.loop", reason="AgentLab is not installed")

from agentlab.analyze.inspect_results import load_result_df  # noqa: E402
from agentlab.experiments import loop  # noqa: E402
from agentlab.experiments.loop import AbstractAgentArgs, EnvArgs, ExpArgs  # noqa: E402

import webfovea_breakingweb.gym  # noqa: E402, F401 - registers the environments
from webfovea_breakingweb.gym.plan_walker import PlanBidAgent  # noqa: E402


@dataclass
class PlanBidAgentArgs(AbstractAgentArgs):
    agent_name: str = "plan-bid"
    use_raw_page_output: bool = True

    def make_agent(self) -> PlanBidAgent:
        return PlanBidAgent()


def test_an_agentlab_experiment_is_scored_by_the_backend_and_loaded_by_agentlab(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # AgentLab counts every string of an observation with tiktoken for its step stats; tiktoken
    # downloads its encoding on first use, and the tests run offline: a length estimate instead.
    monkeypatch.setattr(loop, "count_tokens", lambda text, model="gpt-4": len(text) // 4)
    exp = ExpArgs(
        agent_args=PlanBidAgentArgs(),
        env_args=EnvArgs(task_name="breakingweb.calendar-accept-02", task_seed=0, max_steps=12),
    )
    exp.prepare(tmp_path)
    exp.run()
    assert exp.err_msg is None, exp.stack_trace

    df = load_result_df(tmp_path, progress_fn=None)
    assert len(df) == 1
    row = df.reset_index().iloc[0]
    assert row["env.task_name"] == "breakingweb.calendar-accept-02"
    assert row["cum_reward"] == 1.0 and row["terminated"] and not row["err_msg"]
