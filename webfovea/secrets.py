"""Secrets the model names but never sees: a name, a value and the origins it may be typed on.

The model is told the names and writes `<secret>NAME</secret>` inside the text it types
(`type`, `fill`); the executor puts the value in only when the page's origin — and the
origin of the frame the keystrokes go to — is one of the secret's (`execution/secrets.py`).
The values themselves travel only inside the config (`HarnessConfig.secrets`, pickled to a
runner's workers); its JSON form keeps names and origins and drops every value.

Every value the process has been given is remembered here (`remember`), and the two
boundaries where text leaves the harness scrub it: what a model is sent
(`Harness.model_input`, the MCP server's replies) and what a record file holds
(`record/atomic.py`, the one writer of every task-folder file). A value is replaced by its
placeholder in every spelling a record may hold it in (as typed, percent-encoded, JSON- or
HTML-escaped), so a URL, a form body or a note quoting a field reads `<secret>NAME</secret>`.
"""

from __future__ import annotations

import html
import json
import re
import threading
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus, urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,63}$")
PLACEHOLDER_RE = re.compile(r"<secret>\s*([^<>\s]{1,64})\s*</secret>")
_DEFAULT_PORTS = {"http": 80, "https": 443}


def placeholder(name: str) -> str:
    """How the model writes a secret, and how records show one."""
    return f"<secret>{name}</secret>"


class SecretsError(ValueError):
    """A secrets file or mapping that cannot be used; the message says which entry and why."""


def origin_of(url: str) -> str | None:
    """`scheme://host[:port]` of a URL (the default port left out), lower-cased; None for a
    URL without a host (about:blank, data:)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    if not host or parts.scheme.lower() not in _DEFAULT_PORTS:
        return None
    scheme = parts.scheme.lower()
    shown = "" if port is None or port == _DEFAULT_PORTS[scheme] else f":{port}"
    return f"{scheme}://{host}{shown}"


def _pattern(text: str) -> str:
    """An origin pattern as given (`https://example.org`, `https://*.example.org`, with a port)."""
    wild = "://*." in text
    probe = text.replace("://*.", "://", 1) if wild else text
    parts = urlsplit(probe)
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError(f"{text!r} is not an origin (scheme://host[:port], no path)")
    origin = origin_of(probe)
    if origin is None:
        raise ValueError(f"{text!r} is not an http(s) origin")
    return origin.replace("://", "://*.", 1) if wild else origin


def origin_allowed(url: str, patterns: list[str]) -> bool:
    """Whether the URL's origin is one of `patterns`; `https://*.example.org` stands for
    example.org and every subdomain of it, on the same scheme and port."""
    origin = origin_of(url)
    if origin is None:
        return False
    for p in patterns:
        if "://*." not in p:
            if origin == p:
                return True
            continue
        scheme, rest = p.split("://*.", 1)
        o_scheme, o_rest = origin.split("://", 1)
        if scheme == o_scheme and (o_rest == rest or o_rest.endswith("." + rest)):
            return True
    return False


class Secret(BaseModel):
    """One secret. The value is never serialised: a config's JSON holds the origins only."""

    model_config = ConfigDict(frozen=True)

    value: SecretStr | None = Field(default=None, exclude=True)
    origins: list[str] = Field(min_length=1)

    @field_validator("origins")
    @classmethod
    def _origins(cls, origins: list[str]) -> list[str]:
        return [_pattern(o) for o in origins]

    def typable_on(self, url: str) -> bool:
        return origin_allowed(url, self.origins)

    def plain(self) -> str | None:
        return self.value.get_secret_value() if self.value is not None else None


def secrets_from(data: Mapping[str, Any]) -> dict[str, Secret]:
    """`{name: {"value": ..., "origins": [...]}}` (or Secret objects) checked, by name."""
    out: dict[str, Secret] = {}
    for name, entry in data.items():
        if not isinstance(name, str) or not NAME_RE.match(name):
            raise SecretsError(f"secret name {name!r}: use letters, digits, _ . - (a letter or _ first)")
        try:
            secret = entry if isinstance(entry, Secret) else Secret.model_validate(entry)
        except ValidationError as e:
            why = "; ".join(f"{'.'.join(map(str, x['loc'])) or 'entry'}: {x['msg']}" for x in e.errors())
            raise SecretsError(f"secret {name!r}: {why}") from None
        if not secret.plain():
            raise SecretsError(f"secret {name!r}: no value")
        out[name] = secret
    return out


def load_secrets(path: Path) -> dict[str, Secret]:
    """A secrets file: TOML (`[name]` tables with `value` and `origins`) or JSON (the same as
    an object), told apart by the suffix (.toml, .json; anything else is tried as JSON, then TOML)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise SecretsError(f"{path}: cannot read ({e.strerror or e})") from None
    data: Any = None
    errors = []
    kinds = ("toml",) if path.suffix == ".toml" else ("json",) if path.suffix == ".json" else ("json", "toml")
    for kind in kinds:
        try:
            data = json.loads(text) if kind == "json" else tomllib.loads(text)
            break
        except ValueError as e:  # JSONDecodeError and TOMLDecodeError are both ValueErrors
            errors.append(f"not {kind.upper()} ({e})")
    if not isinstance(data, dict):
        raise SecretsError(f"{path}: " + ("; ".join(errors) or "not a table of secrets by name"))
    return secrets_from(data)


# ------------------------------------------------------------------ the scrub at the boundaries

_lock = threading.Lock()
_known: dict[str, str] = {}  # value -> name, every value this process was given
_pattern_cache: re.Pattern[str] | None = None
_spelled: dict[str, str] = {}  # each spelling of a value -> its placeholder


def remember(secrets: Mapping[str, Secret]) -> None:
    """Add these values to the ones every boundary scrubs (values are never forgotten: a
    value scrubbed too often costs nothing, one missed leaks)."""
    global _pattern_cache
    with _lock:
        for name, s in secrets.items():
            value = s.plain()
            if value and _known.get(value) != name:
                _known[value] = name
                _pattern_cache = None


def _spellings(value: str) -> set[str]:
    return {
        value,
        quote(value, safe=""),
        quote(value),
        quote_plus(value),
        json.dumps(value, ensure_ascii=False)[1:-1],
        json.dumps(value)[1:-1],
        html.escape(value),
    }


def _compiled() -> re.Pattern[str] | None:
    global _pattern_cache
    with _lock:
        if _pattern_cache is None and _known:
            _spelled.clear()
            for value, name in _known.items():
                for s in _spellings(value):
                    _spelled.setdefault(s, placeholder(name))
            alts = sorted(_spelled, key=len, reverse=True)  # the longest spelling first
            _pattern_cache = re.compile("|".join(re.escape(a) for a in alts))
        return _pattern_cache


def scrub_text(text: str) -> str:
    """The text with every known value (in any spelling above) replaced by its placeholder."""
    pattern = _compiled() if _known else None
    if pattern is None or not text:
        return text
    return pattern.sub(lambda m: _spelled[m.group(0)], text)


def scrub_data(value: Any) -> Any:
    """A JSON-like value with every string (keys too) scrubbed; numbers and the rest as they are,
    so the JSON written from it stays valid."""
    if not _known:
        return value
    if isinstance(value, str):
        return scrub_text(value)
    if isinstance(value, dict):
        return {(scrub_text(k) if isinstance(k, str) else k): scrub_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [scrub_data(v) for v in value]
    return value


def any_known() -> bool:
    return bool(_known)


def known_values() -> list[str]:
    """The values remembered so far (the screenshot mask looks for them in the page's fields)."""
    with _lock:
        return list(_known)
