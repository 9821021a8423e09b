"""What the HTTP model clients share: endpoint and key resolution, and error text from a response."""

from __future__ import annotations

import ipaddress
import json
import os
from urllib.parse import urlsplit

import httpx

from webfovea.models.base import ModelError
from webfovea.secrets import remember_values


class ModelConfigError(ModelError, ValueError):
    """A model cannot be built from what the user gave (bad spec, URL, missing key).

    Both a ModelError (the run records it as a model failure) and a ValueError (the
    CLI reports it as bad input, without a traceback).
    """


def is_loopback(url: str) -> bool:
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    # 0.0.0.0 is where local servers (vLLM, Ollama) say they listen; it reaches this host.
    return ip.is_loopback or ip.is_unspecified


def resolve_base_url(arg: str | None, env_var: str, default: str) -> str:
    """Base URL from the argument, else the environment, else the default; without a trailing slash."""
    url = (arg or os.environ.get(env_var) or default).strip().rstrip("/")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ModelConfigError(
            f"model base URL {url!r} is not an http(s) URL (set it with --base-url or {env_var})"
        )
    return url


def resolve_api_key(arg: str | None, env_var: str, base_url: str) -> str | None:
    """The API key from the argument or the environment.

    A local server (vLLM, Ollama, a test double) usually needs no key, so a missing
    key is an error only for a non-loopback endpoint, where the call would fail
    with 401 anyway, after the browser had started.
    """
    key = arg if arg is not None else os.environ.get(env_var)
    key = key.strip() if key else None
    if not key and not is_loopback(base_url):
        raise ModelConfigError(
            # The CLI takes keys only from the environment (no key on a command line, where
            # it would land in shell history and `ps`); Python callers can pass api_key=.
            f"no API key for {base_url}: set the {env_var} environment variable (from Python, pass "
            "api_key= to make_model or the client); "
            "a key is optional only for a server on this machine (for another server that needs "
            "none, set any value, e.g. EMPTY)"
        )
    if key:  # scrubbed from every record and model input, as the task's secrets are
        remember_values({env_var or "api_key": key}, kind="key")
    return key or None


def error_text(resp: httpx.Response, limit: int = 300) -> str:
    """The server's own explanation of a failed response, on one line.

    OpenAI- and Anthropic-style bodies carry it in `error.message`; anything else
    (an HTML page from a proxy, plain text) is shortened.
    """
    message = ""
    try:
        body = resp.json()
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError, RecursionError):
        body = None
    if isinstance(body, dict):
        err = body.get("error", body)
        if isinstance(err, dict):
            message = str(err.get("message") or err.get("detail") or err.get("type") or "")
        elif isinstance(err, str):
            message = err
        if not message and "detail" in body:
            message = str(body["detail"])
    if not message:
        message = resp.text
    message = " ".join(message.split())
    if len(message) > limit:
        message = message[: limit - 1] + "…"
    return message


def describe_status(resp: httpx.Response) -> str:
    reason = resp.reason_phrase or ""
    head = f"HTTP {resp.status_code}" + (f" {reason}" if reason else "")
    detail = error_text(resp)
    return f"{head}: {detail}" if detail else head
