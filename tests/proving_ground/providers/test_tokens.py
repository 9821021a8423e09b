"""The loopback provider's token accounting against hand-computed examples (Anthropic's rules)."""

from __future__ import annotations

import base64
import io
import json
import math

import pytest
from PIL import Image

from webfovea.models.conventions import ModelConventions
from webfovea_proving_ground.providers.tokens import (
    TOOL_SYSTEM_TOKENS,
    PromptCache,
    RequestRejected,
)

ROW = ModelConventions(
    family="test-claude",
    max_long_edge=1568,
    max_pixels=1_200_000,
    resize_target_pixels=1_150_000,
    caches_prompts=True,
    min_cacheable_tokens=1024,
)
CC = {"type": "ephemeral"}


def image(w: int, h: int, cache: bool = False) -> dict:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), (200, 200, 200)).save(buf, format="PNG")
    block = {
        "type": "image",
        "source": {
            "type": "base64",
            "media_type": "image/png",
            "data": base64.b64encode(buf.getvalue()).decode(),
        },
    }
    if cache:
        block["cache_control"] = CC
    return block


def text(n_chars: int, cache: bool = False, ch: str = "a") -> dict:
    block = {"type": "text", "text": ch * n_chars}
    if cache:
        block["cache_control"] = CC
    return block


def body(system: list, *messages: list) -> dict:
    roles = ["user", "assistant"]
    return {
        "system": system,
        "messages": [{"role": roles[i % 2], "content": m} for i, m in enumerate(messages)],
    }


def test_image_tokens_are_w_h_over_750_of_what_the_model_sees():
    cache = PromptCache(ModelConventions(family="plain"))  # no caching row: everything is input
    billed = cache.bill(body([text(4)], [image(1440, 810)]))
    assert billed.input_tokens == 1 + 1556  # ceil(1440*810/750) = ceil(1555.2)
    # 1920x1080 is resized by the Claude rule to 1430x804 first: ceil(1149720/750) = 1533.
    assert PromptCache(ROW).bill(body([text(4)], [image(1920, 1080)])).input_tokens == 1 + 1533


def test_write_then_read_then_extend_the_prefix():
    cache = PromptCache(ROW)
    system = [text(4000, cache=True)]  # 1000 tokens: below the 1,024 minimum, never written alone
    first = body(system, [text(400), image(1440, 810, cache=True)])
    b1 = cache.bill(first)
    assert (b1.cache_read_input_tokens, b1.cache_creation_input_tokens, b1.input_tokens) == (0, 2656, 0)
    b2 = cache.bill(first)  # the same request again: all of it read
    assert (b2.cache_read_input_tokens, b2.cache_creation_input_tokens, b2.input_tokens) == (2656, 0, 0)
    # The next step appends a model turn (10 tokens) and a user turn (10 tokens) and moves the
    # breakpoint to the end: the old prefix is found by the look-back and read, the new part written.
    third = body(system, [text(400), image(1440, 810)], [text(40, ch="b")], [text(40, cache=True, ch="c")])
    b3 = cache.bill(third)
    assert (b3.cache_read_input_tokens, b3.cache_creation_input_tokens, b3.input_tokens) == (2656, 20, 0)


def test_prefix_below_the_minimum_is_neither_written_nor_read():
    cache = PromptCache(ROW)
    small = body([text(100, cache=True)], [text(100, cache=True)])
    for _ in range(2):
        b = cache.bill(small)
        assert (b.cache_read_input_tokens, b.cache_creation_input_tokens, b.input_tokens) == (0, 0, 50)


def test_a_changed_block_invalidates_everything_after_it():
    cache = PromptCache(ROW)
    cache.bill(body([text(8000, cache=True)], [text(400), text(400, cache=True)]))  # 2000 + 200
    changed = cache.bill(body([text(8000, cache=True)], [text(400, ch="z"), text(400, cache=True)]))
    # The system breakpoint (2,000 tokens) is read; the changed user text is written again.
    assert (changed.cache_read_input_tokens, changed.cache_creation_input_tokens) == (2000, 200)


def test_look_back_stops_after_20_blocks():
    cache = PromptCache(ROW)
    start = [text(4400, cache=True)]  # 1,100 tokens, written
    cache.bill(body([text(4)], start))
    near = cache.bill(body([text(4)], [text(4400), *[text(4) for _ in range(19)], text(4, cache=True)]))
    assert near.cache_read_input_tokens == 1101  # found 20 blocks back
    cache2 = PromptCache(ROW)
    cache2.bill(body([text(4)], start))
    far = cache2.bill(body([text(4)], [text(4400), *[text(4) for _ in range(20)], text(4, cache=True)]))
    assert far.cache_read_input_tokens == 0  # 21 blocks back: out of reach


def test_tools_count_their_json_plus_the_tool_system_prompt_and_five_breakpoints_are_rejected():
    tool = {"name": "click", "description": "x", "input_schema": {"type": "object", "properties": {}}}
    plain = PromptCache(ModelConventions(family="plain")).bill(body([text(4)], [text(4)]))
    with_tool = PromptCache(ModelConventions(family="plain")).bill(
        {**body([text(4)], [text(4)]), "tools": [tool]}
    )
    assert with_tool.total - plain.total == TOOL_SYSTEM_TOKENS + math.ceil(
        len(json.dumps(tool, sort_keys=True)) / 4
    )
    with pytest.raises(RequestRejected, match="maximum of 4"):
        PromptCache(ROW).bill(body([text(4, cache=True)], [text(4, cache=True) for _ in range(4)]))


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_entry_lives_five_minutes_from_its_last_read_and_an_hour_when_asked():
    clock = Clock()
    cache = PromptCache(ROW, clock=clock)
    request = body([text(8000, cache=True)], [text(40)])  # a 2,000-token system prompt, written
    assert cache.bill(request).cache_creation_input_tokens == 2000
    clock.now += 299  # read just inside five minutes: its lifetime starts again
    assert cache.bill(request).cache_read_input_tokens == 2000
    clock.now += 299
    assert cache.bill(request).cache_read_input_tokens == 2000
    clock.now += 301  # five minutes without a read: gone, written again
    again = cache.bill(request)
    assert (again.cache_read_input_tokens, again.cache_creation_input_tokens) == (0, 2000)
    hour = body([{**text(8000, ch="h"), "cache_control": {"type": "ephemeral", "ttl": "1h"}}], [text(40)])
    cache.bill(hour)
    clock.now += 3000  # 50 minutes: an hour's entry is still there
    assert cache.bill(hour).cache_read_input_tokens == 2000
    assert cache.bill(request).cache_read_input_tokens == 0  # the five-minute one is not
