"""One BreakingWeb task as a BrowserGym task (`AbstractBrowserTask`), as browsergym-miniwob
wraps a MiniWoB page:

- `setup`: the environment's control plane makes the task's session (clean, or with its
  intervention family's seed/server/network/client parts), the browser gets its cookie, the page
  opens on the app; the goal is the task's instruction;
- `validate`: the backend evaluator's verdict after every step — the canonical diff of the
  session's state scored against the task's obligations and invariants (and, for a retrieval
  task, the agent's message against the answer), exactly as `webfovea bench breakingweb` scores
  a run (`eval.summary.score_result`). The episode is done when the agent sent a terminal message
  (send_msg_to_user, report_infeasible). The reward is the change of the verdict (1 pass, 0 not)
  since the last call, so an episode's rewards sum to the verdict on its final state whenever it
  stops — a state task is scored by the backend whatever the agent claims, even when the episode
  is cut by a step cap;
- `cheat`: the oracle's plan (the recovery plan under a family that is in plain sight);
- `teardown`: the session is deleted.
"""

from __future__ import annotations

import time
from typing import Any

import playwright.sync_api
from browsergym.core.task import AbstractBrowserTask

from webfovea.eval.summary import score_result
from webfovea.record import StateScore
from webfovea.record.schema import TaskResult
from webfovea.task import Task
from webfovea_breakingweb.gym.grammar import Contract, contract
from webfovea_breakingweb.gym.plan_steps import run_step
from webfovea_breakingweb.gym.plan_walker import run_plan
from webfovea_breakingweb.gym.sites import sites_for
from webfovea_breakingweb.obligations import needs_requests, score_state
from webfovea_breakingweb.pairing import DEFAULT_SEED
from webfovea_breakingweb.suite import breakingweb_task
from webfovea_proving_ground.serve import SitesHandle
from webfovea_proving_ground.sessions import ControlClient

TERMINAL_ROLES = ("assistant", "infeasible")  # send_msg_to_user, report_infeasible


class BreakingWebTask(AbstractBrowserTask):  # type: ignore[misc]
    nondeterministic = False  # (task, seed) gives a byte-identical initial state (seed 003 A.1)

    @classmethod
    def get_task_id(cls) -> str:
        return "breakingweb"

    def __init__(
        self,
        seed: int | None,
        task_id: str,
        family: str | None = None,
        harness: str = "text",
        model_family: str | None = None,
        bw_seed: int = DEFAULT_SEED,
    ) -> None:
        """`seed`: BrowserGym's episode seed (BreakingWeb's content depends on `bw_seed` only,
        the seed its tasks are generated at); `family`: the intervention family (None: clean);
        `harness`: `text` (AXTree + bids) or `gui` (screenshot + points, viewport of
        `model_family`, Table 7)."""
        super().__init__(seed)
        self.contract: Contract = contract(harness, model_family)
        self.viewport = self.contract.viewport.as_dict()
        # No slow motion: loopback pages need none, and BrowserGym's own wait before every
        # observation (pre_observation_delay) lets the page react (docs/breakingweb.md).
        self.slow_mo = 0
        self.timeout = 5000  # ms
        self.task_id, self.family, self.bw_seed = task_id, family, bw_seed
        self.task: Task | None = None
        self.session_id: str | None = None
        self._handle: SitesHandle | None = None
        self._control: ControlClient | None = None
        self._verdict = 0.0

    def setup(self, page: playwright.sync_api.Page) -> tuple[str, dict[str, Any]]:
        self._handle = handle = sites_for(self.bw_seed)
        self.task = task = breakingweb_task(handle, self.bw_seed, self.task_id, self.family)
        assert task.session is not None
        self._control = handle.control()  # one client per episode: validate reads it every step
        body = self._control.create(task.task_id, task.session.seed, task.session.variant)
        self.session_id = str(body["session_id"])
        cookie = body["cookie"]
        page.context.add_cookies(
            [{"name": cookie["name"], "value": cookie["value"], "url": handle.main_url, "httpOnly": True}]
        )
        page.goto(task.website)
        page.wait_for_load_state("load")
        self._verdict = 0.0
        return task.task, {
            "task_id": task.task_id,
            "family": (task.model_extra or {}).get("family"),
            "harness": self.contract.harness,
            "model_family": self.contract.model_family,
            "session_id": self.session_id,
        }

    def evaluate(self, chat_messages: list[dict[str, Any]]) -> dict[str, Any]:
        """The backend evaluator's verdict now: {passed, score, credit, how, detail, …}."""
        task, control = self.task, self._control
        if task is None or control is None or self.session_id is None:
            raise RuntimeError("the task was not set up")
        extra = task.model_extra or {}
        obligations = extra.get("obligations", [])
        diff = control.diff(self.session_id)
        requests = control.requests(self.session_id) if needs_requests(obligations) else None
        sc = score_state(diff["diff"], obligations, extra.get("noise", ["updated"]), requests)
        last = chat_messages[-1] if chat_messages else {}
        ended = last.get("role") in TERMINAL_ROLES
        result = TaskResult(
            task_id=task.task_id,
            status="finished" if ended else "max_steps",
            answer=str(last.get("message")) if last.get("role") == "assistant" else None,
            state=StateScore(
                score=sc.score,
                passed=sc.passed,
                obligations_met=sc.obligations_met,
                invariants_broken=sc.invariants_broken,
                diff_sha256=diff["diff_sha256"],
            ),
        )
        verdict = score_result(task, result)
        return {
            "done": ended,
            "passed": verdict.passed,
            "state_score": sc.score,
            "credit": verdict.credit,
            "how": verdict.how,
            "detail": verdict.detail,
            "obligations_met": sc.obligations_met,
            "invariants_broken": len(sc.invariants_broken),
        }

    def validate(
        self, page: playwright.sync_api.Page, chat_messages: list[dict[str, Any]]
    ) -> tuple[float, bool, str, dict[str, Any]]:
        info = self.evaluate(chat_messages)
        verdict = 1.0 if info["passed"] else 0.0
        reward, self._verdict = verdict - self._verdict, verdict
        return reward, bool(info["done"]), "", info

    def cheat(self, page: playwright.sync_api.Page, chat_messages: list[dict[str, Any]]) -> None:
        """Run the oracle's plan on the page; its answer goes to the chat as the agent's message."""
        if self.task is None:
            raise RuntimeError("the task was not set up")
        plan = (self.task.model_extra or {}).get("plan") or []

        def act(step: dict[str, Any]) -> None:
            answer = run_step(page, step)
            if answer is not None:
                chat_messages.append({"role": "assistant", "message": answer, "timestamp": time.time()})

        run_plan(page, plan, act)

    def teardown(self) -> None:
        if self._control is not None:
            if self.session_id is not None:
                self._control.delete(self.session_id)
            self._control.close()
        self._control, self.session_id = None, None
