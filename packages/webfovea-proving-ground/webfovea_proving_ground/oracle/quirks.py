"""The oracle's real-model quirks, as seeded knobs.

Two failures the WebFovea paper saw in a real model's replies, reproduced so that a
harness can be measured on them:

- contamination: in 4.9% of episodes, from some step on, the model appends a
  chat-template token (`<|eot_id|>` ...) to what it writes, right after the content
  of a text argument (the token then got typed into a search box) and/or at the
  end of the reply;
- invented continuation: after its real action the model keeps writing a fake
  `Observation:` and more Thought/Action pairs, ending in a fake `finished(...)`.

Which quirk fires where is decided from (seed, task_id), so a run is reproducible.
The quirks show only in the reply text; `log` records them for tests and reports.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

CHAT_TOKENS = ("<|eot_id|>", "<|end_of_turn|>", "<|im_end|>")
PLACEMENTS = ("argument", "end", "both")

_FAKE_OBSERVATIONS = (
    "The page now shows the filtered results.",
    "The table has been updated with the selected values.",
    "The requested figure is displayed on the screen.",
)
_FAKE_THOUGHTS = (
    "The results are visible now, so I can read off the value.",
    "I can see the number I need in the table.",
    "The page confirms the value, I'll submit it.",
)


@dataclass
class Quirks:
    """Per-episode quirk decisions. `overrides` come from the task (`task.quirks`) or the caller."""

    task_id: str
    seed: int = 0
    contaminate_rate: float = 0.049
    continuation_rate: float = 0.03
    overrides: dict[str, Any] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for name in ("contaminate_rate", "continuation_rate"):
            value = getattr(self, name)
            if not 0.0 <= float(value) <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, got {value!r}")
        rng = random.Random(f"oracle-episode:{self.seed}:{self.task_id}")
        # Draw every episode decision unconditionally so one knob never shifts another.
        contaminated = rng.random() < self.contaminate_rate
        from_step = rng.randint(0, 4)
        token = rng.choice(CHAT_TOKENS)
        placement = rng.choice(PLACEMENTS)
        forced = self.overrides.get("contaminate_from_step")
        self.contaminate_from: int | None = (
            int(forced) if forced is not None else (from_step if contaminated else None)
        )
        self.token: str = str(self.overrides.get("contaminate_token", token))
        self.placement: str = str(self.overrides.get("contaminate_where", placement))
        if self.token not in CHAT_TOKENS and not self.token.startswith("<"):
            raise ValueError(f"contaminate_token must be a chat-template token, got {self.token!r}")
        if self.placement not in PLACEMENTS:
            raise ValueError(f"contaminate_where must be one of {PLACEMENTS}, got {self.placement!r}")
        at = self.overrides.get("continuation_at_step")
        self.continuation_at: set[int] | None = None
        if at is not None:
            self.continuation_at = {int(a) for a in (at if isinstance(at, list | tuple | set) else [at])}

    def contaminated(self, call: int) -> bool:
        return self.contaminate_from is not None and call >= self.contaminate_from

    def in_argument(self, call: int, content: str) -> str:
        """The text argument as a contaminated model writes it: token right after the text,
        before a submitting newline."""
        if not self.contaminated(call) or self.placement == "end":
            return content
        body, newline = (content[:-1], "\n") if content.endswith("\n") else (content, "")
        self.log.append({"call": call, "quirk": "contamination", "where": "argument", "token": self.token})
        return body + self.token + newline

    def finish(self, call: int, text: str, rng: random.Random, *, has_argument: bool, final: bool) -> str:
        """Apply end-of-reply quirks to a reply whose action is already written."""
        if self.contaminated(call) and (self.placement != "argument" or not has_argument):
            text += self.token
            self.log.append({"call": call, "quirk": "contamination", "where": "end", "token": self.token})
        # The draw happens on every call so forcing one step leaves the others unchanged.
        fires = rng.random() < self.continuation_rate
        if self.continuation_at is not None:
            fires = call in self.continuation_at
        if fires and not final:
            fake, answer = self._continuation(rng)
            text += fake
            self.log.append({"call": call, "quirk": "continuation", "fake_answer": answer})
        return text

    def _continuation(self, rng: random.Random) -> tuple[str, str]:
        # A wrong answer: a random figure, never derived from the task or the page.
        answer = f"{rng.randint(10, 99999) / 10:.1f}"
        parts = [
            f"\nObservation: {rng.choice(_FAKE_OBSERVATIONS)}",
            f"\nThought: {rng.choice(_FAKE_THOUGHTS)}",
        ]
        if rng.random() < 0.5:  # sometimes a fake intermediate action before the fake answer
            x, y = rng.randint(100, 1300), rng.randint(100, 700)
            parts.append(f"\nAction: click(start_box='<|box_start|>({x},{y})<|box_end|>')")
            parts.append(f"\nObservation: {rng.choice(_FAKE_OBSERVATIONS)}")
            parts.append(f"\nThought: {rng.choice(_FAKE_THOUGHTS)}")
        parts.append(f"\nAction: finished(content='{answer}')")
        return "".join(parts), answer
