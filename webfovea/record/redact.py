"""One redaction for everything a task folder holds: URLs, request bodies, headers, free text.

Secrets keep their name and lose their value (`[redacted]`), so a record still says a token
was sent without carrying it:
- parameters whose name is a secret word once split (`api_key`, `apiKey`, `session_token`,
  `pw`, `pin`, `passcode`, …; not `keyword` or `monkey`), in queries, fragments, form,
  multipart and JSON bodies; OAuth's `code` when `state` travels with it (a plain `code=` on
  a statistics site is data);
- a fragment that carries parameters (`#access_token=…`) or one long opaque token;
- `user:password@` in URLs; Authorization-, Cookie- and API-key-like headers;
- in free text (errors, notes): every URL above, `Bearer …` / `Basic …` credentials, and
  `sk-…`-style keys.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote_plus, urlsplit, urlunsplit

REDACTED = "[redacted]"
SECRET_HEADERS = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "cookie",
        "set-cookie",
        "x-api-key",
        "x-auth-token",
        "x-csrf-token",
    }
)
# Whole words (after splitting snake/kebab/camel case) that mark a parameter as a secret.
_SECRET_WORDS = frozenset({
    "token", "key", "apikey", "secret", "password", "passwd", "pwd", "pass", "pw", "pin", "passcode",
    "passphrase", "auth", "authorization", "session", "sessionid", "sid", "sig", "signature", "credential",
    "credentials", "jwt", "bearer", "otp", "totp", "cookie", "csrf", "xsrf", "accesstoken", "refreshtoken",
    "idtoken", "clientsecret", "ssn", "cvv", "cvc",
})  # fmt: skip
_URL_RE = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]{1,15}://[^\s'\"<>`]+")
_CRED_RE = re.compile(r"(?i)\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{8,}")
_KEYLIKE_RE = re.compile(r"\b(?:sk|pk|rk|ghp|gho|xox[abp])[-_][A-Za-z0-9_-]{12,}")
_OPAQUE_RE = re.compile(r"^[A-Za-z0-9._~+/=-]{24,}$")


def _words(name: str) -> list[str]:
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]


def is_secret_name(name: str, others: frozenset[str] = frozenset()) -> bool:
    """Does a parameter or header name carry a credential? `others`: the names beside it
    (OAuth's `code` is a secret only next to `state`)."""
    words = _words(name)
    if not words:
        return False
    if words == ["code"] and "state" in others:
        return True
    return "".join(words) in _SECRET_WORDS or any(w in _SECRET_WORDS for w in words)


def redact_params(pairs: list[tuple[str, str]]) -> list[list[str]]:
    names = frozenset(k.lower() for k, _ in pairs)
    return [[k, REDACTED if is_secret_name(k, names) else v] for k, v in pairs]


def _redact_query(query: str) -> str:
    """Segment by segment, so the rest stays byte-for-byte as the page sent it."""
    segments = re.split(r"([&;])", query)
    names = frozenset(unquote_plus(s.split("=", 1)[0]).lower() for s in segments if s not in "&;")
    out = []
    for seg in segments:
        name = unquote_plus(seg.split("=", 1)[0])
        out.append(
            f"{seg.split('=', 1)[0]}={REDACTED}" if seg not in "&;" and is_secret_name(name, names) else seg
        )
    return "".join(out)


def _redact_fragment(fragment: str) -> str:
    if not fragment:
        return fragment
    head, sep, tail = fragment.rpartition("?")  # '#/route?token=…' (a single-page app's route)
    if "=" in (tail if sep else fragment):
        return f"{head}?{_redact_query(tail)}" if sep else _redact_query(fragment)
    return REDACTED if _OPAQUE_RE.match(fragment) else fragment


def redact_url(url: str) -> str:
    """The URL without user:password@, with secret query and fragment values replaced."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    netloc = parts.netloc.rsplit("@", 1)[-1]
    return urlunsplit(
        (parts.scheme, netloc, parts.path, _redact_query(parts.query), _redact_fragment(parts.fragment))
    )


def redact_text(text: str | None) -> str | None:
    """Free text (an error, a note) with every URL redacted and bearer-style credentials removed."""
    if not text:
        return text
    text = _URL_RE.sub(lambda m: redact_url(m.group(0)), text)
    text = _CRED_RE.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    return _KEYLIKE_RE.sub(REDACTED, text)


def redact_json(value: Any) -> Any:
    """A JSON-like value with secret keys' values replaced and strings redacted as text."""
    if isinstance(value, dict):
        names = frozenset(str(k).lower() for k in value)
        return {k: (REDACTED if is_secret_name(str(k), names) else redact_json(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_json(v) for v in value]
    if isinstance(value, str):
        return redact_text(value)
    return value


def redact_headers(headers: dict[str, str]) -> dict[str, str]:
    return {
        k: redact_text(v) or v
        for k, v in headers.items()
        if k.lower() not in SECRET_HEADERS and not is_secret_name(k)
    }


def multipart_fields(body: str, content_type: str) -> list[tuple[str, str]] | None:
    """(name, value) of each part of a multipart/form-data body; files give `[file NAME]`
    (their content is never kept). None when the body does not parse."""
    m = re.search(r'boundary="?([^";]+)"?', content_type, re.IGNORECASE)
    if not m:
        return None
    fields: list[tuple[str, str]] = []
    for part in body.split("--" + m.group(1))[1:]:
        if part.startswith("--"):
            break
        head, _, content = part.lstrip("\r\n").partition("\r\n\r\n")
        if not _:
            head, _, content = part.lstrip("\n").partition("\n\n")
        name = re.search(r'\bname="([^"]*)"', head, re.IGNORECASE)
        if not name:
            continue
        filename = re.search(r'\bfilename="([^"]*)"', head, re.IGNORECASE)
        value = f"[file {filename.group(1)}]" if filename else content.removesuffix("\r\n").removesuffix("\n")
        fields.append((name.group(1), value))
    return fields


def redact_body(raw: str, content_type: str) -> tuple[str, Any]:
    """(kind, redacted content) of a request body: json, form, multipart or text (not kept)."""
    from urllib.parse import parse_qsl

    ctype = content_type.lower()
    if "multipart/" in ctype:
        fields = multipart_fields(raw, content_type)
        return ("multipart", redact_params(fields)) if fields is not None else ("multipart", None)
    if "json" in ctype or raw.lstrip().startswith(("{", "[")):
        try:
            return "json", redact_json(json.loads(raw))
        except ValueError:
            return "text", None
    if "x-www-form-urlencoded" in ctype or "=" in raw:
        return "form", redact_params(parse_qsl(raw, keep_blank_values=True))
    return "text", None
