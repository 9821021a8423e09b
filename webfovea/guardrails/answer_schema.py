"""An answer schema checked without letting it freeze the task.

A schema's `pattern` is the task author's, the string it is matched against the model's (and,
through it, the page's). Python's `re` backtracks without bound and holds the GIL while it does:
`^(a|aa)+$` against sixty `a`s and a `b` stops the event loop — and every other thread — for
good. So:

- every pattern (`pattern`, `patternProperties`, the `additionalProperties` that depend on
  them) is matched by the `regex` package with a `timeout=` taken from one deadline for the whole
  check, and `concurrent=True` so the GIL is released while it runs;
- the check runs in a worker thread (`AnswerGate.check` awaits it with the same deadline), so
  the event loop keeps serving the page and the driver's own timers meanwhile;
- what `regex` cannot reach is refused when the task starts, with a clear message: a `$ref` that
  is not local or that recurses (a schema that refers back to itself or an ancestor — on a deep
  answer that is a stack overflow, not an answer), `$dynamicRef`, a nested `$id`, and
  `unevaluatedProperties` beside `patternProperties` (jsonschema evaluates those with `re`).

A thread rather than a child process: with every pattern bounded by `regex`'s timeout, the
thread ends by itself at the deadline, and a process per `finished` would cost a Python start-up
and a jsonschema import on a machine the browser already loads.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import regex

CHECK_SECONDS = 2.0  # the whole check of one answer, every pattern included
_REFUSED_KEYWORDS = {
    "$dynamicRef": "$dynamicRef is not supported in an answer schema",
    "$recursiveRef": "$recursiveRef is not supported in an answer schema",
}


class SchemaRefused(ValueError):
    """An answer schema the harness will not check (the task's error, raised when it starts)."""


class CheckTimeout(Exception):
    """The check of one answer ran past its deadline."""


def refuse_unsafe(schema: Any) -> None:
    """Raise SchemaRefused for what the bounded check cannot bound (module docstring)."""
    if isinstance(schema, dict):  # `true`/`false` schemas refer to nothing
        _walk(schema, schema, "#", {})


_ON_PATH, _DONE = 1, 2
_VALUES = ("const", "enum", "default", "examples")  # JSON values, not schemas
_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")  # name -> schema


def _walk(root: dict[str, Any], node: Any, at: str, seen: dict[int, int], names: bool = False) -> None:
    """Depth-first over the schema, `$ref`s followed: a `$ref` that lands on a schema still on
    the path (itself or one above it) is a recursion. Each schema is walked once (`seen`).
    `names`: `node` maps names to schemas (`properties`), so its keys are not keywords."""
    if isinstance(node, list):
        for i, item in enumerate(node):
            _walk(root, item, f"{at}/{i}", seen)
        return
    if not isinstance(node, dict) or seen.get(id(node)) == _DONE:
        return
    if names:
        for key, value in node.items():
            _walk(root, value, f"{at}/{key}", seen)
        return
    for key, why in _REFUSED_KEYWORDS.items():
        if key in node:
            raise SchemaRefused(f"answer schema at {at}: {why}")
    if "$id" in node and node is not root:
        raise SchemaRefused(f"answer schema at {at}: a nested $id is not supported")
    if "unevaluatedProperties" in node and _has_pattern_properties(node):
        raise SchemaRefused(
            f"answer schema at {at}: unevaluatedProperties beside patternProperties is not supported"
        )
    seen[id(node)] = _ON_PATH
    ref = node.get("$ref")
    if ref is not None:
        target = _resolve(root, ref, at)
        if isinstance(target, dict) and seen.get(id(target)) == _ON_PATH:
            raise SchemaRefused(
                f"answer schema at {at}: $ref {ref!r} is recursive (it refers back to a schema that contains it)"
            )
        _walk(root, target, str(ref), seen)
    for key, value in node.items():
        if key != "$ref" and key not in _VALUES:
            _walk(root, value, f"{at}/{key}", seen, names=key in _MAPS)
    seen[id(node)] = _DONE


def _has_pattern_properties(node: Any) -> bool:
    if isinstance(node, dict):
        return "patternProperties" in node or any(_has_pattern_properties(v) for v in node.values())
    if isinstance(node, list):
        return any(_has_pattern_properties(v) for v in node)
    return False


def _resolve(root: dict[str, Any], ref: object, at: str) -> Any:
    """The schema a local `$ref` ("#", "#/$defs/Row") points at."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        raise SchemaRefused(f"answer schema at {at}: only local $ref ('#/...') is supported, not {ref!r}")
    node: Any = root
    for part in [p for p in ref[1:].split("/") if p]:
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            raise SchemaRefused(f"answer schema at {at}: $ref {ref!r} points at nothing")
    return node


def compile_patterns(schema: Any) -> None:
    """Every pattern compiles with `regex` (SchemaRefused naming the first that does not)."""
    for pattern in _patterns(schema):
        try:
            regex.compile(pattern)
        except (regex.error, TypeError) as e:
            raise SchemaRefused(f"answer schema: the pattern {pattern!r} does not compile ({e})") from None


def _patterns(node: Any) -> Iterator[str]:
    if isinstance(node, list):
        for item in node:
            yield from _patterns(item)
    elif isinstance(node, dict):
        if isinstance(node.get("pattern"), str):
            yield node["pattern"]
        if isinstance(node.get("patternProperties"), dict):
            yield from node["patternProperties"]
        for key, value in node.items():
            if key not in _VALUES:
                yield from _patterns(value)


def bounded_validator(schema: dict[str, Any], seconds: float = CHECK_SECONDS) -> Any:
    """A Draft 2020-12 validator whose every pattern match shares one deadline, `seconds` from now:
    past it a match raises CheckTimeout."""
    from jsonschema import Draft202012Validator, validators
    from jsonschema.exceptions import ValidationError

    deadline = time.monotonic() + seconds

    def search(pattern: str, text: str) -> bool:
        left = deadline - time.monotonic()
        if left <= 0:
            raise CheckTimeout
        try:  # `regex` reads its clock coarsely: a 2 s timeout fired after 6 s here, hence / 4
            return regex.search(pattern, text, timeout=max(0.05, left / 4), concurrent=True) is not None
        except TimeoutError:
            raise CheckTimeout from None

    def pattern(validator: Any, patrn: str, instance: Any, schema: Any) -> Iterator[Any]:
        if validator.is_type(instance, "string") and not search(patrn, instance):
            yield ValidationError(f"{instance!r} does not match {patrn!r}")

    def pattern_properties(validator: Any, pp: dict[str, Any], instance: Any, schema: Any) -> Iterator[Any]:
        if not validator.is_type(instance, "object"):
            return
        for patrn, subschema in pp.items():
            for k, v in instance.items():
                if search(patrn, k):
                    yield from validator.descend(v, subschema, path=k, schema_path=patrn)

    def additional_properties(validator: Any, ap: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if not validator.is_type(instance, "object"):
            return
        known, patterns = schema.get("properties", {}), list(schema.get("patternProperties", {}))
        extras = [k for k in instance if k not in known and not any(search(p, k) for p in patterns)]
        if validator.is_type(ap, "object"):
            for extra in extras:
                yield from validator.descend(instance[extra], ap, path=extra)
        elif not ap and extras:
            listed = ", ".join(repr(e) for e in sorted(extras, key=str))
            yield ValidationError(f"Additional properties are not allowed ({listed} unexpected)")

    # Only the three keywords that call `re` are replaced; the rest are jsonschema's own.
    cls = validators.extend(
        Draft202012Validator,
        validators={
            "pattern": pattern,
            "patternProperties": pattern_properties,
            "additionalProperties": additional_properties,
        },
    )
    return cls(schema)
