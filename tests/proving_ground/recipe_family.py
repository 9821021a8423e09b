"""A throwaway intervention family, written as a module under
`webfovea_breakingweb/interventions/network/` would be (`network/recipe_teapot`): the
first call to the task's main route answers 418 (real-world counterpart: a proxy answering
"I'm a teapot"). `interventions.register(recipe_family)` adds
it the way `_MODULES` adds the built-in ones."""

from __future__ import annotations

import random

from webfovea_breakingweb.interventions.base import Effect, Family, NetworkRule
from webfovea_proving_ground.sessions import Session

ERROR = "The kettle is busy (recipe intervention)."


def _decide(ordinal: int, session: Session, rng: random.Random, target: str) -> Effect | None:
    return Effect(status=418, body={"ok": False, "error": ERROR}, note="teapot") if ordinal == 1 else None


FAMILY = Family(
    name="network/recipe_teapot",
    layer="network",
    primitive="patience",
    summary="the first call to the main route answers 418",
    counterpart="a proxy answering 418",
    network=NetworkRule("main", _decide),
)
