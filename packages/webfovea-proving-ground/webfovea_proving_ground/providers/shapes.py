"""How the loopback Messages API shapes the oracle's reply: `oracle:via=anthropic,via_shape=SHAPE`.

The oracle decides; the shape decides how that decision comes back, so the real client meets
every shape the API documents on the built-in suite:

- `thought` (default): the oracle's thought as a text block, then its tool_use;
- `tool_only`: the tool_use alone (Claude's usual shape with tools);
- `thinking`: the thought as a `thinking` block with a signature; the server rejects a later
  request whose thinking blocks came back changed, dropped or out of order, as the API does;
- `paused`: each turn first stops with `pause_turn` (the thought only); the client must send
  the paused content back as the last assistant turn, then gets the call;
- `cut_once`: the first call comes back cut off (`max_tokens`, half its arguments); the same
  decision is answered again to the next request, which must not have run it;
- `refuse_once`: the first turn is a refusal; the decision follows at the next request.

A held decision is answered again without asking the oracle, which already made it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from webfovea_proving_ground.providers.sdk_replies import text_block, thinking_block
from webfovea_proving_ground.providers.tokens import RequestRejected

SHAPES = ("thought", "tool_only", "thinking", "paused", "cut_once", "refuse_once")
REFUSAL = "I can't help with that."


def signature(thinking: str) -> str:
    return "sig-" + hashlib.sha256(thinking.encode()).hexdigest()[:32]


@dataclass
class Shaper:
    shape: str = "thought"
    held: str | None = None  # an oracle reply already made, to be answered again
    once_done: bool = False
    thinking_sent: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise ValueError(f"via_shape={self.shape!r}: use one of {', '.join(SHAPES)}")

    def check(self, body: dict[str, Any]) -> None:
        """The thinking blocks sent so far come back unchanged and in order (shape `thinking`)."""
        if self.shape != "thinking" or not any(m["role"] == "assistant" for m in body["messages"]):
            return  # a conversation rebuilt in one user message (no append-only history) has none to carry
        back = [
            b
            for m in body["messages"]
            if m["role"] == "assistant" and isinstance(m["content"], list)
            for b in m["content"]
            if b.get("type") in ("thinking", "redacted_thinking")
        ]
        for b in back:
            if b.get("signature") != signature(str(b.get("thinking", ""))):
                raise RequestRejected(
                    "messages: a thinking block was modified (its signature does not match)"
                )
        if back != self.thinking_sent[: len(back)] or (self.thinking_sent and not back):
            raise RequestRejected("messages: thinking blocks must be passed back unchanged and in order")

    def early(self, body: dict[str, Any], text: str) -> tuple[list[dict[str, Any]], str] | None:
        """A turn answered before the decision's own call (a pause, a cut-off, a refusal), or None."""
        continuing = body["messages"][-1]["role"] == "assistant"
        if self.shape == "paused" and not continuing:
            self.held = text
            return [text_block("Let me look at the page before I act.")], "pause_turn"
        if self.shape == "refuse_once" and not self.once_done:
            self.once_done, self.held = True, text
            return [text_block(REFUSAL)], "refusal"
        return None

    def cuts_now(self, text: str) -> bool:
        """Shape `cut_once`, first decision: it is answered cut off now, and whole next time."""
        if self.shape != "cut_once" or self.once_done:
            return False
        self.once_done, self.held = True, text
        return True

    def final(
        self, blocks: list[dict[str, Any]], stop: str, first_cut: bool
    ) -> tuple[list[dict[str, Any]], str]:
        """The decision's blocks in the shape (`first_cut`: this is the cut-off answer)."""
        if first_cut and stop == "tool_use":
            call = blocks[-1]
            half = dict(list(call["input"].items())[:1])
            return [*blocks[:-1], {**call, "input": half}], "max_tokens"
        if first_cut:  # a text reply: its first half
            text = "".join(str(b.get("text", "")) for b in blocks)
            return [text_block(text[: max(1, len(text) // 2)])], "max_tokens"
        if self.shape == "tool_only":
            return [b for b in blocks if b.get("type") != "text"], stop
        if self.shape == "thinking":
            shaped = []
            for b in blocks:
                if b.get("type") == "text" and stop == "tool_use":
                    b = thinking_block(b["text"], signature(b["text"]))
                    self.thinking_sent.append(b)
                shaped.append(b)
            return shaped, stop
        return blocks, stop
