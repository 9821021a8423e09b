"""Cached workflows: a task's executed actions replayed without a model while the page matches.

`WorkflowCache` stands between the agent loop and the task driver. Each step the loop asks
`plan()` first: while the cached entry's next action is on a page with the same URL pattern
and its target is found again (`targets.py`), it is handed to the driver as a reply written by
the cache — the point recomputed from the element's current box, the ref taken from the
current snapshot — and no model is called. From the first step where the page no longer
matches, `plan()` returns None for the rest of the task and the model decides as usual
(Stagehand's self-heal). Every executed step, replayed or the model's, is identified before
it runs and kept; a run that finishes rewrites the entry with what it did, so a stale entry
heals. A cached answer is replayed only after every step before it replayed, and only when
each of its values is shown again, as a whole token, by the elements it was read from ("12" is
not confirmed by "120"); otherwise the model reads the page and answers. An answer so confirmed
is not sent to the verifier again (harness/review.py): a run replayed whole makes no model call.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webfovea.actions.targets import REF
from webfovea.cache import targets
from webfovea.cache.store import CachedStep, Entry, load, save, task_key
from webfovea.driving.driver import TaskDriver
from webfovea.harness import Harness, StepResult
from webfovea.models.base import ModelReply, Usage
from webfovea.parsing.tool_call import action_text
from webfovea.types import Action

_KEPT = ("executed", "no_effect")  # outcomes that acted on the page (a refusal changed nothing)


@dataclass
class Plan:
    """A step the cache takes: the reply it hands the driver and what the step record notes."""

    reply: ModelReply
    info: dict[str, Any]


@dataclass
class _Pending:
    """What identified a step's targets, read before it ran."""

    url: str
    args: dict[str, Any]


class WorkflowCache:
    def __init__(self, folder: Path, driver: TaskDriver) -> None:
        self.folder = Path(folder).expanduser()
        task, mode = driver.task, driver.config.observation
        self.key = task_key(task)
        self.entry = load(self.folder, self.key)
        self.recording = Entry(self.key, task.instruction(), task.website, mode)
        self.replaying = self.entry is not None and self.entry.observation == mode and bool(self.entry.steps)
        self.why: str | None = None  # why the model decides (no entry, or the step that did not match)
        if self.entry is None:
            self.why = "no cached entry for this task"
        elif self.entry.observation != mode:
            self.why = f"the entry was recorded in {self.entry.observation} observation, this run is {mode}"
        self.next = 0  # the entry's next step to replay
        self.cached_steps = 0
        self.model_from: int | None = None  # the task step from which the model decided
        self.written = False

    # replay --------------------------------------------------------------------------------
    async def plan(self, h: Harness, step_no: int) -> Plan | None:
        """The entry's next action if the current page still matches it, else None (and the
        model decides from here on)."""
        if not self.replaying or self.entry is None:
            self._model_decides(step_no, None)
            return None
        if self.next >= len(self.entry.steps):
            self._model_decides(step_no, "the cached steps ran out before the task ended")
            return None
        step, obs = self.entry.steps[self.next], h.last
        assert obs is not None, "observe before asking the cache"
        if not targets.url_matches(step.url, obs.url):
            self._model_decides(step_no, f"the page is {obs.url}, cached step {self.next} was on {step.url}")
            return None
        args: dict[str, Any] = {}
        found: dict[str, str] = {}
        confirmed: str | None = None  # how the cached answer was confirmed on the page
        # A scroll's point only says where the wheel turns: the text under it (today's figures)
        # may change, and the recorded point still scrolls the same page.
        wheel = any(s.name == step.action and s.counts_as_scroll for s in h.specs)
        for name, value in step.args.items():
            got, why = await self._resolve(h, value)
            if got is None and wheel and isinstance(value, dict) and "point" in value:
                got, why = obs.shot.to_model(*value["point"]), f"recorded point ({why})"
            if why is not None and got is None:
                self._model_decides(step_no, f"cached step {self.next} ({step.action}): {why}")
                return None
            args[name] = got
            if why is not None:
                found[name] = why
        if step.answer is not None:
            ok, how = await targets.answer_confirmed(h.page, answer_forms(step.answer), step.answer_at)
            if not ok:
                self._model_decides(
                    step_no, f"cached step {self.next}: its answer is not confirmed on the page ({how})"
                )
                return None
            confirmed = how
        line = action_text(Action(step.action, args))
        text = f"Thought: Cached workflow, step {self.next + 1}: its target is on the page again.\nAction: {line}"
        info: dict[str, Any] = {"entry_step": self.next, "found": found or None}
        if confirmed is not None:
            info["answer_confirmed"] = confirmed
        return Plan(ModelReply(text, Usage(0, 0)), info)

    async def _resolve(self, h: Harness, value: Any) -> tuple[Any, str | None]:
        """An argument as the model would write it now; (None, why) when its target is gone.
        The second item says how a target was found (None: the argument had none)."""
        if not isinstance(value, dict):
            return value, None
        shot = h.last.shot if h.last is not None else None
        assert shot is not None
        if "point" in value:
            if value.get("target") is None:  # nothing was under it (a scroll over the margin)
                return shot.to_model(*value["point"]), None
            point, how = await targets.find(h.page, value["target"])
            return (shot.to_model(*point), how) if point is not None else (None, how)
        if "box" in value:
            x1, y1, x2, y2 = value["box"]
            return (*shot.to_model(x1, y1), *shot.to_model(x2, y2)), None
        if value.get("ref_path"):
            snap = h.last.snapshot_info if h.last is not None else None
            ref, how = targets.find_ref(snap, value["ref_path"])
            return ref, how
        return None, "its target cannot be replayed (several points, or a ref the snapshot did not hold)"

    def _model_decides(self, step_no: int, why: str | None) -> None:
        if self.model_from is None:  # the first step the model decides; the why of that one
            self.model_from = step_no
            if why is not None:
                self.why = why
        self.replaying = False
        return None

    # recording ------------------------------------------------------------------------------
    async def step(
        self,
        driver: TaskDriver,
        reply: ModelReply,
        compression: dict[str, Any] | None = None,
        plan: Plan | None = None,
    ) -> StepResult | None:
        """One step through the driver, its targets identified before it runs and kept after."""
        h = driver.harness
        assert h is not None
        pending = await self._identify(h, reply)
        confirmed = plan.info.get("answer_confirmed") if plan is not None else None
        if confirmed is not None and self.entry is not None:  # by plan(): no verifier call for it
            answer = self.entry.steps[self.next].answer
            h.evidence.confirmed = (answer, str(confirmed)) if answer is not None else None
        try:
            res = await driver.step(reply, compression, cached=plan.info if plan is not None else None)
        finally:
            h.evidence.confirmed = None
        if plan is not None:
            self.next += 1
            self.cached_steps += 1
            if res is not None and res.outcome not in _KEPT:
                self._model_decides(
                    driver.steps, f"cached step {self.next - 1} was {res.outcome} on the page"
                )
        if res is not None and pending is not None and res.outcome in _KEPT and res.action is not None:
            out = res.executed.outcome if res.executed is not None else None
            answer = (out.answer or "") if out is not None and out.done else None
            landed = list(out.point) if out is not None and out.point else None
            # Where the answer is shown, read while the page is still the one it was given on.
            at = await targets.answer_holders(h.page, answer_forms(answer)) if answer else None
            self.recording.steps.append(
                CachedStep(res.action.name, pending.args, pending.url, answer, landed, at)
            )
        driver.result.cache = self.summary()
        return res

    async def _identify(self, h: Harness, reply: ModelReply) -> _Pending | None:
        obs = h.last
        parsed = h.parse(reply.text, reply.tool_calls or None)
        if obs is None or parsed.action is None or parsed.rejection is not None:
            return None
        args: dict[str, Any] = {}
        for name, value in parsed.action.args.items():
            if name == REF.name and isinstance(value, str):
                args[name] = {"ref_path": targets.ref_path(obs.snapshot_info, value)}
            elif isinstance(value, tuple) and len(value) == 2:
                css = obs.shot.to_css(*value)
                args[name] = {"point": list(css), "target": await targets.identify(h.page, *css)}
            elif isinstance(value, tuple) and len(value) == 4:
                args[name] = {
                    "box": [*obs.shot.to_css(value[0], value[1]), *obs.shot.to_css(value[2], value[3])]
                }
            elif isinstance(value, list):
                args[name] = {"points": [list(obs.shot.to_css(*p)) for p in value]}
            else:
                args[name] = value
        return _Pending(obs.url, args)

    def finish(self, driver: TaskDriver) -> None:
        """Rewrite the entry with this run's steps when the task finished with an answer."""
        how = driver.ending
        if how is not None and how.status == "finished" and self.recording.steps:
            try:
                save(self.folder, self.recording)
                self.written = True
            except OSError as e:  # the task's answer stands; the cache just was not updated
                self.why = f"the entry could not be written: {e.strerror or e}"
        driver.result.cache = self.summary()

    def summary(self) -> dict[str, Any]:
        """result.json's `cache`."""
        return {
            "dir": str(self.folder),
            "key": self.key,
            "entry": self.entry is not None,
            "cached_steps": self.cached_steps,
            "model_from_step": self.model_from,
            "why": self.why,
            "written": self.written,
        }


def answer_forms(answer: str) -> list[list[str]]:
    """The values of an answer as the page may spell them, one list per value: its text (or, for
    a JSON answer, every string and number in it; a number also with thousands separators)."""
    try:
        value = json.loads(answer)
    except ValueError:
        value = answer
    return [_forms(v) for v in _leaves(value) if str(v).strip()]


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [] if value is None or isinstance(value, bool) else [value]


def _forms(value: Any) -> list[str]:
    forms = [" ".join(str(value).split())]
    if isinstance(value, (int, float)):
        forms += [f"{value:,}", f"{value:,}".replace(",", " ")]
    return list(dict.fromkeys(forms))
