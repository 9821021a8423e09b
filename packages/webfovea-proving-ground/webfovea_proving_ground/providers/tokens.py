"""Token accounting of the loopback fake provider, by Anthropic's published rules.

The fake provider (`webfovea_proving_ground/providers/anthropic_api.py`) bills every request the way the Messages API
documents it, so the harness's caching is measured against the provider's rules, not
against our own hopes:

- prefix order: tools, then system, then messages; each content block is one block;
- image tokens: w*h/750 of the image as the model sees it (after the row's resize rule);
- text: no public tokenizer, so ceil(characters / 4); tool definitions count their JSON,
  plus the tool-use system prompt the API adds when tools are present (346 tokens);
- caching: `cache_control` marks a breakpoint (more than 4: the request is rejected); a
  prefix is written only at a breakpoint and only when it is at least the row's minimum
  cacheable length (the strictest published figure, never a lenient one); a breakpoint
  reads the longest cached prefix ending at it or at one of the 20 blocks before it
  (the look-back); exact match: one changed block changes every later prefix's hash.
- lifetime: an entry lives 5 minutes (`"ttl": "1h"` on its breakpoint: an hour) and every read
  of it starts that time again; the cache belongs to the API key, not to a conversation, so a
  prefix one task wrote (tools and system prompt) is read by the next task's first request.
- usage: `cache_read_input_tokens` (the prefix read), `cache_creation_input_tokens`
  (from there up to the last breakpoint that could be written), `input_tokens` (the rest).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from webfovea.models.conventions import ModelConventions

MAX_BREAKPOINTS = 4
LOOKBACK_BLOCKS = 20
TOOL_SYSTEM_TOKENS = 346  # the tool-use system prompt (tool_choice auto), Claude 4 models
TTL_S = {"5m": 300.0, "1h": 3600.0}  # cache_control's "ttl"; 5 minutes when it names none
_PRUNE_AT = 2000  # entries before the expired ones are dropped (a long run writes one or two a step)


class RequestRejected(ValueError):
    """What the API answers with HTTP 400."""


def text_tokens(text: str) -> int:
    return math.ceil(len(text) / 4)


def image_size(block: dict[str, Any]) -> tuple[int, int]:
    data = base64.b64decode(block["source"]["data"])
    with Image.open(io.BytesIO(data)) as im:
        return im.size


def block_tokens(block: dict[str, Any], row: ModelConventions) -> int:
    kind = block.get("type")
    if kind == "image":
        return row.image_tokens(*image_size(block))
    if kind == "text":
        return text_tokens(str(block.get("text") or ""))
    if kind == "tool_use":
        return text_tokens(str(block.get("name") or "") + json.dumps(block.get("input"), sort_keys=True))
    if kind == "tool_result":
        content = block.get("content")
        if isinstance(content, list):
            return sum(block_tokens(b, row) for b in content)
        return text_tokens(str(content or "")) + 2
    # A tool definition (custom or a computer tool): its JSON.
    bare = {k: v for k, v in block.items() if k != "cache_control"}
    return text_tokens(json.dumps(bare, sort_keys=True))


def prefix_blocks(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every block of a request in prefix order (tools, system, messages)."""
    blocks = list(body.get("tools") or [])
    system = body.get("system")
    if isinstance(system, str):
        blocks.append({"type": "text", "text": system})
    elif isinstance(system, list):
        blocks += system
    for msg in body.get("messages") or []:
        content = msg.get("content")
        if isinstance(content, str):
            blocks.append({"type": "text", "text": content})
        else:
            blocks += list(content or [])
    return blocks


@dataclass
class Billed:
    input_tokens: int
    cache_creation_input_tokens: int
    cache_read_input_tokens: int

    @property
    def total(self) -> int:
        return self.input_tokens + self.cache_creation_input_tokens + self.cache_read_input_tokens


@dataclass
class _Entry:
    tokens: int  # the prefix's length
    ttl_s: float
    expires: float


@dataclass
class PromptCache:
    """One provider-side cache (of one API key): prefix hashes -> their entries."""

    row: ModelConventions
    entries: dict[str, _Entry] = field(default_factory=dict)
    clock: Callable[[], float] = time.monotonic

    def bill(self, body: dict[str, Any]) -> Billed:
        blocks = prefix_blocks(body)
        tokens, hashes = [], []
        running, digest = 0, hashlib.sha256()
        if body.get("tools"):
            running += TOOL_SYSTEM_TOKENS
        for block in blocks:
            running += block_tokens(block, self.row)
            bare = {k: v for k, v in block.items() if k != "cache_control"}
            digest.update(json.dumps(bare, sort_keys=True).encode())
            tokens.append(running)
            hashes.append(digest.copy().hexdigest())
        total = running
        marks = [i for i, b in enumerate(blocks) if "cache_control" in b]
        if len(marks) > MAX_BREAKPOINTS:
            raise RequestRejected(
                f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be provided. "
                f"Found {len(marks)}."
            )
        minimum = self.row.min_cacheable_tokens if self.row.caches_prompts else None
        if not marks or minimum is None:
            return Billed(total, 0, 0)
        now = self.clock()
        if len(self.entries) > _PRUNE_AT:
            for digest in list(self.entries):
                self._alive(digest, now)
        read = 0
        for mark in marks:
            for pos in range(mark, max(-1, mark - LOOKBACK_BLOCKS - 1), -1):
                entry = self._alive(hashes[pos], now)
                if entry is not None:
                    read = max(read, entry.tokens)
                    entry.expires = now + entry.ttl_s  # a read starts its lifetime again
                    break
        writable = [m for m in marks if tokens[m] >= minimum]
        written = 0
        if writable:
            last = writable[-1]
            written = max(0, tokens[last] - read)
            for m in writable:
                ttl = TTL_S.get(str(blocks[m]["cache_control"].get("ttl") or "5m"), TTL_S["5m"])
                if self._alive(hashes[m], now) is None:
                    self.entries[hashes[m]] = _Entry(tokens[m], ttl, now + ttl)
        return Billed(total - read - written, written, read)

    def _alive(self, digest: str, now: float) -> _Entry | None:
        entry = self.entries.get(digest)
        if entry is not None and entry.expires <= now:
            del self.entries[digest]
            return None
        return entry
