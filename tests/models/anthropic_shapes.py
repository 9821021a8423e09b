"""What the Anthropic Messages API would reject, checked on a request the client really sent.

The fake server records requests; these checks are the API's rules the client must
follow (pairing of tool_use and tool_result, at most four cache breakpoints, tool
definitions, the computer tool's display size and beta header, image sizes the row's
provider passes unscaled).
"""

from __future__ import annotations

import base64
import io
from typing import Any

from PIL import Image

from webfovea.models.conventions import ModelConventions


def blocks_of(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Every block in prefix order: tools, system, then message content."""
    out = list(body.get("tools") or [])
    system = body.get("system")
    out += system if isinstance(system, list) else []
    for msg in body["messages"]:
        content = msg["content"]
        out += content if isinstance(content, list) else [{"type": "text", "text": content}]
    return out


def images_of(body: dict[str, Any]) -> list[Image.Image]:
    found = []
    for msg in body["messages"]:
        for block in msg["content"] if isinstance(msg["content"], list) else []:
            if block.get("type") == "image":
                found.append(Image.open(io.BytesIO(base64.b64decode(block["source"]["data"]))))
    return found


def validate(body: dict[str, Any], headers: dict[str, str], row: ModelConventions) -> None:
    msgs = body["messages"]
    assert msgs and msgs[0]["role"] == "user", "the conversation starts with a user turn"
    for a, b in zip(msgs, msgs[1:], strict=False):
        assert a["role"] != b["role"], "roles alternate"
    for i, msg in enumerate(msgs):
        if msg["role"] != "assistant":
            continue
        ids = [b["id"] for b in msg["content"] if b.get("type") == "tool_use"]
        if ids:
            assert i + 1 < len(msgs), "a tool_use turn is followed by its results"
            nxt = msgs[i + 1]["content"]
            results = [b["tool_use_id"] for b in nxt if b.get("type") == "tool_result"]
            assert results == ids, (
                f"every tool_use id gets exactly one result, first in the next turn: {ids} {results}"
            )
            assert all(b.get("type") == "tool_result" for b in nxt[: len(ids)]), "tool results come first"
    marks = [b for b in blocks_of(body) if "cache_control" in b]
    assert len(marks) <= 4, "at most four cache breakpoints"
    for tool in body.get("tools") or []:
        if tool.get("type", "").startswith("computer_"):
            assert tool["name"] == "computer"
            assert headers.get("anthropic-beta") == row.computer_beta
            last = images_of(body)[-1]
            assert (tool["display_width_px"], tool["display_height_px"]) == last.size
        else:
            assert set(tool) == {"name", "description", "input_schema"}, tool
            assert tool["input_schema"]["type"] == "object"
    for im in images_of(body):
        assert row.fits(*im.size), f"the provider would resize a {im.size} image"
