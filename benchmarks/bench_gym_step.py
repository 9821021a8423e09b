"""What one BrowserGym step costs on BreakingWeb's gym registration, beside BrowserGym's own
MiniWoB++ step, in one run on the same machine.

    PYTHONPATH=.:packages/webfovea-proving-ground:packages/webfovea-breakingweb \\
        .venv/bin/python benchmarks/bench_gym_step.py [--steps 15] [--json out.json]

Both environments are BrowserGym's own `BrowserEnv` (sync Playwright, headless Chromium, MiniWoB
pages on loopback from the `miniwob` package); their steps are interleaved (MiniWoB, BreakingWeb,
MiniWoB, …) so that the machine's load falls on both alike. Per environment, two kinds of step:
`noop(0)` (BrowserGym's fixed cost: wait, observation, validation) and a click by bid that
changes the page but ends nothing (MiniWoB click-checkboxes: a checkbox; BreakingWeb
calendar-accept-02: the calendar's tabs). The arms:
- `miniwob`: BrowserGym's own MiniWoB task (its small page and viewport, slow_mo 100 ms);
- `bgym-own@bw-page`: BrowserGym's own open-ended task on the same BreakingWeb page and session
  (everything BrowserGym extracts, no registration; slow_mo 0 as BreakingWeb's): the page's own
  cost;
- `bw-text`, `bw-gui(gemini)`: the registration, both contracts (the check, the Table 20 text,
  the backend evaluator every step; only what the contract shows is extracted);
- `bw-text@slow_mo=100`: the text contract at MiniWoB's slow motion (BreakingWeb uses none).

Medians of the wall time of `env.step` and of its phases (BrowserGym's own step info: action,
wait for the page, validation — BreakingWeb's backend evaluator —, observation).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym

PHASES = {
    "action": ("action_exec_start", "action_exec_stop"),
    "page_wait": ("wait_for_page_loading_start", "wait_for_page_loading_stop"),
    "validate": ("validation_start", "validation_stop"),
    "observe": ("get_observation_start", "get_observation_stop"),
}
BW_TABS = ['nav.tabs a[data-view="invites"]', 'nav.tabs a[data-view="month"]']


class Arm:
    """One environment and the click it repeats."""

    def __init__(self, name: str, env: Any, click: Callable[[Any, int], str]) -> None:
        self.name, self.env, self.click = name, env, click
        self.times: dict[str, list[float]] = {}
        self.errors: list[str] = []

    def step(self, kind: str, i: int) -> None:
        action = "noop(0)" if kind == "noop" else self.click(self.env.unwrapped, i)
        t0 = time.perf_counter()
        obs, _, done, _, info = self.env.step(action)
        wall = time.perf_counter() - t0
        if done:
            raise RuntimeError(f"{self.name}: {action} ended the episode")
        if obs["last_action_error"]:  # counted, not fatal: BrowserGym's 500 ms click timeout under load
            self.errors.append(obs["last_action_error"].splitlines()[0])
        self.times.setdefault(f"{kind}:step", []).append(wall)
        for phase, (a, b) in PHASES.items():
            self.times.setdefault(f"{kind}:{phase}", []).append(info[b] - info[a])

    def medians(self) -> dict[str, float]:
        return {k: round(statistics.median(v) * 1000, 1) for k, v in self.times.items()}


def _miniwob_click(u: Any, i: int) -> str:
    boxes = u.page.locator("input[type=checkbox]")
    return f"click({boxes.nth(i % boxes.count()).get_attribute('bid')!r})"


def _bw_click(u: Any, i: int) -> str:
    return f"click({u.page.locator(BW_TABS[i % 2]).get_attribute('bid')!r})"


def _bw_point_click(u: Any, i: int) -> str:
    """The same tab clicked by a point on Gemini's 0–1000 grid (the GUI contract)."""
    box = u.page.locator(BW_TABS[i % 2]).bounding_box()
    vp = u.task.contract.viewport
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    return f"mouse_click({round(x * vp.grid / vp.width)}, {round(y * vp.grid / vp.height)})"


def _open_bw_page(u: Any, bw_task: Any) -> None:
    """BrowserGym's own open-ended task on the very page the BreakingWeb arm shows: a session of
    the same task, its cookie, the app's page. What separates the two arms is the registration."""
    control = bw_task._control
    body = control.create(bw_task.task.task_id, bw_task.bw_seed, None)
    url = bw_task.task.website
    origin = url.split("/app/")[0]
    u.context.add_cookies([{"name": body["cookie"]["name"], "value": body["cookie"]["value"], "url": origin}])
    u.page.goto(url)
    u.page.wait_for_load_state("load")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=15, help="steps of each kind per environment")
    ap.add_argument("--json", help="write the medians here")
    args = ap.parse_args()

    from webfovea.environments.browsergym.miniwob_site import miniwob_url
    from webfovea_breakingweb.gym.chromium import link_system_chromium

    link_system_chromium()
    miniwob_url()  # $MINIWOB_URL: MiniWoB's pages on loopback
    import browsergym.miniwob  # noqa: F401 - registers MiniWoB

    import webfovea_breakingweb.gym  # noqa: F401 - registers BreakingWeb

    bw_id = "browsergym/breakingweb.calendar-accept-02"
    arms = [
        Arm("miniwob", gym.make("browsergym/miniwob.click-checkboxes"), _miniwob_click),
        Arm(
            "bgym-own@bw-page",
            gym.make("browsergym/openended", task_kwargs={"start_url": "about:blank"}, slow_mo=0),
            _bw_click,
        ),
        Arm("bw-text", gym.make(bw_id), _bw_click),
        Arm(
            "bw-gui(gemini)",
            gym.make(bw_id, task_kwargs={"harness": "gui", "model_family": "gemini"}),
            _bw_point_click,
        ),
        Arm("bw-text@slow_mo=100", gym.make(bw_id, slow_mo=100), _bw_click),
    ]
    t0 = time.perf_counter()
    for arm in arms:
        arm.env.reset(seed=0)
    _open_bw_page(arms[1].env.unwrapped, arms[2].env.unwrapped.task)
    print(f"reset of the environments: {time.perf_counter() - t0:.1f} s (BreakingWeb's servers started)")
    for arm in arms:  # one warm-up step each: first-use costs are not a step's
        arm.step("noop", 0)
        arm.times.clear()
    for i in range(args.steps):
        for kind in ("noop", "click"):
            for arm in arms:
                arm.step(kind, i)
    for arm in arms:
        arm.env.close()

    table = {arm.name: arm.medians() for arm in arms}
    for arm in arms:
        if arm.errors:
            print(f"{arm.name}: {len(arm.errors)} action error(s), e.g. {arm.errors[0]}")
    keys = list(table["miniwob"])
    print(f"\nmedian ms over {args.steps} steps of each kind (interleaved, one process):")
    print(f"{'':<16}" + "".join(f"{name:>21}" for name in table))
    for k in keys:
        print(f"{k:<16}" + "".join(f"{table[name][k]:>21}" for name in table))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(
                {"steps": args.steps, "median_ms": table, "errors": {a.name: len(a.errors) for a in arms}},
                f,
                indent=1,
            )


if __name__ == "__main__":
    main()
