"""Routing: which model answers each role of a task — one table of roles, one resolution.

A task's model calls do different jobs, and each can go to the model that fits it:

| role      | the calls                                       | option           | config fields |
|-----------|-------------------------------------------------|------------------|---------------|
| act       | decide the next action (the agent)              | --model          | (the run's model) |
| look      | `look` and `locate` (observation/vision.py)     | --vision-model   | vision_model, vision_base_url |
| verify    | check a `finished` answer (guardrails/verifier) | --verifier       | verifier_model, verifier_base_url |
| summarise | history compression (observation/compress.py)   | --summary-model  | summary_model, summary_base_url |
| manuals   | Protocol II's manual writer (`webfovea manual`) | --writer         | (the command's writer) |

A route is a model spec (the grammar of `--model`), optionally with its base URL, or — for
a role that has one — a rule: `summarise = "rule"` is the rule-based fallback of
compression (recent messages kept, a refresh note), no model call. A role left out is
answered as before: `act`'s model for look, verify and summarise.

The routes come from options or one TOML file (`--models routes.toml`); an option given
wins over the file's line for its role. `load_routes` reads the file; `pick` merges a role's
option with the file; `recorded` is what run.json and result.json say was used.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from webfovea.config import HarnessConfig

RULE = "rule"  # the route of a role answered by a rule, not a model


@dataclass(frozen=True)
class Role:
    name: str
    calls: str  # what the role's calls do (help text, errors)
    option: str  # the command-line option for it, which wins over the file
    rule: str | None = None  # what `ROLE = "rule"` means, when the role has a rule
    model_field: str | None = None  # HarnessConfig fields the route travels in (None: not in the config)
    base_url_field: str | None = None
    switch: str | None = None  # the Component without which the role makes no call


ROLES: dict[str, Role] = {
    r.name: r
    for r in (
        Role("act", "decides each action (the agent)", "--model"),
        Role("look", "answers look and locate", "--vision-model", None, "vision_model", "vision_base_url"),
        Role(
            "verify",
            "checks each finished answer",
            "--verifier",
            None,
            "verifier_model",
            "verifier_base_url",
            "verifier",
        ),
        Role(
            "summarise",
            "writes the history summary near the context budget",
            "--summary-model",
            "the rule-based fallback: recent messages kept with a refresh note, no model call",
            "summary_model",
            "summary_base_url",
            "compress_history",
        ),
        Role("manuals", "writes Protocol II's manuals (webfovea manual)", "--writer"),
    )
}
ROUTE_KEYS = ("model", "base_url")


class RoutesError(ValueError):
    """A routes file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class Route:
    model: str  # a model spec, or RULE
    base_url: str | None = None

    @property
    def is_rule(self) -> bool:
        return self.model == RULE


def _allowed() -> str:
    return ", ".join(ROLES)


def _route(path: Path, key: str, value: Any) -> Route:
    role = ROLES[key]
    if isinstance(value, str):
        value = {"model": value}
    if not isinstance(value, dict):
        raise RoutesError(
            f'{path}: {key}: give a model spec ("openai:MODEL", "oracle", ...) or a table '
            '{model = "SPEC", base_url = "URL"}' + (', or "rule"' if role.rule else "")
        )
    unknown = sorted(set(value) - set(ROUTE_KEYS))
    if unknown:
        raise RoutesError(
            f"{path}: {key}: unknown key(s) {', '.join(unknown)}; a route has {', '.join(ROUTE_KEYS)}"
        )
    model, base_url = value.get("model"), value.get("base_url")
    if not isinstance(model, str) or not model.strip():
        raise RoutesError(f"{path}: {key}: `model` must be a non-empty model spec string")
    if base_url is not None and not isinstance(base_url, str):
        raise RoutesError(f"{path}: {key}: `base_url` must be a string")
    model = model.strip()
    if model == RULE:
        if role.rule is None:
            with_rule = ", ".join(r.name for r in ROLES.values() if r.rule)
            raise RoutesError(
                f'{path}: {key}: "rule" is not a route for {key} (a rule answers only: {with_rule})'
            )
        if base_url is not None:
            raise RoutesError(f'{path}: {key}: a "rule" route takes no base_url')
    return Route(model, base_url)


def load_routes(path: Path | str) -> dict[str, Route]:
    """The routes of a TOML file: `ROLE = "SPEC"` or `ROLE = {model = "SPEC", base_url = "URL"}`
    per line, ROLE one of ROLES. RoutesError names the file, the key and the roles allowed."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise RoutesError(f"cannot read the routes file {path}: {e.strerror or e}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise RoutesError(f"{path}: not a TOML file: {e}") from None
    unknown = [k for k in data if k not in ROLES]
    if unknown:
        raise RoutesError(f"{path}: unknown role {unknown[0]!r}; the roles are {_allowed()}")
    return {key: _route(path, key, value) for key, value in data.items()}


def pick(
    role: str, option: str | None, option_base_url: str | None, routes: dict[str, Route]
) -> Route | None:
    """The route of `role`: its option when given (with the option's base URL), else the file's
    (with the option's base URL when only that was given: an option wins field by field)."""
    if option:
        return Route(option, option_base_url)
    route = routes.get(role)
    if route is not None and option_base_url and not route.is_rule:
        return Route(route.model, option_base_url)
    return route


def config_overrides(role: str, route: Route | None) -> dict[str, object]:
    """The HarnessConfig fields a role's route travels in (none when the role is left to act)."""
    r = ROLES[role]
    if route is None or r.model_field is None:
        return {}
    out: dict[str, object] = {r.model_field: route.model}
    if r.base_url_field is not None and route.base_url:
        out[r.base_url_field] = route.base_url
    return out


def summary_is_rule(config: HarnessConfig) -> bool:
    return config.summary_model == RULE


def recorded(model: str, config: HarnessConfig, *, verifier_off: bool = False) -> dict[str, dict[str, Any]]:
    """The route of each role a task's run uses, as run.json and result.json record it:
    `{ROLE: {model, via}}`, via `own` (a model of its own), `act` (the task's model in a
    separate call), `rule` (no model), or `off` (the role's component is off: no call; for
    verify also `verifier_off`, a task model that replays a script and no verifier given)."""
    out: dict[str, dict[str, Any]] = {"act": {"model": model, "via": "own"}}
    for r in ROLES.values():
        if r.model_field is None:
            continue
        spec = getattr(config, r.model_field)
        off = r.switch is not None and not config.on(r.switch)
        if off or (r.name == "verify" and verifier_off):
            out[r.name] = {"model": None, "via": "off"}
        elif spec == RULE:
            out[r.name] = {"model": None, "via": "rule"}
        elif spec:
            out[r.name] = {"model": spec, "via": "own"}
        else:
            out[r.name] = {"model": model, "via": "act"}
    return out
