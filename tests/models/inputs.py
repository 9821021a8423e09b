"""A ModelInput with known content and distinct images, shared by the client tests."""

from __future__ import annotations

from PIL import Image

from webfovea.models.base import ModelInput
from webfovea.models.retry import RetryPolicy

# Short waits so the retry tests stay fast; the budget is still far above what they use.
FAST = RetryPolicy(max_attempts=6, budget_s=15.0, base_delay_s=0.05, max_delay_s=0.2)
SIZES = [(320, 180), (300, 170), (240, 135)]
COLOURS = [(255, 0, 0), (0, 255, 0), (0, 0, 255)]


def make_input(n_images: int = 3, feedback: str | None = "Nothing changed after the click.") -> ModelInput:
    images = [Image.new("RGB", SIZES[i], COLOURS[i]) for i in range(n_images)]
    return ModelInput(
        system="SYSTEM PROMPT: act on the page.",
        task="Find the population of Vietnam in 2020.",
        history=[
            "Thought: open the menu\nAction: click(start_box='(10,20)')",
            "Thought: pick the country\nAction: select(start_box='(30,40)', option='Vietnam')",
        ],
        images=images,
        feedback=feedback,
        step=2,
    )
