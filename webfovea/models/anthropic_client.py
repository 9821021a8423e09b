"""`anthropic:MODEL` — the Anthropic Messages API: text grammar, our actions as tools, or Claude's computer tool.

The reply interface comes from the model's conventions row (`reply_interface`, Claude
rows: `anthropic_tools`) unless the spec says `interface=text|tools|computer`:

- text: the UI-TARS text grammar in a text reply, as for OpenAI-compatible endpoints;
- tools: the offered actions as tools (generated from the action specs, `ModelInput.tools`);
- computer: Claude's computer-use tool (the row's version and beta header), with
  `display_width_px`/`display_height_px` = the screenshot as sent, plus our actions the
  computer tool does not cover (select, fill, find_text, read_text, back, finished ...).

With the harness's append-only history (`ModelInput.append_history`) and caching on (the
default; `cache=false` turns it off) the conversation is kept by `anthropic_transcript`,
with cache breakpoints; otherwise each call is one user message holding the text history
and the last N screenshots, as before.
"""

from __future__ import annotations

import json
from typing import Any

from webfovea.models.anthropic_transcript import THINKING as THINKING_BLOCKS
from webfovea.models.anthropic_transcript import Transcript, system_blocks
from webfovea.models.base import ModelError, ModelInput, ModelReply, ToolCall, ToolDef, Usage
from webfovea.models.conventions_row import ReplyInterface
from webfovea.models.endpoint import ModelConfigError
from webfovea.models.http_model import HttpModel, as_int
from webfovea.models.messages import anthropic_messages
from webfovea.models.sdk_transport import SdkErrors, http_client

DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com"
# The API version this client speaks: the one the official SDK it was checked against sends
# (anthropic 2.16). Its request type has no sampling parameters (`temperature`, `top_p`):
# none are sent.
ANTHROPIC_VERSION = "2026-10-21"
# `pause_turn`: the API paused a long turn; the paused content is sent back as the last
# assistant turn and the model continues. This many continuations, then the reply is
# treated as cut off (never executed).
MAX_PAUSES = 3
CUT_OFF_REASONS = ("max_tokens", "model_context_window_exceeded")
INTERFACES: dict[str, ReplyInterface] = {
    "text": "text",
    "tools": "anthropic_tools",
    "computer": "anthropic_computer",
}
# Definition flags each computer tool version accepts (`zoom` came with computer_20251124
# and is off unless `enable_zoom` is set); an older version rejects an unknown field.
COMPUTER_FLAGS: dict[str, frozenset[str]] = {"computer_20251124": frozenset({"enable_zoom"})}


def anthropic_tool(tool: ToolDef) -> dict[str, Any]:
    return {"name": tool.name, "description": tool.description, "input_schema": tool.parameters}


def thinking_config(label: str, thinking: int | str | None) -> dict[str, Any] | None:
    """The request's `thinking` from the spec's `thinking=` option: a token budget (at least
    1,024, as the API requires), `adaptive`, or off (absent, 0, `off`)."""
    if thinking in (None, 0, False, "off", "none", "disabled"):
        return None
    if thinking == "adaptive":
        return {"type": "adaptive"}
    if isinstance(thinking, bool) or not isinstance(thinking, int) or thinking < 1024:
        raise ModelConfigError(
            f"{label}: thinking={thinking!r}: give a token budget of at least 1024, adaptive, or off"
        )
    return {"type": "enabled", "budget_tokens": thinking}


def content_of(data: dict[str, Any], label: str) -> list[dict[str, Any]]:
    content = data.get("content")
    if not isinstance(content, list):
        raise ModelError(f"{label}: response has no content: {json.dumps(data)[:200]}")
    return [b for b in content if isinstance(b, dict)]


def added(a: Usage, b: Usage) -> Usage:
    """Two calls' tokens as one (a paused turn and its continuation)."""
    return Usage(
        prompt_tokens=a.prompt_tokens + b.prompt_tokens,
        completion_tokens=a.completion_tokens + b.completion_tokens,
        input_tokens=(a.input_tokens or 0) + (b.input_tokens or 0),
        cache_read_input_tokens=a.cache_read_input_tokens + b.cache_read_input_tokens,
        cache_creation_input_tokens=a.cache_creation_input_tokens + b.cache_creation_input_tokens,
        estimated=a.estimated or b.estimated,
        cache_miss=a.cache_miss and b.cache_miss,
    )


class AnthropicModel(HttpModel):
    provider = "anthropic"
    base_url_env = "ANTHROPIC_BASE_URL"
    api_key_env = "ANTHROPIC_API_KEY"
    default_base_url = DEFAULT_ANTHROPIC_BASE_URL
    example_model = "claude-opus-4-6"

    def __init__(
        self,
        model: str,
        *,
        interface: str | None = None,
        cache: bool = True,
        thinking: int | str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(model, **kwargs)
        self.thinking = thinking_config(self.label, thinking)
        row = self.conventions
        if interface is None:
            self.interface = row.reply_interface if row.reply_interface.startswith("anthropic_") else "text"
        elif interface in INTERFACES:
            self.interface = INTERFACES[interface]
        else:
            raise ModelConfigError(
                f"{self.label}: unknown interface {interface!r}; use one of: {', '.join(INTERFACES)}"
            )
        if self.interface == "anthropic_computer" and not row.computer_tool:
            raise ModelConfigError(
                f"{self.label}: the conventions row {row.family!r} has no computer-use tool; "
                "use interface=tools (our actions as tools) or a model whose row has one (`webfovea models`)"
            )
        self.cache = bool(cache)
        self.transcript = Transcript()
        self._appending = False

    sdk_path = "/v1/messages"

    @property
    def root_url(self) -> str:
        # Users paste both "https://api.anthropic.com" and ".../v1"; accept either.
        return self.base_url[: -len("/v1")] if self.base_url.endswith("/v1") else self.base_url

    @property
    def endpoint(self) -> str:
        return f"{self.root_url}{self.sdk_path}"

    def new_sdk_client(self) -> Any:
        """`anthropic.AsyncAnthropic`: its base URL, its key (none for a loopback server that
        needs none: the header is left out), our capped HTTP client, no retries of its own."""
        import anthropic

        return anthropic.AsyncAnthropic(
            base_url=self.root_url,
            api_key=self._api_key,
            max_retries=0,
            timeout=self.timeout_s,
            http_client=http_client(self.timeout_s),
        )

    def sdk_errors(self) -> SdkErrors:
        import anthropic

        return SdkErrors(anthropic.APIStatusError, anthropic.APITimeoutError, anthropic.APIConnectionError)

    def sdk_headers(self) -> dict[str, Any]:
        """The API version we checked the client against (pinned, whatever the SDK's default)
        and the computer tool's beta header; no key: no credential header at all."""
        h: dict[str, Any] = {"anthropic-version": ANTHROPIC_VERSION}
        if self.interface == "anthropic_computer" and self.conventions.computer_beta:
            h["anthropic-beta"] = self.conventions.computer_beta
        if self.keyless:
            import anthropic

            h["Authorization"] = anthropic.omit
        return h

    def tools_for(self, inp: ModelInput) -> list[dict[str, Any]]:
        if self.interface == "text" or not inp.tools:
            return []
        if self.interface == "anthropic_computer":
            w, h = inp.images[-1].size if inp.images else (1440, 810)
            version = self.conventions.computer_tool or ""
            computer: dict[str, Any] = {
                "type": version,
                "name": "computer",
                "display_width_px": w,
                "display_height_px": h,
            }
            flags = COMPUTER_FLAGS.get(version, frozenset())
            own = []
            for t in inp.tools:
                if t.computer_covered and t.computer_needs is None:
                    continue
                if t.computer_covered and t.computer_needs in flags:
                    computer[t.computer_needs] = True  # the computer tool's own action (zoom) runs it
                    continue
                own.append(anthropic_tool(t))
            return [computer, *own]
        return [anthropic_tool(t) for t in inp.tools]

    def request_body(self, inp: ModelInput) -> dict[str, Any]:
        tools = self.tools_for(inp)
        system = inp.system_tools if tools and inp.system_tools else inp.system
        self._appending = self.cache and inp.append_history
        messages = self.transcript.next_request(inp) if self._appending else anthropic_messages(inp)
        # Thinking tokens count against max_tokens: the budget comes on top of the reply's room.
        budget = self.thinking.get("budget_tokens", 0) if self.thinking else 0
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": self.output_budget() + budget,
            "system": system_blocks(system, cache=self._appending),
            "messages": messages,
        }
        if tools:
            body["tools"] = tools
        if self.thinking:
            body["thinking"] = dict(self.thinking)
        body.update(self.extra_body)
        return body

    def headers(self) -> dict[str, str]:
        """The whole call's headers for plain httpx (the judge): the SDK's, as the SDK sends them."""
        h = {"Content-Type": "application/json"}
        h.update((k, v) for k, v in self.sdk_headers().items() if isinstance(v, str))
        if self._api_key:
            h["Authorization"] = f"Bearer {self._api_key}"
        return h

    async def next_reply(self, inp: ModelInput) -> ModelReply:
        body = self.request_body(inp)
        data = self.decode(await self.post(body))
        paused: list[dict[str, Any]] = []
        usages = []
        for _ in range(MAX_PAUSES):
            if data.get("stop_reason") != "pause_turn":
                break
            paused += content_of(data, self.label)
            usages.append(self.read_usage(data.get("usage") or {}))
            resume = {"role": "assistant", "content": list(paused)}
            data = self.decode(await self.post({**body, "messages": [*body["messages"], resume]}))
        if paused:
            data = {**data, "content": paused + content_of(data, self.label)}
        reply = self.read_reply(data)
        for usage in usages:
            reply.usage = added(reply.usage, usage)
        if self._appending:
            self.transcript.got_reply(reply.text, reply.tool_calls, data["content"], reply.cut_off)
        return self.made_room(reply)

    def read_reply(self, data: dict[str, Any]) -> ModelReply:
        content = content_of(data, self.label)
        # Thinking blocks are not part of the reply the harness parses.
        texts: list[str] = []
        calls: list[ToolCall] = []
        for block in content:
            if block.get("type") == "text":
                texts.append(str(block.get("text") or ""))
            elif block.get("type") == "tool_use":
                raw_input = block.get("input")
                calls.append(
                    ToolCall(
                        str(block.get("id") or f"call_{len(calls)}"),
                        str(block.get("name") or ""),
                        raw_input if isinstance(raw_input, dict) else {"_": raw_input},
                    )
                )
        notes = []
        stop = data.get("stop_reason")
        if stop == "refusal":
            notes.append("refusal: the model declined to continue (stop_reason=refusal)")
        thought = sum(1 for b in content if b.get("type") in THINKING_BLOCKS)
        if thought:
            notes.append(f"thinking: {thought} block(s), carried back unchanged")
        cut_off = f"stop_reason={stop}" if stop in CUT_OFF_REASONS else None
        if stop == "pause_turn":
            cut_off = f"stop_reason=pause_turn (still paused after {MAX_PAUSES} continuations)"
        return ModelReply(
            text="".join(texts),
            usage=self.read_usage(data.get("usage") or {}),
            tool_calls=calls,
            notes=notes,
            cut_off=cut_off,
        )

    def read_usage(self, usage: dict[str, Any]) -> Usage:
        uncached = as_int(usage.get("input_tokens"))
        written = as_int(usage.get("cache_creation_input_tokens"))
        read = as_int(usage.get("cache_read_input_tokens"))
        # Cached input is billed and counted separately; the prompt total is their sum.
        return Usage(
            prompt_tokens=uncached + written + read,
            completion_tokens=as_int(usage.get("output_tokens")),
            input_tokens=uncached,
            cache_read_input_tokens=read,
            cache_creation_input_tokens=written,
            estimated=not usage,
            cache_miss=self._appending and bool(usage) and written == 0 and read == 0,
        )
