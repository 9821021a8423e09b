"""One redaction for everything a task folder holds: URLs, request bodies, headers, free text.

Secrets keep their name and lose their value (`[redacted]`), so a record still says a token
was sent without carrying it:
- parameters whose name is a secret word once split (`api_key`, `apiKey`, `session_token`,
  `pw`, `pin`, `passcode`, …; not `keyword` or `monkey`), in queries, fragments, form,
  multipart and JSON bodies; OAuth's `code` when `state` travels with it (a plain `code=` on
  a statistics site is data);
- a fragment that carries parameters (`#access_token=…`) or one long opaque token;
- path parameters (`/cart;jsessionid=…`) by the same names;
- `user:password@` in URLs; Authorization-, Cookie- and API-key-like headers;
- JSON wherever it hides: a form field, a query value or a JSON string whose value is itself
  JSON is parsed and redacted by its keys, at any depth;
- in free text (errors, notes, page text): every URL above, `Bearer …` / `Basic …`
  credentials, `name: value` / `name=value` / `"name": "value"` pairs (JSON-escaped too) whose
  name is a secret, and provider-shaped keys (`sk-…`, AWS `AKIA…`, Google `AIza…`, GitHub
  `ghp_…`, Slack `xoxb-…`, JWTs, private-key blocks).
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote, unquote_plus, urlsplit, urlunsplit

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
    "idtoken", "clientsecret", "ssn", "cvv", "cvc", "jsessionid", "phpsessid", "sessid", "aspsessionid",
    "privatekey", "otpcode", "mfa",
})  # fmt: skip
# A word ending so is a secret too (`authtoken`, `xsrftoken`, `newpassword`, `jsessionid`).
_SECRET_SUFFIXES = ("token", "secret", "password", "passwd", "sessionid", "sessid", "apikey")
_URL_RE = re.compile(r"\b[a-zA-Z][a-zA-Z0-9+.-]{1,15}://[^\s'\"<>`]+")
_CRED_RE = re.compile(r"(?i)\b(bearer|basic|token)\s+[A-Za-z0-9._~+/=-]{8,}")
_KEYLIKE_RE = re.compile(
    r"\b(?:(?:sk|pk|rk|ghp|gho|ghu|ghs|ghr|xox[abposr])[-_][A-Za-z0-9_-]{12,}"
    r"|github_pat_[A-Za-z0-9_]{20,}"
    r"|(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|AIPA)[0-9A-Z]{16}"
    r"|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})"
    r"(?![A-Za-z0-9])"
    # Google's keys are distinctive enough to be found glued to other text (`q=fooAIza…`).
    r"|AIza[0-9A-Za-z_-]{35}"
)
_PRIVATE_KEY_RE = re.compile(
    r"-----BEGIN [A-Z ]*PRIVATE KEY-----.*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)", re.S
)
# `name: value`, `name=value`, `"name": "value"` — quotes JSON-escaped any number of times.
_KV_RE = re.compile(
    r"""(?P<q>\\*["']?)(?P<name>[A-Za-z_][A-Za-z0-9_.-]{0,60})(?P=q)\s*[:=]\s*"""
    r"""(?=(?P<val>\\*"(?:[^"\\]|\\.)*?\\*"|\\*'(?:[^'\\]|\\.)*?\\*'|[^\s,;&}\]"'\\)<>=:]+=*))"""
)
_SCHEMES = frozenset({"bearer", "basic", "token", "digest"})  # `Authorization: Bearer …`: _CRED_RE's
_NOT_IN_TEXT = frozenset({"key", "pass", "session", "auth"})  # `key: Enter` is a note, not a secret
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
    joined = "".join(words)
    return (
        joined in _SECRET_WORDS
        or any(w in _SECRET_WORDS for w in words)
        or any(w.endswith(_SECRET_SUFFIXES) for w in (*words, joined))
    )


def redact_params(pairs: list[tuple[str, str]]) -> list[list[str]]:
    names = frozenset(k.lower() for k, _ in pairs)
    return [[k, REDACTED if is_secret_name(k, names) else redact_value(v)] for k, v in pairs]


def redact_value(value: str) -> str:
    """A parameter's value: JSON in it is redacted by its keys (and written back compactly),
    anything else as free text."""
    head = value.lstrip()[:1]
    if head in ("{", "["):
        try:
            parsed = json.loads(value)
        except ValueError:
            pass
        else:
            cleaned = redact_json(parsed)
            return value if cleaned == parsed else json.dumps(cleaned, ensure_ascii=False)
    return redact_text(value) or value


def _redact_query(query: str) -> str:
    """Segment by segment, so the rest stays byte-for-byte as the page sent it."""
    segments = re.split(r"([&;])", query)
    names = frozenset(unquote_plus(s.split("=", 1)[0]).lower() for s in segments if s not in "&;")
    out = []
    for seg in segments:
        raw_name, eq, raw_value = seg.partition("=")
        name = unquote_plus(raw_name)
        if seg in "&;" or not eq:
            out.append(redact_keys(seg) if seg not in "&;" and redact_keys(name) != name else seg)
        elif is_secret_name(name, names):
            out.append(f"{raw_name}={REDACTED}")
        else:
            value = unquote_plus(raw_value)
            cleaned = redact_value(value)
            shown = raw_name if redact_keys(name) == name else quote(redact_keys(name), safe="[]")
            out.append(
                seg if cleaned == value and shown == raw_name else f"{shown}={quote(cleaned, safe='[]')}"
            )
    return "".join(out)


def redact_keys(text: str) -> str:
    """Provider-shaped keys and private-key blocks replaced wherever they stand: the part of
    the redaction that is safe on any text at all (record/atomic.py applies it to every string
    a record file is written with)."""
    if not text:
        return text
    return _KEYLIKE_RE.sub(REDACTED, _PRIVATE_KEY_RE.sub(REDACTED, text))


def _redact_path(path: str) -> str:
    """Path parameters (`/a;jsessionid=…/b`), segment by segment; a key-shaped segment too."""
    path = redact_keys(path)
    if ";" not in path:
        return path
    out = []
    for seg in path.split("/"):
        head, sep, params = seg.partition(";")
        out.append(f"{head}{sep}{_redact_query(params)}" if sep else seg)
    return "/".join(out)


def _redact_fragment(fragment: str) -> str:
    if not fragment:
        return fragment
    fragment = redact_keys(fragment)
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
        (
            parts.scheme,
            netloc,
            _redact_path(parts.path),
            _redact_query(parts.query),
            _redact_fragment(parts.fragment),
        )
    )


def redact_text(text: str | None) -> str | None:
    """Free text (an error, a note) with every URL redacted and bearer-style credentials removed."""
    if not text:
        return text
    text = _PRIVATE_KEY_RE.sub(REDACTED, text)
    text = _URL_RE.sub(lambda m: redact_url(m.group(0)), text)
    text = _CRED_RE.sub(lambda m: f"{m.group(1)} {REDACTED}", text)
    text = _redact_pairs(text)
    return _KEYLIKE_RE.sub(REDACTED, text)


def _redact_pairs(text: str) -> str:
    """Each secret-named pair's value replaced. The value is matched by a lookahead, so a
    pair that is not secret (`failed: password=…`) does not hide the one inside it."""
    out, at = [], 0
    for m in _KV_RE.finditer(text):
        name, val = m.group("name"), m.group("val")
        if m.start() < at or not is_secret_name(name) or REDACTED in val or val.lower() in _SCHEMES:
            continue
        if not m.group("q") and name.lower() in _NOT_IN_TEXT:
            continue
        opening = re.match(r"\\*[\"']", val)
        quote_ = opening.group(0) if opening else ""
        out += [text[at : m.end()], f"{quote_}{REDACTED}{quote_}"]
        at = m.end() + len(val)
    return "".join(out) + text[at:]


def redact_json(value: Any) -> Any:
    """A JSON-like value with secret keys' values replaced and strings redacted as text."""
    if isinstance(value, dict):
        names = frozenset(str(k).lower() for k in value)
        return {k: (REDACTED if is_secret_name(str(k), names) else redact_json(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [redact_json(v) for v in value]
    if isinstance(value, str):
        return redact_value(value)
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
