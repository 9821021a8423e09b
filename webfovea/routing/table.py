"""The routing table: a TOML file of routes, tried in order before each model call.

    [[route]]
    name = "cookie-banner"
    take = "rule"              # rule: a visible button or link with this exact text is clicked
    click_text = "Accept all"

    [[route]]
    name = "banner-by-picture"
    take = "template"          # template: the templates file's widget found in the view is clicked
    template = "cookie_banner"

    [[route]]
    name = "small-model-while-it-goes-well"
    take = "model"             # model: another model decides this step
    model = "openai:gpt-4.1-mini"
    when = { last_outcome = ["executed"], steps_left_above = 20 }

`when` holds what is known before the call, every key of it must hold: `url_contains` (the
page's URL), `last_outcome` (the last step's outcome, or "none" before the first), `after_action`
(the last step's action: the likely kind of this one), `steps_left_above` / `steps_left_below`
(the step budget left), `step_below` (this step's index). A rule or template route also needs
its routine to find its target, else it does not apply; it is taken at most `max_uses` times
per task (default 1) and never right after a step of its own that changed nothing. A step no
route takes goes to the task's model. `act` is the pointer action a routine's point is given
to (default "click"). A top-level `learn = true` keeps the element under a model's click that
changed the page as a template when the task names it (router.py). Errors name the file, the
route and the key.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Take = Literal["rule", "template", "model"]
TAKES: tuple[Take, ...] = ("rule", "template", "model")
OUTCOMES = ("executed", "no_effect", "failed", "rejected", "none")
DEFAULT_ACT = "click"
_WHEN = ("url_contains", "last_outcome", "after_action", "steps_left_above", "steps_left_below", "step_below")
_KEYS = {
    "rule": ("click_text",),
    "template": ("template",),
    "model": ("model", "base_url"),
}
_COMMON = ("name", "take", "when", "max_uses", "act")


class RoutingError(ValueError):
    """A routing table that cannot be used; the message names the file, the route and the key."""


@dataclass(frozen=True)
class When:
    url_contains: str | None = None
    last_outcome: tuple[str, ...] = ()
    after_action: tuple[str, ...] = ()
    steps_left_above: int | None = None
    steps_left_below: int | None = None
    step_below: int | None = None

    def holds(self, known: Known) -> str | None:
        """Why the condition fails for `known` (None: it holds)."""
        if self.url_contains is not None and self.url_contains not in known.url:
            return f"the URL has no {self.url_contains!r}"
        if self.last_outcome and known.last_outcome not in self.last_outcome:
            return f"the last outcome was {known.last_outcome}"
        if self.after_action and known.last_action not in self.after_action:
            return f"the last action was {known.last_action or 'none'}"
        if self.steps_left_above is not None and known.steps_left <= self.steps_left_above:
            return f"{known.steps_left} steps left"
        if self.steps_left_below is not None and known.steps_left >= self.steps_left_below:
            return f"{known.steps_left} steps left"
        if self.step_below is not None and known.step >= self.step_below:
            return f"step {known.step}"
        return None


@dataclass(frozen=True)
class Known:
    """What is known before a step's model call: what routes are decided from."""

    step: int
    steps_left: int
    url: str
    last_outcome: str  # one of OUTCOMES
    last_action: str | None


@dataclass(frozen=True)
class StepRoute:
    name: str
    take: Take
    when: When = field(default_factory=When)
    click_text: str | None = None
    template: str | None = None
    model: str | None = None
    base_url: str | None = None
    max_uses: int | None = 1  # None: unlimited (model routes)
    act: str = DEFAULT_ACT


@dataclass(frozen=True)
class RoutingTable:
    path: str
    routes: tuple[StepRoute, ...]
    # Keep the element under a model's click that changed the page as a template, named by its
    # text, when the task names it (a paginator's "Next", the picker's "Today").
    learn: bool = False


def _strs(where: str, key: str, value: Any) -> tuple[str, ...]:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items or not all(isinstance(v, str) and v for v in items):
        raise RoutingError(f"{where}: `{key}` is a string or a list of strings")
    return tuple(items)


def _int(where: str, key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RoutingError(f"{where}: `{key}` is a whole number, 0 or more")
    return value


def _when(where: str, raw: Any) -> When:
    if not isinstance(raw, dict):
        raise RoutingError(f'{where}: `when` is a table, e.g. when = {{ last_outcome = "executed" }}')
    unknown = sorted(set(raw) - set(_WHEN))
    if unknown:
        raise RoutingError(f"{where}: when: unknown key(s) {', '.join(unknown)}; known: {', '.join(_WHEN)}")
    outcomes = _strs(where, "last_outcome", raw["last_outcome"]) if "last_outcome" in raw else ()
    bad = [o for o in outcomes if o not in OUTCOMES]
    if bad:
        raise RoutingError(f"{where}: last_outcome {bad[0]!r} is not one of {', '.join(OUTCOMES)}")
    url = raw.get("url_contains")
    if url is not None and (not isinstance(url, str) or not url):
        raise RoutingError(f"{where}: `url_contains` is a non-empty string")
    ints = {
        k: _int(where, k, raw[k]) for k in ("steps_left_above", "steps_left_below", "step_below") if k in raw
    }
    after = _strs(where, "after_action", raw["after_action"]) if "after_action" in raw else ()
    return When(url, outcomes, after, **ints)


def _route(path: Path, i: int, raw: Any) -> StepRoute:
    where = f"{path}: route {i + 1}"
    if not isinstance(raw, dict):
        raise RoutingError(f"{where}: each [[route]] is a table")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        raise RoutingError(f"{where}: `name` must be a non-empty string (it is recorded with every decision)")
    where = f"{path}: route {name!r}"
    take = raw.get("take")
    if take not in TAKES:
        raise RoutingError(f"{where}: `take` is one of {', '.join(TAKES)}, not {take!r}")
    allowed = set(_COMMON) | set(_KEYS[take])
    unknown = sorted(set(raw) - allowed)
    if unknown:
        raise RoutingError(
            f"{where}: unknown key(s) {', '.join(unknown)} for take = {take!r}; it takes {', '.join(sorted(allowed))}"
        )
    for key in _KEYS[take][:1]:  # the routine's target (or the model) is required
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise RoutingError(f"{where}: take = {take!r} needs `{key}`, a non-empty string")
    base_url = raw.get("base_url")
    if base_url is not None and not isinstance(base_url, str):
        raise RoutingError(f"{where}: `base_url` must be a string")
    act = raw.get("act", DEFAULT_ACT)
    if not isinstance(act, str) or not act:
        raise RoutingError(f"{where}: `act` names the pointer action its point is given to")
    max_uses: int | None = _int(where, "max_uses", raw["max_uses"]) if "max_uses" in raw else None
    if max_uses is None and take != "model":
        max_uses = 1  # a routine that keeps firing would loop; once per task unless said
    return StepRoute(
        name.strip(),
        take,
        _when(where, raw.get("when", {})),
        click_text=raw.get("click_text"),
        template=raw.get("template"),
        model=raw.get("model"),
        base_url=base_url,
        max_uses=max_uses,
        act=act,
    )


def load_table(path: Path | str) -> RoutingTable:
    """The routes of a TOML file (`[[route]]` tables, in order); RoutingError when unusable."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise RoutingError(f"cannot read the routing table {path}: {e.strerror or e}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise RoutingError(f"{path}: not a TOML file: {e}") from None
    extra = sorted(set(data) - {"route", "learn"})
    raw = data.get("route")
    if extra or not isinstance(raw, list) or not raw:
        raise RoutingError(f"{path}: give one or more [[route]] tables (and nothing else but `learn`)")
    learn = data.get("learn", False)
    if not isinstance(learn, bool):
        raise RoutingError(f"{path}: `learn` is true or false")
    routes = tuple(_route(path, i, r) for i, r in enumerate(raw))
    names = [r.name for r in routes]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise RoutingError(f"{path}: two routes are named {dup!r}; the records tell them apart by name")
    return RoutingTable(str(path), routes, learn)
