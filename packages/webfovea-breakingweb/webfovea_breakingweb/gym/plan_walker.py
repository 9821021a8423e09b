"""The oracle's plan walked step by step on a sync page, as the oracle walks it
(docs/contracts.md §1): a step whose expectation does not come to hold is tried again (at most
`RETRIES` times), a handler (`on`: a sign-in form, "too many requests") whose `when` holds puts
its `do` steps first, a `wait` step waits for its condition. What runs a step is the caller's:
`cheat` runs it on the page (plan_steps.run_step); `PlanBidAgent` speaks it in the bid grammar
through BrowserGym's own loop.

`PlanBidAgent` is an instrument, not a model: it reads the task's plan and grounds each target
to the bid BrowserGym marked on it; it proves the registration, the contract and the reward
end to end, and measures the gym's step cost without a model in the loop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from browsergym.experiments.agent import Agent, AgentInfo
from playwright.sync_api import Page

from webfovea_breakingweb.gym.grammar import action_set, shown_bids
from webfovea_breakingweb.gym.plan_steps import Step, atomic, bid_action, bid_of, holds, locate, wait_expect

RETRIES = 2  # the oracle's retries_per_step
SETTLE_S = 4.0  # how long a step's expectation may take to hold (a slow network family)
WAIT_S = 30.0
MAX_SCROLLS = 4  # per step: a target that stays out of view is then named anyway (and refused)  # a `wait` step's bound (a Retry-After, a progressive delay)


class PlanWalker:
    """The next step of the plan to act on, given the page as it is now."""

    def __init__(self, plan: list[Step]) -> None:
        self.todo: list[Step] = atomic(plan)
        self.last: Step | None = None
        self.tries = 0
        self.handlers: list[dict[str, Any]] = []
        self.fired: dict[int, int] = {}

    def next_step(self, page: Page) -> Step | None:
        failed = self.last
        if failed is not None and not wait_expect(page, failed.get("expect"), SETTLE_S):
            # The oracle's order: a failure the page shows has its handler; else the same step again.
            if not self._handler(page, resume=failed) and self.tries < RETRIES:
                self.tries += 1
                return failed
        else:
            self._handler(page, resume=None)
        while self.todo:
            step = self.todo.pop(0)
            if step["op"] == "wait":
                wait_expect(page, step.get("until"), WAIT_S)
                continue
            if step.get("trap"):  # what a careless agent would do here; the oracle never takes it
                continue
            self.handlers += step.get("on") or []
            if step is not failed:
                self.tries = 0
            self.last = step
            return step
        return None

    def _handler(self, page: Page, resume: Step | None) -> bool:
        """Whether a reached handler's failure shows (each at most `times`): its steps go first,
        then the step it interrupted."""
        for k, handler in enumerate(self.handlers):
            if self.fired.get(k, 0) >= int(handler.get("times", 1)):
                continue
            if handler.get("when") and holds(page, handler["when"]):
                self.fired[k] = self.fired.get(k, 0) + 1
                steps = atomic([dict(s) for s in handler.get("do") or []])
                self.todo[0:0] = steps + ([resume] if resume is not None else [])
                self.last = None
                return True
        return False


class PlanBidAgent(Agent):  # type: ignore[misc]
    """A BrowserGym agent speaking the text contract's bid grammar from the oracle's plan.

    It reads the page to ground each target to its bid: the raw page of the observation (run
    with `use_raw_page_output`, as AgentLab's agent args may ask), else `page_of()`. The plan is
    given, or looked up from the environment's name (`set_task_name`, which AgentLab's loop
    calls). A target the observation does not show (out of view) is first scrolled to, as a text
    agent does. After the plan it reports what it read (`send_msg_to_user`); with no step left it
    sends `noop()`."""

    action_set = action_set("text")

    def __init__(self, plan: list[Step] | None = None, page_of: Callable[[], Page] | None = None) -> None:
        self.walker = PlanWalker(plan or [])
        self.page_of = page_of
        self.pending: Step | None = None  # a step whose target is not in view yet
        self.scrolls = 0
        self.raw_page: Page | None = None

    def set_task_name(self, name: str) -> None:
        """`breakingweb.<task>[.<family>]` (AgentLab's task name): the task's plan."""
        from webfovea_breakingweb.gym.ids import plan_of

        self.walker = PlanWalker(plan_of(name))

    def obs_preprocessor(self, obs: Any) -> Any:
        # The text contract's own `axtree_txt` is already in it. The raw page is kept here, not in
        # the observation: AgentLab pickles what this returns, and a page does not pickle.
        obs = dict(obs)
        if (page := obs.pop("page", None)) is not None:
            self.raw_page = page
        return obs

    def get_action(self, obs: Any) -> tuple[str, AgentInfo]:
        page = self.raw_page or (self.page_of() if self.page_of is not None else None)
        if page is None:
            raise RuntimeError("PlanBidAgent reads the page: use raw page output or give page_of")
        step = self.pending or self.walker.next_step(page)
        self.pending = None
        if step is None:
            return "noop(0)", AgentInfo(think="the plan is done")
        if "target" in step and step["op"] != "answer":
            # The observation shows only what is in view (Table 20): scroll to a target below it.
            if (
                bid_of(page, step["target"]) not in shown_bids(obs["axtree_txt"])
                and self.scrolls < MAX_SCROLLS
            ):
                self.pending, self.scrolls = step, self.scrolls + 1
                return f"scroll(0, {_offset(page, step)})", AgentInfo(think="scroll the target into view")
        self.scrolls = 0
        return bid_action(page, step), AgentInfo(think=f"plan step {step['op']}")


def _offset(page: Page, step: Step) -> int:
    """How far to scroll so the target's centre comes to the middle of the view."""
    box = locate(page, step["target"]).bounding_box() or {"y": 0.0, "height": 0.0}
    view = page.viewport_size or {"height": 720}
    return round(box["y"] + box["height"] / 2 - view["height"] / 2)


def run_plan(page: Page, plan: list[Step], act: Callable[[Step], None]) -> None:
    """Walk the plan on `page`, `act` running each step (the cheat's loop)."""
    walker = PlanWalker(plan)
    while (step := walker.next_step(page)) is not None:
        act(step)
