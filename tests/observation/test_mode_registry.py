"""Observation modes are a registry: each mode builds its own model input, its `image` flag
says what that input holds, and a mode registered from outside is picked by name."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from PIL import Image

from webfovea.execution.response import Response
from webfovea.models.base import ModelInput
from webfovea.observation import modes
from webfovea.observation.history import History
from webfovea.observation.modes import MODES, ObservationMode, Seen
from webfovea.observation.prompt import system_prompt

SHOT = Image.new("RGB", (8, 6), "white")


def _seen(response: Response | None = None) -> Seen:
    return Seen(
        "sys", "task", 1, "fb", image=SHOT, snapshot="- button [ref=e1]", response=response or Response()
    )


@pytest.mark.parametrize("name", sorted(MODES))
def test_each_mode_shows_what_its_flags_say(name):
    mode = MODES[name]
    inp = mode.model_input(History(3), _seen())
    assert bool(inp.images) == mode.image
    # the AI snapshot; a mode's own text beside the image (elements' list) comes under its own title
    assert (inp.snapshot is not None and inp.snapshot_title is None) == mode.snapshot
    asked = mode.model_input(History(3), _seen(Response(screenshot=True)))
    assert asked.images == [SHOT]  # a screenshot an action asked for is shown in every mode


@dataclass(frozen=True)
class _Caption(ObservationMode):
    def remember(self, history, reply, image, snapshot, step):
        history.add(reply, None)

    def model_input(self, history: History, seen: Seen) -> ModelInput:
        return history.model_input(
            system=seen.system, task=seen.task, current=None, feedback="caption only", step=seen.step
        )


def test_a_registered_mode_is_picked_by_name():
    mode = _Caption(
        "caption", "text only", image=False, snapshot=False, refs=False, points=True, intro="You read"
    )
    modes.register(mode)
    try:
        assert modes.get("caption") is mode
        modes.register(mode)  # the same mode again: nothing changes
        other = _Caption("caption", "other", image=False, snapshot=False, refs=False, points=True, intro="x")
        with pytest.raises(ValueError, match="already registered"):
            modes.register(other)
        from webfovea.config import make_config

        assert system_prompt([], make_config("webfovea"), mode).startswith("You are a web agent. You read")
    finally:
        modes.unregister("caption")
    with pytest.raises(ValueError, match="unknown observation mode"):
        modes.get("caption")
