"""Task environments: something outside the harness that sets a task up on the task's page and
scores it from the page's own state — a BrowserGym task (`webfovea/environments/browsergym/`)
whose `validate` gives the reward.

A task names its environment (`Task.environment`: kind, name, seed, options); the task driver
makes it from the registry, lets it set the page up instead of going to the start URL (it may
state the goal), asks it after every step whether the episode is over, and writes what it scored
into result.json `state` (with `judged_by: "environment"`, so the score is its verdict). Kinds
come from the `webfovea.environments` entry points, like model kinds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import entry_points
from typing import Any, Protocol

from playwright.async_api import Page

from webfovea.record.schema import StateScore
from webfovea.task import EnvironmentSpec

ENTRY_POINT_GROUP = "webfovea.environments"


class EnvironmentError(Exception):
    """The environment cannot be made or set up (unknown kind or task, its package missing)."""


@dataclass(frozen=True)
class EnvironmentCheck:
    done: bool  # the environment ended the episode
    state: StateScore  # its score now (`passed`, `score`, what it reported)


class TaskEnvironment(Protocol):
    async def setup(self, page: Page) -> str | None:
        """Set the task up on `page` (it navigates itself); the goal when the environment states it."""
        ...

    async def check(self, page: Page) -> EnvironmentCheck:
        """After a step: is the episode over, and what does the environment score now?"""
        ...

    async def aclose(self) -> None: ...


EnvironmentFactory = Callable[[EnvironmentSpec], TaskEnvironment]
_KINDS: dict[str, EnvironmentFactory] = {}


def register_environment(kind: str, factory: EnvironmentFactory) -> None:
    _KINDS[kind.strip().lower()] = factory


def environment_kinds() -> list[str]:
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        _load(ep)
    return sorted(_KINDS)


def _load(ep: Any) -> None:
    try:
        factory = ep.load()
    except ImportError as e:
        raise EnvironmentError(f"environment kind {ep.name!r} cannot be loaded: {e}") from e
    register_environment(ep.name, factory)


def make_environment(spec: EnvironmentSpec) -> TaskEnvironment:
    """The environment a task names; EnvironmentError with what to do when it cannot be made."""
    kind = spec.kind.strip().lower()
    if kind not in _KINDS:
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            if ep.name.strip().lower() == kind:
                _load(ep)
    factory = _KINDS.get(kind)
    if factory is None:
        known = ", ".join(sorted(_KINDS)) or "none registered"
        raise EnvironmentError(f"unknown environment kind {spec.kind!r} (known: {known})")
    return factory(spec)


def environment_state(check: EnvironmentCheck) -> StateScore:
    """The state as result.json records it: the environment's verdict, marked as such."""
    return check.state.model_copy(update={"judged_by": "environment"})
