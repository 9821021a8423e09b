"""A run's configuration from its options, and its model checked before any browser starts."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol, TypeVar, cast

from webfovea.app.errors import AppError, config_error
from webfovea.config import HarnessConfig
from webfovea.models.routes import RULE, Route, RoutesError, load_routes, pick


def build_config(
    model: str,
    profile: str,
    disable: list[str] | None,
    coords: str | None,
    cap: str | None = None,
    **overrides: Any,
) -> HarnessConfig:
    """The run's config: the model's conventions row picks the coordinate convention and the
    screenshot cap; `coords` (--coords) and `cap` (--cap) win over it."""
    from webfovea.observation.sizing import harness_config

    if overrides.get("observation") is None:
        overrides.pop("observation", None)  # not given: the profile's mode (docs/profiles.md)
    try:
        return harness_config(
            profile, disable, model=model, cap=cap, coordinate_convention=coords, **overrides
        )
    except ValueError as e:
        raise config_error(e) from None


def check_model(model: str, base_url: str | None) -> None:
    """Build a provider client once before any browser starts, so a bad spec, a missing key or
    an interface the model's row does not have stops the command with what to set. (The
    oracle and replay need a task's page; they are checked when they are built. A script is read
    here: a missing or empty file is named before any browser starts.)"""
    from webfovea.models.factory import make_model, model_kind

    kind = model.partition(":")[0].strip().lower()
    # An unknown kind (`--model bogus`) is refused here too: otherwise every task would run to
    # model_error and the command would exit 0.
    if kind not in ("openai", "anthropic", "script") and model_kind(model.partition(":")[0]) is not None:
        return

    try:
        make_model(model, base_url=base_url)
    except ValueError as e:  # ModelConfigError is a ValueError
        raise AppError(str(e)) from None


def verifier_overrides(verifier: str | None, base_url: str | None = None) -> dict[str, object]:
    """Config fields for --verifier (none when it is not given: the task's model verifies); the
    model is checked like --model before any browser starts."""
    if not verifier:
        return {}
    check_model(verifier, base_url)
    return {"verifier_model": verifier, **({"verifier_base_url": base_url} if base_url else {})}


def summary_overrides(summary_model: str | None, base_url: str | None = None) -> dict[str, object]:
    """Config fields for --summary-model (none when it is not given: the task's model writes the
    history summary); "rule" is the rule-based fallback; a model is checked like --model."""
    if not summary_model:
        return {}
    if summary_model != RULE:
        check_model(summary_model, base_url)
    return {"summary_model": summary_model, **({"summary_base_url": base_url} if base_url else {})}


def read_routes(path: Path | None) -> dict[str, Route]:
    """The routes of --models FILE (none without one); AppError names the file and the key."""
    if path is None:
        return {}
    try:
        return load_routes(path)
    except RoutesError as e:
        raise AppError(f"--models: {e}") from None


class Routed(Protocol):
    """The option fields every command that runs tasks has for the roles (BenchOptions, AbOptions)."""

    models: Path | None
    model: str | None
    base_url: str | None
    vision_model: str | None
    vision_base_url: str | None
    verifier: str | None
    verifier_base_url: str | None
    summary_model: str | None
    summary_base_url: str | None


@dataclass
class RoleOptions:
    """The roles' options of a command without an options record of its own (`webfovea run`,
    `webfovea mcp`), resolved by `routed` like BenchOptions."""

    models: Path | None = None
    model: str | None = None
    base_url: str | None = None
    vision_model: str | None = None
    vision_base_url: str | None = None
    verifier: str | None = None
    verifier_base_url: str | None = None
    summary_model: str | None = None
    summary_base_url: str | None = None


# role -> the option fields (model, base URL) that carry it, and which win over the file
_OPTION_FIELDS = {
    "act": ("model", "base_url"),
    "look": ("vision_model", "vision_base_url"),
    "verify": ("verifier", "verifier_base_url"),
    "summarise": ("summary_model", "summary_base_url"),
}
DEFAULT_MODEL = "oracle"  # the act role when neither --model nor the routes file names one


OptionsT = TypeVar("OptionsT", bound=Routed)


def routed(o: OptionsT) -> OptionsT:
    """`o` with every role its own options leave open taken from its routes file (`models`),
    and the act role defaulted: from here on the options travel as before."""
    file = read_routes(o.models)
    updates: dict[str, object] = {}
    for role, (model_field, url_field) in _OPTION_FIELDS.items():
        route = pick(role, getattr(o, model_field), getattr(o, url_field), file)
        if route is not None:
            updates[model_field], updates[url_field] = route.model, route.base_url
    updates["model"] = updates.get("model") or DEFAULT_MODEL
    out: OptionsT = replace(cast(Any, o), **updates)
    return out


def vision_overrides(vision_model: str | None, vision_base_url: str | None) -> dict[str, object]:
    """Config fields for --vision-model (none when it is not given: configs stay as before);
    the model is checked like --model before any browser starts."""
    if vision_base_url and not vision_model:
        raise AppError("--vision-base-url needs --vision-model")
    if not vision_model:
        return {}
    check_model(vision_model, vision_base_url)
    return {"vision_model": vision_model, "vision_base_url": vision_base_url}
