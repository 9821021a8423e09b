"""The arms of an A/B run: each is a name plus the config it runs with (a profile, components
off, HarnessConfig field overrides). Every arm of one A/B gets the same budgets.

Forms (`webfovea ab --arms a,b` names; `--arm NAME=SPEC` full specs):
  webfovea | reference | winner       a profile as it is
  vision | structured | hybrid        the `webfovea` profile with `observation=<mode>`
  NAME=PROFILE[:KEY=VALUE,...]        e.g. `lean=webfovea:disable=select,fill` or
                                      `ws=winner:observation=structured,max_steps=60`
`disable=` takes a comma-separated list (items without `=` continue it); any other key is
a HarnessConfig field. A field this build does not have is an error that names it, so an arm
written for a later build fails before any task runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from webfovea.config import PROFILES, HarnessConfig
from webfovea.observation.modes import MODES

OBSERVATION_MODES = MODES  # the registry itself: a mode registered there is an arm word too
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,40}$")


class ArmError(ValueError):
    """An arm that cannot be built; str(e) says what to write instead."""


@dataclass
class Arm:
    name: str
    profile: str = "webfovea"
    disable: list[str] = field(default_factory=list)
    overrides: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"profile": self.profile, "disable": list(self.disable), "overrides": dict(self.overrides)}


def _base(name: str, word: str) -> Arm:
    """The arm a bare word names: a profile, or an observation mode on the `webfovea` profile."""
    if word in PROFILES:
        return Arm(name, profile=word)
    if word in OBSERVATION_MODES:
        if word == "vision" and "observation" not in HarnessConfig.model_fields:
            return Arm(name)  # a build without observation modes is vision throughout
        return Arm(name, overrides={"observation": word})
    raise ArmError(
        f"arm {name!r}: {word!r} is neither a profile ({', '.join(PROFILES)}) nor an observation "
        f"mode ({', '.join(OBSERVATION_MODES)}); write --arm NAME=PROFILE[:KEY=VALUE,...]"
    )


def _check_name(name: str) -> str:
    if not _NAME_RE.match(name):
        raise ArmError(f"arm name {name!r} must be letters, digits, '_', '.' or '-' (it names a folder)")
    return name


def parse_arm(text: str) -> Arm:
    """One arm: a bare profile or mode name, or NAME=PROFILE[:KEY=VALUE,...]."""
    text = text.strip()
    if "=" not in text.split(":", 1)[0]:
        if ":" in text:
            raise ArmError(f"arm {text!r}: options need a name, e.g. --arm mine={text}")
        return _base(_check_name(text), text)
    name, _, rest = text.partition("=")
    word, _, options = rest.partition(":")
    arm = _base(_check_name(name.strip()), word.strip())
    key: str | None = None
    for item in (i.strip() for i in options.split(",")):
        if not item:
            continue
        if "=" in item:
            key, _, value = item.partition("=")
            key, value = key.strip(), value.strip()
            if key == "disable":
                arm.disable += [v for v in value.split("+") if v]
            else:
                arm.overrides[key] = value
        elif key == "disable":
            arm.disable.append(item)
        else:
            raise ArmError(f"arm {name!r}: {item!r} is not KEY=VALUE")
    return arm


def parse_arms(names: str | None, specs: list[str] | None) -> list[Arm]:
    """`--arms a,b` and every `--arm NAME=SPEC`, in that order; at least two, names unique."""
    arms = [parse_arm(n) for n in (names or "").split(",") if n.strip()]
    arms += [parse_arm(s) for s in specs or []]
    if len(arms) < 2:
        raise ArmError("an A/B needs at least two arms, e.g. --arms webfovea,reference")
    seen: set[str] = set()
    for arm in arms:
        if arm.name in seen:
            raise ArmError(f"arm {arm.name!r} is named twice; give each --arm its own NAME=")
        seen.add(arm.name)
    return arms


def check_fields(arm: Arm) -> None:
    """Every override names a HarnessConfig field of this build, else a clear error."""
    known = set(HarnessConfig.model_fields)
    for key in arm.overrides:
        if key in known:
            continue
        if key == "observation":
            raise ArmError(
                f"arm {arm.name!r} needs the observation mode setting (HarnessConfig.observation), "
                "which this build does not have: only vision exists here. Use profile arms "
                "(webfovea, reference, winner) or NAME=PROFILE:disable=... arms"
            )
        raise ArmError(
            f"arm {arm.name!r}: HarnessConfig has no field {key!r}; known fields: "
            f"{', '.join(sorted(known - {'components', 'profile'}))}"
        )
    for key in ("components", "profile"):
        if key in arm.overrides:
            raise ArmError(f"arm {arm.name!r}: set {key} through the profile and disable=, not as a field")


def arm_config(
    arm: Arm, *, model: str, budgets: dict[str, Any], coords: str | None = None, cap: str | None = None
) -> HarnessConfig:
    """The arm's config for `model`: the shared budgets, then the arm's own overrides."""
    from webfovea.observation.sizing import harness_config

    check_fields(arm)
    overrides = {**budgets, **arm.overrides}
    try:
        return harness_config(
            arm.profile, arm.disable or None, model=model, cap=cap, coordinate_convention=coords, **overrides
        )
    except ValueError as e:  # an unknown component, a bad value: name the arm
        raise ArmError(f"arm {arm.name!r}: {' '.join(str(e).split())[:300]}") from None
