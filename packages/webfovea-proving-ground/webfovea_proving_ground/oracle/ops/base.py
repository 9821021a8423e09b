"""The shape of a plan operation: its typed record, its handler, and what the handler is given.

A plan step (docs/contracts.md §1) arrives as a dict; the catalogue (`ops/catalog.py`) finds
its op by the step's `"op"` and parses the step into that op's record, a `PlanStep` with typed
fields. The handler turns the record into what a model would say next, from what the model was
shown (`View`), or returns None when the step is done (or is given up) and the plan moves on.

Keys every op may carry (`expect`, `saves`, `detour`, `cue`, `span`, `trap`, `instead`, `verify`, `on`) are read by
the model's plan loop and its helpers from the plan itself; a record holds only what its
handler reads.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict

from webfovea_proving_ground.oracle.host import Emit, Host, View
from webfovea_proving_ground.oracle.misreads import Misreads
from webfovea_proving_ground.oracle.moves import Moves
from webfovea_proving_ground.oracle.structured import Refs


class PlanStep(BaseModel):
    """One plan step, typed: the fields its op's handler reads (other keys are left to the model)."""

    # Numbers are taken as text (an option or a search written as 2021), as the ops always did.
    model_config = ConfigDict(extra="ignore", frozen=True, coerce_numbers_to_str=True)


class OpContext(Host, Protocol):
    """What a handler is given: the model as its helpers see it, and the helpers themselves."""

    retries: int  # retries of a step whose `expect` still fails
    moves: Moves
    refs: Refs
    misreads: Misreads


R = TypeVar("R", bound=PlanStep)
Handler = Callable[[OpContext, R, View, int], Awaitable[Emit | None]]


@dataclass(frozen=True)
class PlanOp(Generic[R]):
    """A plan op: its name in a plan, the record a step of it is parsed into, and its handler
    (`handle(oracle, step, view, index)`: `index` is the reply's number, for seeded quirks)."""

    name: str
    record: type[R]
    handle: Handler[R]

    def parse(self, step: dict[str, Any]) -> R:
        return self.record.model_validate(step)
