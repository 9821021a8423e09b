"""What the oracle's helpers share, and what each needs from the model that holds them.

`OracleModel` (webfovea_proving_ground/oracle/model.py) is composed of helpers: `Moves` (bringing a
target into view, the point it names), `Locating` (locate and look), `Refs` (naming targets
by ref in structured and hybrid modes) and the plan operations (webfovea_proving_ground/oracle/ops/).
None of them inherits from the model or reaches into it: each is given the model as one of
the small interfaces below.

- `Observed`: what the oracle sees — the page the harness shows, read only, like a model
  reads a screenshot. Nothing else of the harness is reachable through it.
- `PlanState`: where it is in its plan — the knobs, the plan, the current step's counters.
- `Speaking`: how it talks — the seeded reply quirks (contamination in arguments, ref
  spellings) and its final answer.

`View` is how the oracle looks at the current screenshot, `Emit` one reply it decides on,
`StepState` the counters of the plan step it is on (reset when it moves to the next).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

from playwright.async_api import Page

from webfovea_proving_ground.oracle.quirks import Quirks
from webfovea_proving_ground.oracle.speech import PromptView
from webfovea_proving_ground.plan import Step


@dataclass
class Emit:
    thought: str
    action: str
    main: bool = True  # the step's effective action: check `expect` on the next call
    has_argument: bool = False  # carries a text argument (contamination goes inside it)
    final: bool = False  # finished(...)


@dataclass
class View:
    """How the oracle looks at the current screenshot."""

    prompt: PromptView
    seen_w: int
    seen_h: int
    rng: random.Random
    snapshot: str | None = None  # the snapshot text it was given (structured/hybrid)
    feedback: str | None = None  # the note on its last action (find/snapshot results live here)
    has_image: bool = True


@dataclass
class StepState:
    """The counters of the current plan step; a fresh one for every step."""

    attempts: int = 0  # main actions made for the step (retried while `expect` fails)
    phase: int = 0  # where a multi-reply op is (open the list, then pick; click, then type)
    scrolls: int = 0
    stuck: int = 0  # scrolls that moved nothing
    waits: int = 0
    last_scroll_rect: tuple[float, ...] | None = None
    finds: int = 0
    looks: int = 0
    locates: int = 0
    locating: dict[str, Any] | None = None  # the target this oracle asked the harness to locate
    located: tuple[int, int] | None = None  # the point the harness's locate returned


class Observed(Protocol):
    """What the oracle sees: the page the harness shows (read only)."""

    @property
    def page(self) -> Page: ...


class PlanState(Protocol):
    """Where the oracle is in its plan."""

    knobs: dict[str, Any]
    plan: list[Step]
    state: StepState


class Speaking(Protocol):
    """How the oracle talks: its seeded quirks, and its final answer."""

    reply_quirks: Quirks

    def finish(self, view: View, index: int, content: str, giveup: bool = False) -> Emit: ...


class Looking(Observed, PlanState, Protocol):
    """What moving through the page needs: the page and the step's counters (`Moves`, `Locating`)."""


class Host(Observed, PlanState, Speaking, Protocol):
    """The whole model as its helpers see it."""
