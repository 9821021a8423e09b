"""webfovea's AgentLab agent run as their users run it: inside browsergym-experiments' own
`ExpArgs.run()` and an AgentLab study (`make_study(...).run()`), on BrowserGym's own MiniWoB
environment (`gym.make`: it launches chromium itself and drives it with sync Playwright on the
calling thread), the results read with AgentLab's own `load_result_df`. AgentLab's real package,
installed as docs/browsergym.md says.

The models: a twin solver (gym_support.py) through the model factory, and computer-use models —
the real Anthropic and OpenAI clients with their computer tools, against a loopback endpoint
answering with the SDKs' own classes — whose tool call has to become BrowserGym's action."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("browsergym.experiments.loop", reason="BrowserGym is an optional extra")
pytest.importorskip("browsergym.miniwob", reason="BrowserGym is an optional extra")

from tests.environments.gym_support import (  # noqa: E402
    BGYM,
    close_twins,
    image_point,
    offline_browsergym,
    twin,
)
from webfovea.environments.browsergym.agent_loop import run_on_agent_loop  # noqa: E402
from webfovea.environments.browsergym.agentlab import WebfoveaAgentArgs  # noqa: E402
from webfovea.observation.sizing import fit_within  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def offline(tmp_path_factory: pytest.TempPathFactory):
    with offline_browsergym(tmp_path_factory.mktemp("bgym")):
        yield
    run_on_agent_loop(close_twins())


def _exp_args_run(agent_args: WebfoveaAgentArgs, task: str, seed: int, root) -> object:
    import browsergym.miniwob  # noqa: F401 - registers MiniWoB's gym environments
    from browsergym.experiments.loop import EnvArgs, ExpArgs, get_exp_result

    exp = ExpArgs(agent_args=agent_args, env_args=EnvArgs(task_name=task, task_seed=seed, max_steps=4))
    exp.prepare(root)
    exp.run()  # BrowserGym's loop: make_agent, gym.make, reset, get_action/step until done
    return get_exp_result(exp.exp_dir)


def _claude(x: int, y: int) -> list[Any]:
    from tests.models.fake_llm import Answer
    from webfovea_proving_ground.providers.sdk_replies import anthropic_message, tool_use_block

    click = tool_use_block("computer", {"action": "left_click", "coordinate": [x, y]})
    done = tool_use_block("finished", {"content": "done"})
    return [Answer(200, anthropic_message(click)), *[Answer(200, anthropic_message(done))] * 3]


def _gpt(x: int, y: int) -> list[Any]:
    from tests.models.fake_llm import Answer
    from webfovea_proving_ground.providers.sdk_replies import (
        computer_call,
        output_message,
        responses_response,
    )

    click = computer_call("call_1", {"type": "click", "x": x, "y": y, "button": "left"})
    done = output_message("Action: finished(content='done')")
    return [Answer(200, responses_response(click)), *[Answer(200, responses_response(done))] * 3]


# Claude's computer tool (Messages API, beta) and OpenAI's GA computer tool (Responses API).
COMPUTER_USE = [
    ("anthropic:claude-sonnet-4-6?interface=computer", 4, _claude),
    ("openai:gpt-5.4", 9, _gpt),
]


@pytest.mark.parametrize(("model", "seed", "answers"), COMPUTER_USE, ids=["claude", "gpt"])
def test_a_computer_use_models_tool_call_is_the_action_in_browsergyms_own_loop(
    tmp_path, model: str, seed: int, answers: Callable[[int, int], list[Any]]
) -> None:
    from tests.models.fake_llm import fake_llm

    task = "miniwob.click-button"
    args = WebfoveaAgentArgs(model=model)
    config = args.make_config()
    # Where the target is in the image the client will send (BrowserGym's screenshot: the
    # task's viewport x its scale factor, then the cap of the model's row).
    page, goal = run_on_agent_loop(twin(task, seed))
    view, scale = page.viewport_size, page._bgym_scale_factor
    shot = (round(view["width"] * scale), round(view["height"] * scale))
    sent = fit_within(shot, (config.screenshot_cap_width, config.screenshot_cap_height))
    name = goal.split('"')[1]
    x, y = run_on_agent_loop(_in_thread(image_point, page, f"button:text-is('{name}')", sent))
    x, y = round(x), round(y)
    # One answer per step the episode may take: an agent that drops the call asks again, and
    # fails on the reward, not on an endpoint out of answers. The clients' requests are checked
    # against the SDKs' types in tests/models (building those validators takes 20 s on a loaded
    # machine); here: from the model's call to BrowserGym's page.
    with fake_llm(answers(x, y), validate=False) as llm:
        args.base_url = llm.base_url
        result = BGYM.submit(_exp_args_run, args, task, seed, tmp_path).result()
        bodies = [r.body for r in llm.received]
    info = result.summary_info
    assert info["err_msg"] is None, info["stack_trace"]
    assert info["cum_reward"] == 1.0 and info["n_steps"] >= 1
    steps = result.steps_info
    assert steps[0].action == f"mouse_click({x * shot[0] / sent[0]:.1f}, {y * shot[1] / sent[1]:.1f})"
    assert steps[0].agent_info["extra_info"]["webfovea_action"]["name"] == "click"
    assert any(str(t.get("type", "")).startswith("computer") for t in bodies[0]["tools"])


async def _in_thread(fn, *args):
    import asyncio

    return await asyncio.to_thread(fn, *args)


def test_an_agentlab_study_runs_the_agent_and_agentlab_reads_its_results(tmp_path) -> None:
    from agentlab.analyze.inspect_results import load_result_df
    from agentlab.experiments.study import make_study
    from browsergym.experiments.benchmark import DEFAULT_BENCHMARKS
    from browsergym.experiments.loop import EnvArgs

    seeds = {"miniwob.click-test": 3, "miniwob.enter-text": 5}
    spec = "miniwob-twin:" + ";".join(f"{t}={s}" for t, s in seeds.items())
    # A list, as users write it: kept as a tuple, so AgentLab can index its table by the field.
    agent = WebfoveaAgentArgs(model=spec, disable=["verifier"])
    bench = DEFAULT_BENCHMARKS["miniwob_tiny_test"]()
    bench.env_args_list = [EnvArgs(task_name=t, task_seed=s, max_steps=5) for t, s in seeds.items()]

    def run() -> object:
        study = make_study(agent_args=[agent], benchmark=bench)
        study.run(n_jobs=1, parallel_backend="sequential", n_relaunch=1, exp_root=tmp_path)
        return study

    study = BGYM.submit(run).result()
    _, summary, _ = study.get_results(also_save=False)  # AgentLab's summary of the study
    assert list(summary["avg_reward"]) == [1.0] and list(summary["n_err"]) == [0], summary.to_dict()
    df = load_result_df(study.dir, progress_fn=None)
    rows = df.reset_index()
    assert sorted(rows["env.task_name"]) == sorted(seeds), rows.columns
    assert rows["err_msg"].isna().all(), list(rows["stack_trace"])
    assert list(rows["cum_reward"]) == [1.0, 1.0]
    assert (rows["n_steps"] >= 1).all()
    assert set(rows["agent.disable"]) == {("verifier",)} and set(rows["agent.model"]) == {spec}
