"""Requests checked against the official SDKs' own request types, unknown keys forbidden.

The loopback model servers (and the tests' scripted fakes) answer a request the real API
would reject with the API's 400, so a client that drifts from the current API fails here
and not at a user's first call. The types are the SDKs' `TypedDict`s
(`openai.types.chat.completion_create_params.CompletionCreateParamsNonStreaming`,
`anthropic.types.message_create_params.MessageCreateParamsNonStreaming`, its beta twin for
the computer tool, `openai.types.responses.response_create_params.ResponseCreateParamsNonStreaming`),
validated with pydantic: every TypedDict reachable from them is marked `extra="forbid"` (the
SDKs' TypedDicts allow extra keys for a Python caller; the API does not), and the `Iterable`
fields pydantic validates lazily are drained, so every message and block is checked.
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Iterator
from typing import Any, Literal, get_args, get_type_hints

from pydantic import ConfigDict, TypeAdapter, ValidationError
from typing_extensions import is_typeddict

Api = Literal["chat", "messages", "beta_messages", "responses"]
_FORBID = ConfigDict(extra="forbid", arbitrary_types_allowed=True)


def _request_type(api: Api) -> Any:
    if api == "chat":
        from openai.types.chat.completion_create_params import CompletionCreateParamsNonStreaming

        return CompletionCreateParamsNonStreaming
    if api == "responses":
        from openai.types.responses.response_create_params import ResponseCreateParamsNonStreaming

        return ResponseCreateParamsNonStreaming
    if api == "beta_messages":
        from anthropic.types.beta.message_create_params import (
            MessageCreateParamsNonStreaming as BetaParams,
        )

        return BetaParams
    from anthropic.types.message_create_params import MessageCreateParamsNonStreaming

    return MessageCreateParamsNonStreaming


def _forbid_extra(tp: Any, seen: set[int]) -> None:
    if id(tp) in seen:
        return
    seen.add(id(tp))
    if is_typeddict(tp):
        tp.__pydantic_config__ = _FORBID
        for hint in get_type_hints(tp, include_extras=True).values():
            _forbid_extra(hint, seen)
        return
    for arg in get_args(tp):
        _forbid_extra(arg, seen)


@functools.cache
def _adapter(api: Api) -> TypeAdapter[Any]:
    tp = _request_type(api)
    _forbid_extra(tp, set())
    with warnings.catch_warnings():  # the few TypedDicts that declare extra items keep them
        warnings.simplefilter("ignore")
        return TypeAdapter(tp)


def warm(*apis: Api) -> None:
    """Build the validators now (importing an SDK's types and compiling them takes a second or
    two), so the first request is not the one that waits."""
    for api in apis:
        _adapter(api)


def _drain(value: Any) -> None:
    if isinstance(value, dict):
        for v in value.values():
            _drain(v)
    elif isinstance(value, list | tuple):
        for v in value:
            _drain(v)
    elif isinstance(value, Iterator):  # pydantic's lazily validated Iterable[...]
        for v in value:
            _drain(v)


def request_errors(api: Api, body: Any) -> str | None:
    """Why the SDK's request type rejects `body` (its first few errors, one line), or None."""
    try:
        _drain(_adapter(api).validate_python(body))
    except ValidationError as e:
        errors = e.errors()
        # A union (content blocks, tools) lists every member's complaint; the shortest
        # locations come first, which name the field that is wrong.
        errors.sort(key=lambda err: len(err["loc"]))
        shown = "; ".join(f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in errors[:3])
        return f"request does not match the API's request type ({len(errors)} error(s)): {shown}"
    return None
