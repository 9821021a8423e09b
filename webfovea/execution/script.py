"""Script evaluation for the `winner` profile's `evaluate(script)` (outside the challenge's rules).

The script runs in the page's main frame through Playwright (`page.evaluate`): an expression,
a function (called), or a statement list with `return` (wrapped in a function when it does not
parse as an expression). Its result is compressed the way the winner measured (seed 002, docs/glossary.md): parsed as JSON,
a long string (over 480 bytes) seen before is replaced by a marker naming where it first
appeared, long fields are shortened until the text fits 24,000 bytes, and only then is the
text cut, with a note of what was cut. A script that does not return within
`SCRIPT_TIMEOUT_S` (a promise that never settles) is cut there and the model told: the
step's 180 s tool timeout would otherwise be its only bound.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from playwright.async_api import Page

OUTPUT_BUDGET_BYTES = 24_000
LONG_STRING_BYTES = 480
SCRIPT_TIMEOUT_S = 10.0
_FIRST_FIELD_CAP = 4096


class ScriptTimeout(Exception):
    """The script did not return within SCRIPT_TIMEOUT_S."""


async def run_script(page: Page, script: str, timeout_s: float | None = None) -> Any:
    """The script's value (JSON-able), evaluated in the main frame; raises what the page raised,
    or ScriptTimeout when it has not returned within `timeout_s` (default SCRIPT_TIMEOUT_S;
    both tries together)."""
    timeout_s = SCRIPT_TIMEOUT_S if timeout_s is None else timeout_s
    try:
        async with asyncio.timeout(timeout_s):
            return await _evaluate(page, script)
    except TimeoutError:
        raise ScriptTimeout(f"the script did not return within {timeout_s:g} s and was stopped") from None


async def _evaluate(page: Page, script: str) -> Any:
    try:
        return await page.main_frame.evaluate(script)
    except Exception as e:
        text = str(e)
        # `const x = ...; return x` is no expression: run it as a function body instead.
        if "SyntaxError" not in text and "Illegal return" not in text:
            raise
    return await page.main_frame.evaluate(f"async () => {{\n{script}\n}}")


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


def _dumps(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def _dedupe(value: Any, path: str, seen: dict[str, str], counts: dict[str, int]) -> Any:
    """Repeated long strings -> a marker naming the path of the first occurrence."""
    if isinstance(value, str):
        if _size(value) <= LONG_STRING_BYTES:
            return value
        first = seen.get(value)
        if first is None:
            seen[value] = path
            return value
        counts["repeated"] += 1
        return f"[omitted: the same {_size(value)}-byte text as {first}]"
    if isinstance(value, list):
        return [_dedupe(v, f"{path}[{i}]", seen, counts) for i, v in enumerate(value)]
    if isinstance(value, dict):
        return {k: _dedupe(v, f"{path}.{k}", seen, counts) for k, v in value.items()}
    return value


def _shorten(value: Any, cap: int, counts: dict[str, int]) -> Any:
    """Every string longer than `cap` bytes cut to about `cap`, with the number of bytes left out."""
    if isinstance(value, str):
        raw = value.encode("utf-8")
        if len(raw) <= cap:
            return value
        counts["shortened"] += 1
        return raw[:cap].decode("utf-8", "ignore") + f"…[+{len(raw) - cap} bytes]"
    if isinstance(value, list):
        return [_shorten(v, cap, counts) for v in value]
    if isinstance(value, dict):
        return {k: _shorten(v, cap, counts) for k, v in value.items()}
    return value


def compress_output(value: Any, budget: int = OUTPUT_BUDGET_BYTES) -> tuple[str, list[str]]:
    """The result as text of at most `budget` bytes, and what was done to make it fit."""
    if isinstance(value, str) and value.strip()[:1] in ("{", "["):
        try:
            value = json.loads(value)
        except ValueError:
            pass
    counts = {"repeated": 0, "shortened": 0}
    value = _dedupe(value, "$", {}, counts)
    text = _dumps(value)
    cap = _FIRST_FIELD_CAP
    while _size(text) > budget and cap >= LONG_STRING_BYTES and not isinstance(value, str):
        text = _dumps(_shorten(value, cap, counts))
        cap //= 2
    done = []
    if counts["repeated"]:
        done.append(f"{counts['repeated']} repeated long text(s) replaced by markers")
    if counts["shortened"]:
        done.append("long fields shortened")
    if _size(text) > budget:
        total = _size(text)
        marker = f"…[cut: {total - budget} of {total} bytes not shown]"
        text = text.encode("utf-8")[: budget - _size(marker)].decode("utf-8", "ignore") + marker
        done.append(f"cut to {budget:,} bytes")
    return text, done
