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
import ipaddress
import json
import math
import re
import threading
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus, urlsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator

NAME_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,63}$")
PLACEHOLDER_RE = re.compile(r"<secret>\s*([^<>\s]{1,64})\s*</secret>")
_DEFAULT_PORTS = {"http": 80, "https": 443}
MIN_VALUE = 4  # a shorter value would be scrubbed out of every record text that happens to hold it


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


@lru_cache(maxsize=1)
def _psl() -> Any:
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList()  # the list bundled with the package: never fetched


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def _site_check(text: str, host: str, wild: bool) -> None:
    """A pattern must name one site: `*.` only above a registrable domain (`*.co.uk`,
    `*.github.io`, `*.com` would let every site under a public suffix have the secret), and a
    plain host that is itself a public suffix names no one's site."""
    if wild and (_is_ip(host) or _psl().privatesuffix(host) is None):
        raise ValueError(
            f"{text!r}: '*.{host}' would match every site under a public suffix; name the site "
            "(https://*.example.co.uk) or its exact origin"
        )
    if not wild and "." in host and not _is_ip(host) and _psl().privatesuffix(host) is None:
        raise ValueError(f"{text!r}: {host} is a public suffix, not a site; name the site's own origin")


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
    _site_check(text, (urlsplit(origin).hostname or "").rstrip("."), wild)
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

    @field_validator("value")
    @classmethod
    def _long_enough(cls, value: SecretStr | None) -> SecretStr | None:
        n = len(value.get_secret_value()) if value is not None else MIN_VALUE
        if 0 < n < MIN_VALUE:
            raise ValueError(
                f"a value of {n} characters is too short to hide (every record text holding it would "
                f"be rewritten); give at least {MIN_VALUE}"
            )
        return value

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
        value = secret.plain()
        if not value:
            raise SecretsError(f"secret {name!r}: no value")
        if len(value) < MIN_VALUE:
            raise SecretsError(
                f"secret {name!r}: a value of {len(value)} characters is too short to hide (every record "
                f"text holding it would be rewritten); give at least {MIN_VALUE}"
            )
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
_known: dict[str, tuple[str, bool]] = {}  # value -> (name, whether its prefixes are hidden too)
_pattern_cache: re.Pattern[str] | None = None
_spelled: dict[str, str] = {}  # each spelling of a value, lower-cased -> its placeholder
LOADED_MIN = 8  # a loaded credential shorter than this (`1`, `en-US`, `true`) is not a secret
LOADED_MAX = 4096  # a longer stored value is app state: its credential-like strings are kept
# Sanitisers that turn text into a file name (guardrails/pagewatch.py, and the common one).
_FILE_NAME_RES = (re.compile(r"[^A-Za-z0-9._ -]+"), re.compile(r"[^A-Za-z0-9._-]+"))
_SCHEMA_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,39}$")  # a record's own keys stay readable


def remember(secrets: Mapping[str, Secret]) -> None:
    """Add these values to the ones every boundary scrubs (values are never forgotten: a
    value scrubbed too often costs nothing, one missed leaks). A secret the model types is
    hidden with its long prefixes too (a `maxlength` field keeps part of it)."""
    _add((name, v, True) for name, s in secrets.items() if (v := s.plain()))


def remember_values(values: Mapping[str, str], *, kind: str) -> None:
    """Credentials the harness loaded (a storage state's cookies and local storage, an API key),
    scrubbed from every exit as `<secret>KIND.NAME</secret>`. Values shorter than `LOADED_MIN`
    are not credentials; a long stored value is hidden whole and by its credential-like strings."""
    found: list[tuple[str, str, bool]] = []
    for key, value in values.items():
        name = _as_name(f"{kind}.{key}")
        if not isinstance(value, str) or len(value) < LOADED_MIN:
            continue
        if len(value) <= LOADED_MAX:
            found.append((name, value, False))
        found += [(name, v, False) for v in _credential_strings(value)]
    _add(found)


def remember_storage_state(path: str | Path) -> int:
    """Every cookie value and local-storage value of a Playwright storage-state file (the
    `--storage-state` the browser is started with); how many values were registered."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0  # the browser refuses the file with its own error
    return remember_storage(data)


def remember_storage(data: Any) -> int:
    """Every cookie and local-storage value of a storage state (a dict shaped as Playwright's
    `context.storage_state()` returns it: the logins a kept profile folder starts with)."""
    values: dict[str, str] = {}
    for c in data.get("cookies") or [] if isinstance(data, dict) else []:
        if isinstance(c, dict) and isinstance(c.get("value"), str):
            values[str(c.get("name") or "cookie")] = c["value"]
    for o in data.get("origins") or [] if isinstance(data, dict) else []:
        for item in (o.get("localStorage") or []) if isinstance(o, dict) else []:
            if isinstance(item, dict) and isinstance(item.get("value"), str):
                values[f"local.{item.get('name') or 'item'}"] = item["value"]
    before = len(known_values())
    remember_values(values, kind="storage")
    return len(known_values()) - before


def _as_name(text: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_.-]+", "_", text)[:64]
    return name if NAME_RE.match(name) else f"_{name}"[:64]


def _credential_strings(value: str) -> list[str]:
    """Strings inside a JSON value that look like credentials: long, no spaces."""
    try:
        data = json.loads(value)
    except ValueError:
        return []
    out: list[str] = []

    def walk(v: Any) -> None:
        if isinstance(v, str) and len(v) >= 12 and not any(c.isspace() for c in v):
            out.append(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(data)
    return out[:64]


def _add(entries: Iterable[tuple[str, str, bool]]) -> None:
    global _pattern_cache
    with _lock:
        for name, value, prefixes in entries:
            had = _known.get(value)
            if had is None or (prefixes and not had[1]):
                _known[value] = (had[0] if had else name, prefixes or bool(had and had[1]))
                _pattern_cache = None


def prefixes(value: str) -> list[str]:
    """The prefixes hidden with a typed value: at least half of it and at least 6 characters."""
    shortest = max(6, math.ceil(len(value) / 2))
    return [value[:n] for n in range(shortest, len(value))]


def _spellings(value: str) -> set[str]:
    """A value as a record may hold it: typed, percent-, JSON- or HTML-escaped, made a file name."""
    out = {
        value,
        quote(value, safe=""),
        quote(value),
        quote_plus(value),
        json.dumps(value, ensure_ascii=False)[1:-1],
        json.dumps(value)[1:-1],
        html.escape(value),
    }
    out |= {r.sub("_", value).strip(" .") for r in _FILE_NAME_RES}
    return {s for s in out if len(s) >= min(len(value), MIN_VALUE)}


def _compiled() -> re.Pattern[str] | None:
    global _pattern_cache
    with _lock:
        if _pattern_cache is None and _known:
            _spelled.clear()
            for value, (name, with_prefixes) in _known.items():
                for v in (value, *(prefixes(value) if with_prefixes else ())):
                    for s in _spellings(v):
                        _spelled.setdefault(s.lower(), placeholder(name))
            alts = sorted(_spelled, key=len, reverse=True)  # the longest spelling first
            # In any case: a page or a file name may show the value upper- or lower-cased.
            _pattern_cache = re.compile("|".join(re.escape(a) for a in alts), re.IGNORECASE)
        return _pattern_cache


def scrub_text(text: str) -> str:
    """The text with every known value (in any spelling above) replaced by its placeholder."""
    pattern = _compiled() if _known else None
    if pattern is None or not text:
        return text
    return pattern.sub(lambda m: _spelled.get(m.group(0).lower(), "<secret>?</secret>"), text)


def scrub_data(value: Any) -> Any:
    """A JSON-like value with every string scrubbed (keys too, but for a record's own
    identifier-like keys, so a reader still finds its fields); numbers and the rest as they
    are, so the JSON written from it stays valid."""
    if not _known:
        return value
    if isinstance(value, str):
        return scrub_text(value)
    if isinstance(value, dict):
        return {
            (scrub_text(k) if isinstance(k, str) and not _SCHEMA_KEY.match(k) else k): scrub_data(v)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [scrub_data(v) for v in value]
    return value


def any_known() -> bool:
    return bool(_known)


def known_values() -> list[str]:
    """The values remembered so far."""
    with _lock:
        return list(_known)


def mask_needles(values: Sequence[str]) -> list[str]:
    """What the screenshot mask looks for in a field, lower-cased: each value and its prefixes."""
    return sorted({n.lower() for v in values for n in (v, *prefixes(v))}, key=len)
