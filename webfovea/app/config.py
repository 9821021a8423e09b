"""A run's configuration from its options, and its model checked before any browser starts."""

from __future__ import annotations

from typing import Any

from webfovea.app.errors import AppError
from webfovea.config import HarnessConfig


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
        raise AppError(str(e)) from None


def check_model(model: str, base_url: str | None) -> None:
    """Build a provider client once before any browser starts, so a bad spec, a missing key or
    an interface the model's row does not have stops the command with what to set. (The
    oracle and replay need a task's page; they are checked when they are built.)"""
    from webfovea.models.factory import make_model, model_kind

    kind = model.partition(":")[0].strip().lower()
    # An unknown kind (`--model bogus`) is refused here too: otherwise every task would run to
    # model_error and the command would exit 0.
    if kind not in ("openai", "anthropic") and model_kind(model.partition(":")[0]) is not None:
        return

    try:
        make_model(model, base_url=base_url)
    except ValueError as e:  # ModelConfigError is a ValueError
        raise AppError(str(e)) from None


def verifier_overrides(verifier: str | None) -> dict[str, object]:
    """Config fields for --verifier (none when it is not given: the task's model verifies); the
    model is checked like --model before any browser starts."""
    if not verifier:
        return {}
    check_model(verifier, None)
    return {"verifier_model": verifier}


def vision_overrides(vision_model: str | None, vision_base_url: str | None) -> dict[str, object]:
    """Config fields for --vision-model (none when it is not given: configs stay as before);
    the model is checked like --model before any browser starts."""
    if vision_base_url and not vision_model:
        raise AppError("--vision-base-url needs --vision-model")
    if not vision_model:
        return {}
    check_model(vision_model, vision_base_url)
    return {"vision_model": vision_model, "vision_base_url": vision_base_url}
