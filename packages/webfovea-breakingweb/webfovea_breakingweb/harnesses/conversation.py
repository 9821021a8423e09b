"""What the decision-maker is sent each step, under the text harness's input budget (seed 003,
Appendix A.2.1): "The observation budget is capped at 26,000 input tokens; when the conversation
would exceed that budget, the harness drops the oldest turns and replaces them with a short fact
summary so the system prompt and the latest observation always remain in scope."

Tokens are counted by a local estimate (tiktoken's encodings are downloaded on first use, and
these runs are offline): about four characters a token, as cl100k_base averages on English and
markup, plus a few tokens per message; an image by its pixels (/750, Anthropic's documented
rule). The estimate decides what is dropped; the same estimate is recorded with every step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

INPUT_BUDGET = 26_000  # seed 003, Appendix A.2.1
PER_MESSAGE = 4  # a chat message's framing tokens
CHARS_PER_TOKEN = 4.0
SUMMARY_HEAD = "## summary of earlier steps (older turns dropped to stay within the input budget)"


def estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def image_tokens(width: int, height: int) -> int:
    return math.ceil(width * height / 750)


@dataclass
class Message:
    role: str  # system | user | assistant
    text: str
    image: Any = None  # the screenshot (numpy array, h × w × 3) of a GUI observation

    def tokens(self) -> int:
        n = PER_MESSAGE + estimate_tokens(self.text)
        if self.image is not None:
            n += image_tokens(int(self.image.shape[1]), int(self.image.shape[0]))
        return n


@dataclass
class Turn:
    """One past step: what the agent was shown, what it answered, and the facts kept of it."""

    observation: Message
    action: Message
    fact: str


@dataclass
class Sent:
    """One step's input as sent, and what the budget did to it."""

    messages: list[Message]
    tokens: int
    dropped_turns: int


@dataclass
class Conversation:
    system: str
    budget: int = INPUT_BUDGET
    keep_images: int = 1  # GUI: only the latest screenshots stay images; older ones a stub line
    turns: list[Turn] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)  # facts of the turns dropped so far

    def record(self, observation: Message, action: str, fact: str) -> None:
        self.turns.append(Turn(observation, Message("assistant", action), fact))

    def input(self, latest: Message) -> Sent:
        """The messages for this step: the system prompt, a fact summary of dropped turns, the
        kept turns (oldest dropped first until the estimate fits) and the latest observation."""
        while True:
            messages = self._compose(latest)
            total = sum(m.tokens() for m in messages)
            if total <= self.budget or not self.turns:
                return Sent(messages, total, len(self.dropped))
            self.dropped.append(self.turns.pop(0).fact)

    def _compose(self, latest: Message) -> list[Message]:
        out = [Message("system", self.system)]
        if self.dropped:
            out.append(Message("user", "\n".join([SUMMARY_HEAD, *(f"- {f}" for f in self.dropped)])))
        with_image = (
            {id(t) for t in self.turns[len(self.turns) - self.keep_images + 1 :]}
            if self.keep_images > 1
            else set()
        )
        for t in self.turns:
            obs = t.observation
            if obs.image is not None and id(t) not in with_image:
                obs = Message(obs.role, obs.text + "\n[screenshot of this step no longer shown]")
            out += [obs, t.action]
        out.append(latest)
        return out
