"""The step router: before each model call, which route takes the step, and why.

The agent loop asks `decide` after observing and before building the model's input. The
first route of the table whose `when` holds and whose routine finds its target takes the
step: a routine's answer is a reply in the model's own grammar (`click(start_box='(x,y)')`
at the point it found), handed to the task driver like any model's reply, so it is parsed,
bounds-checked, executed, watched and recorded the same way — the route picks who decides,
never what happens after. A model route names the model that decides; no route: the task's
model. Every decision (who, which route, why, and why each earlier route did not apply)
goes into the step record's `route`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from webfovea.actions.locate import model_point
from webfovea.actions.templates import task_templates
from webfovea.guardrails.bounds import OutOfBounds, check_point
from webfovea.harness import Harness, Observation, StepResult
from webfovea.models.base import Model, ModelReply
from webfovea.routing.routines import Found, Hit, element_at, template_point, visible_text
from webfovea.routing.table import Known, RoutingTable, StepRoute
from webfovea.vision.match import TemplateError
from webfovea.vision.templates import TemplatesError

MakeModel = Callable[[StepRoute], Model]


@dataclass
class Decision:
    by: str  # "model" (the task's or a route's), "rule" or "template"
    reason: str
    route: str | None = None  # the route that took the step (None: no route applied)
    model: str | None = None  # a model route's spec (None: the task's model, or a routine)
    reply: ModelReply | None = None  # a routine's reply: no model call
    tried: list[str] = field(default_factory=list)  # why each earlier route did not apply
    detail: dict[str, Any] | None = None  # what the routine saw (a template's box and score)
    learnt: list[str] = field(default_factory=list)  # templates learnt from the step before this one

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"by": self.by, "route": self.route, "reason": self.reason}
        if self.model is not None:
            out["model"] = self.model
        if self.tried:
            out["tried"] = list(self.tried)
        if self.detail is not None:
            out["detail"] = self.detail
        if self.learnt:
            out["learnt"] = list(self.learnt)
        return out


class StepRouter:
    def __init__(self, table: RoutingTable, templates: str | None, make_model: MakeModel) -> None:
        self.table = table
        self.templates = templates
        self._make = make_model
        self._models: dict[str, Model] = {}
        self.uses: Counter[str] = Counter()
        self.last_outcome = "none"
        self.last_action: str | None = None
        self.last_route: str | None = None  # the routine route that took the last step
        self._pending: tuple[Hit, Observation] | None = None  # the element a model's click aims at
        self._learnt: list[str] = []  # learnt since the last decision (reported with the next)

    def known(self, step: int, steps_left: int, url: str) -> Known:
        return Known(step, steps_left, url, self.last_outcome, self.last_action)

    async def decide(self, h: Harness, known: Known) -> Decision:
        decision = await self._decide(h, known)
        decision.learnt, self._learnt = self._learnt, []
        return decision

    async def _decide(self, h: Harness, known: Known) -> Decision:
        tried: list[str] = []
        for route in self.table.routes:
            why_not = route.when.holds(known)
            if why_not is None and route.max_uses is not None and self.uses[route.name] >= route.max_uses:
                why_not = f"used {self.uses[route.name]} time(s) already (max_uses {route.max_uses})"
            if why_not is None and route.name == self.last_route and self.last_outcome != "executed":
                why_not = f"its last step ended {self.last_outcome}"  # a routine never retries blindly
            if why_not is not None:
                tried.append(f"{route.name}: {why_not}")
                continue
            if route.take == "model":
                assert route.model is not None
                if route.model not in self._models:
                    self._models[route.model] = self._make(route)
                return Decision("model", _held(route, known), route.name, model=route.model, tried=tried)
            found = await self._routine(h, route)
            if found.point is None:
                tried.append(f"{route.name}: {found.why}")
                continue
            return self._reply(h, route, found, tried)
        return Decision("model", "no route applied: the task's model decides", tried=tried)

    def model_of(self, decision: Decision) -> Model | None:
        """The model a model route named (None: the task's model)."""
        return self._models.get(decision.model) if decision.model is not None else None

    async def before(self, h: Harness, reply: ModelReply) -> None:
        """With `learn` on: the element a model's pointer step aims at, read before it runs (the
        step may navigate it away), so a click that succeeds on a widget the task names can be
        kept as a template (`after`). Read-only, like the workflow cache's target check."""
        self._pending = None
        obs = h.last
        if not self.table.learn or obs is None:
            return
        action = h.parse(reply.text, reply.tool_calls or None).action
        point = action.args.get("start_box") if action is not None else None
        if point is None:
            return
        try:
            x, y = obs.shot.to_css(*check_point(obs.shot, point))
        except (OutOfBounds, TypeError, ValueError, IndexError):
            return
        hit = await element_at(h.page, x, y)
        if hit is not None:
            self._pending = (hit, obs)

    def after(
        self, decision: Decision, res: StepResult | None, h: Harness | None = None, task: str = ""
    ) -> None:
        """What the next decision knows of this step: its outcome, its action, whose it was;
        and, with `learn` on, the template learnt when it was a click that changed the page on
        an element the task names."""
        pending, self._pending = self._pending, None
        if pending is not None and h is not None and res is not None and res.outcome == "executed":
            if res.executed is not None and res.executed.changed:
                self._learn(h, pending, task, res)
        if decision.route is not None:
            self.uses[decision.route] += 1
        self.last_route = decision.route if decision.reply is not None else None
        self.last_outcome = (res.outcome if res is not None else None) or "failed"
        self.last_action = res.action.name if res is not None and res.action is not None else None

    def _learn(self, h: Harness, pending: tuple[Hit, Observation], task: str, res: StepResult) -> None:
        hit, obs = pending
        words = hit.text.strip()
        if len(words) < 3 or words.lower() not in task.lower():
            return  # not a widget the task names: nothing says it will recur
        x1, y1, x2, y2 = hit.box
        if x2 - x1 < 8 or y2 - y1 < 8:
            return
        a, b = obs.shot.from_css(x1, y1), obs.shot.from_css(x2, y2)
        crop = obs.image.crop((round(a[0]), round(a[1]), round(b[0]), round(b[1])))
        crop = crop.resize((round(x2 - x1), round(y2 - y1)))  # templates are CSS-pixel crops
        try:
            templates = task_templates(h.executor.state, self.templates)
            step = res.observation.step if res.observation is not None else "?"
            templates.learn(words, f"learnt: '{words}', clicked at step {step}", crop)
        except (TemplatesError, TemplateError):
            return
        self._learnt.append(words)

    async def _routine(self, h: Harness, route: StepRoute) -> Found:
        page = h.page
        if route.take == "rule":
            assert route.click_text is not None
            return await visible_text(page, route.click_text)
        obs = h.last
        if obs is None:
            return Found(None, "nothing observed yet")
        try:
            templates = task_templates(h.executor.state, self.templates)
        except TemplatesError as e:
            return Found(None, str(e))
        assert route.template is not None
        return await template_point(
            page, templates, route.template, (obs.shot.css_width, obs.shot.css_height)
        )

    def _reply(self, h: Harness, route: StepRoute, found: Found, tried: list[str]) -> Decision:
        assert found.point is not None and h.last is not None
        mx, my = model_point(h.last.shot, *found.point)
        reason = f"{found.why}: {route.act} at its point, no model call"
        text = f"Thought: route {route.name}: {reason}.\nAction: {route.act}(start_box='({mx},{my})')"
        return Decision(
            route.take, reason, route.name, reply=ModelReply(text), tried=tried, detail=found.detail
        )


def _held(route: StepRoute, known: Known) -> str:
    parts = [f"{route.model} decides"]
    w = route.when
    if w.last_outcome:
        parts.append(f"the last outcome was {known.last_outcome}")
    if w.after_action:
        parts.append(f"after {known.last_action}")
    if w.steps_left_above is not None or w.steps_left_below is not None:
        parts.append(f"{known.steps_left} steps left")
    if w.url_contains is not None:
        parts.append(f"the URL has {w.url_contains!r}")
    if w.step_below is not None:
        parts.append(f"step {known.step}")
    return "; ".join(parts)
