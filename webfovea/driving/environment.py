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
from typing import Any, Protocol

from playwright.async_api import Page

from webfovea.plugins import Registry
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


@dataclass(frozen=True)
class EnvironmentKind:
    """A kind of task environment: its name (`EnvironmentSpec.kind`) and what makes one."""

    name: str
    factory: EnvironmentFactory


def _kind_of(obj: Any, ep_name: str) -> list[EnvironmentKind] | None:
    # An entry point names the factory itself; the entry point's name is the kind's.
    return None if isinstance(obj, EnvironmentKind) else [EnvironmentKind(ep_name, obj)]


ENVIRONMENTS: Registry[EnvironmentKind] = Registry(
    "environment kind", ENTRY_POINT_GROUP, EnvironmentKind, expand=_kind_of, fold_case=True
)


def register_environment(kind: str, factory: EnvironmentFactory) -> None:
    ENVIRONMENTS.register(EnvironmentKind(kind, factory), replace=True)


def environment_kinds() -> list[str]:
    return sorted(ENVIRONMENTS.names())


def make_environment(spec: EnvironmentSpec) -> TaskEnvironment:
    """The environment a task names; EnvironmentError with what to do when it cannot be made."""
    kind = ENVIRONMENTS.get(spec.kind)
    if kind is None:
        why = ENVIRONMENTS.why_missing(spec.kind)
        known = ", ".join(sorted(ENVIRONMENTS.names())) or "none registered"
        raise EnvironmentError(
            f"environment kind {spec.kind!r} cannot be loaded: {why}"
            if why
            else f"unknown environment kind {spec.kind!r} (known: {known})"
        )
    return kind.factory(spec)


def environment_state(check: EnvironmentCheck) -> StateScore:
    """The state as result.json records it: the environment's verdict, marked as such."""
    return check.state.model_copy(update={"judged_by": "environment"})
