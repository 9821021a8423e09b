"""Run a bench's BreakingWeb tasks through the gym registration's contract (`--harness text|gui`)
and write the run folder every run writes: one folder per task with result.json (and
`harness_steps.jsonl`, what each step sent and did). The backend state is scored after the run by
the plug-in's `webfovea_after_tasks` hook (scoring.py, the same evaluator as any run), so the
task's session is kept when the episode ends.

Each episode ends when the agent sends a terminal verb (send_msg_to_user, report_infeasible), at
the step cap (the suite's 40) or at the per-task wall-clock cap (seed 003 §3: "model-specific
wall-clock caps of 600–1,200 s"; 600 s unless `--time-cap` says otherwise).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from webfovea.record import read_result, write_result
from webfovea.record.schema import TaskResult
from webfovea.task import Task
from webfovea_breakingweb.gym.grammar import Contract, contract
from webfovea_breakingweb.harnesses.conversation import Conversation, Sent
from webfovea_breakingweb.harnesses.oracle import Decider, GuiOracle, TextOracle
from webfovea_breakingweb.harnesses.prompts import fact, observation, system_prompt

TIME_CAP_S = 600.0  # the lower end of the paper's 600–1,200 s
MAX_STEPS = 40
STEPS_FILE = "harness_steps.jsonl"
ORACLE = "oracle"

# (the task's plan, the page, the contract) -> the decision-maker; a test may bring its own.
DeciderFactory = Callable[[list[dict[str, Any]], Callable[[], Any], Contract], Decider]


class HarnessMismatch(ValueError):
    """The run folder holds another harness's results."""


def oracle_decider(plan: list[dict[str, Any]], page_of: Callable[[], Any], c: Contract) -> Decider:
    if c.harness == "text":
        return TextOracle(plan, page_of)
    return GuiOracle(plan, page_of, c.viewport)


def check_model(model: str) -> None:
    if model != ORACLE:
        raise ValueError(
            f"--harness text|gui runs with the oracle (--model oracle), not {model!r}: a model of "
            "your own runs BreakingWeb's contracts through BrowserGym or AgentLab "
            "(docs/breakingweb.md, 'Run it from BrowserGym')"
        )


def run_tasks(
    tasks: list[Task],
    out_dir: Path,
    run: Mapping[str, Any],
    *,
    harness: str,
    model_family: str | None,
    time_cap_s: float = TIME_CAP_S,
    decider: DeciderFactory = oracle_decider,
) -> bool:
    """Every task not already done (a resume keeps earlier results unless `fresh`); True."""
    from webfovea_breakingweb.gym.sites import use_sites

    if run.get("handle") is not None:
        use_sites(run["handle"])
    max_steps = int(run.get("max_steps") or MAX_STEPS)
    seed = int(run.get("seed", 0))
    for task in tasks:
        task_dir = Path(out_dir) / task.task_id
        earlier = None if run.get("fresh") else read_result(task_dir)
        if earlier is not None:
            if earlier.profile != f"harness-{harness}":  # never mix two harnesses in one run
                raise HarnessMismatch(
                    f"{out_dir} holds results of another harness ({earlier.profile}); "
                    "give this run its own --out, or --fresh to set them aside"
                )
            continue
        task_dir.mkdir(parents=True, exist_ok=True)
        result = run_one(
            task, task_dir, seed, contract(harness, model_family), max_steps, time_cap_s, decider
        )
        result.model = str(run.get("model") or ORACLE)
        result.profile = f"harness-{harness}"
        write_result(task_dir, result)
    return True


def run_one(  # noqa: PLR0913 - the task, where it writes, and the run's caps
    task: Task,
    task_dir: Path,
    seed: int,
    c: Contract,
    max_steps: int,
    time_cap_s: float,
    decider: DeciderFactory,
) -> TaskResult:
    from webfovea_breakingweb.gym.env import BreakingWebEnv
    from webfovea_breakingweb.gym.task import BreakingWebTask

    extra = task.model_extra or {}
    base, family = extra.get("pair_of") or task.task_id, extra.get("family")
    entry = partial(
        BreakingWebTask,
        task_id=base,
        family=family,
        harness=c.harness,
        model_family=c.model_family,
        bw_seed=seed,
    )
    started, t0 = datetime.now(UTC).isoformat(), time.monotonic()
    result = TaskResult(
        task_id=task.task_id, status="error", task=task.task, website=task.website, started_at=started
    )
    env = BreakingWebEnv(entry, headless=True)
    steps_log = (task_dir / STEPS_FILE).open("w", encoding="utf-8")
    try:
        obs, info = env.reset(seed=0)
        result.session_id = info.get("task_info", {}).get("session_id") or env.bw_task.session_id
        page_of = lambda: env.unwrapped.page  # noqa: E731 - the tab BrowserGym observes now
        agent = decider(list(extra.get("plan") or []), page_of, c)
        convo = Conversation(system_prompt(c))
        status, answer = "max_steps", None
        for step in range(1, max_steps + 1):
            if time.monotonic() - t0 > time_cap_s:
                status = "timeout"
                break
            latest = observation(c, task.task, obs)
            sent = convo.input(latest)
            action = agent.decide(sent)
            obs, _reward, terminated, truncated, info = env.step(action)
            convo.record(latest, action, fact(action, obs))
            _log(steps_log, step, action, obs, sent, info)
            result.steps = step
            if terminated or truncated:
                status, answer = _ending(env)
                break
        result.status, result.answer = status, answer  # type: ignore[assignment]
        env.bw_task.session_id = None  # keep the session: the run's scoring reads it afterwards
    except Exception as e:  # noqa: BLE001 - the result must say what happened
        result.status, result.error = "error", f"{type(e).__name__}: {e}"
        if isinstance(env.task, BreakingWebTask):
            env.task.session_id = None
    finally:
        steps_log.close()
        try:
            env.close()
        finally:
            result.seconds = round(time.monotonic() - t0, 3)
            result.ended_at = datetime.now(UTC).isoformat()
    return result


def _ending(env: Any) -> tuple[str, str | None]:
    messages = env.chat.messages
    last = messages[-1] if messages else {}
    if last.get("role") == "assistant":
        return "finished", str(last.get("message"))
    if last.get("role") == "infeasible":
        return "finished", None
    return "env_done", None


def _log(out: Any, step: int, action: str, obs: dict[str, Any], sent: Sent, info: dict[str, Any]) -> None:
    line = {
        "step": step,
        "action": action,
        "last_action_error": obs.get("last_action_error") or "",
        "url": obs.get("url"),
        "sent_tokens": sent.tokens,
        "sent_messages": len(sent.messages),
        "dropped_turns": sent.dropped_turns,
        "refused": info.get("action_refused"),
        "passed_now": (info.get("task_info") or {}).get("passed"),
    }
    out.write(json.dumps(line) + "\n")
    out.flush()
