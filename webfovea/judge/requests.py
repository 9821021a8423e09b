"""One captured request made fit for a judge: NavEval's formatter rules, offline.

Headers and raw bodies go; parsed bodies stay. Noise keys (browser, userAgent, cookies,
sessions, tokens, telemetry events, experiments …) and empty values are dropped at any depth;
URL-encoded strings, GraphQL queries and JSON inside strings are decoded; binary, base64 and
hex blobs become a marker. Pure functions: no network, no clock.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

# NavEval's EXCLUDE_FIELD (WebRetriever src/eval, request_formatter.py), compared case-insensitively.
NOISE_KEYS = frozenset(
    k.lower()
    for k in (
        "browser",
        "userAgent",
        "sec-ch-ua",
        "sec-ch-ua-platform",
        "cookie",
        "application",
        "device",
        "source",
        "identities",
        "appState",
        "content",
        "event",
        "events",
        "session",
        "eventUuid",
        "interaction",
        "experiments",
        "deviceAndBrowser",
        "token",
    )
)
# Control characters other than tab, newline and carriage return: one C-level scan, not a
# Python loop over every character (a 50 MB capture spent most of its judge time there).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
_HEX = re.compile(r"^(?:0x)?[0-9a-fA-F]{32,}$")
_B64 = re.compile(r"^[A-Za-z0-9+/_-]{40,}={0,2}$")
_GRAPHQL_KEYS = ("query", "graphql", "mutation")
_GRAPHQL_START = re.compile(r"^\s*(query|mutation|subscription|fragment|\{)", re.IGNORECASE)


def blob_marker(text: str) -> str | None:
    """'binary data' / 'hex data' / 'base64 data' when a string is a blob, else None."""
    if _CONTROL.search(text) or "\ufffd" in text:
        return "binary data"
    if _HEX.match(text):
        return "hex data"
    # Long unbroken base64 with both letters and digits; plain words and slugs do not qualify.
    if (
        _B64.match(text)
        and re.search(r"\d", text)
        and re.search(r"[A-Z]", text)
        and re.search(r"[a-z]", text)
    ):
        return "base64 data"
    return None


def _decode_string(key: str, text: str) -> Any:
    if (marker := blob_marker(text)) is not None:
        return marker
    stripped = text.strip()
    if stripped[:1] in "{[" and stripped[-1:] in "}]":
        try:
            return clean(json.loads(stripped))
        except ValueError:
            pass
    if key.lower() in _GRAPHQL_KEYS and _GRAPHQL_START.match(stripped):
        return " ".join(stripped.split())  # a GraphQL document, one line
    if "%" in text and (text.startswith(("http", "/")) or re.search(r"%[0-9A-Fa-f]{2}", text)):
        return unquote(text)
    return text


def _empty(v: Any) -> bool:
    return v is None or v == "" or v == [] or v == {}


def clean(value: Any, key: str = "") -> Any:
    """Drop noise keys and empty values, decode strings, mark blobs — recursively."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if str(k).lower() in NOISE_KEYS:
                continue
            v = clean(v, str(k))
            if not _empty(v):
                out[str(k)] = v
        return out
    if isinstance(value, list):
        return [c for v in value if not _empty(c := clean(v, key))]
    if isinstance(value, str):
        return _decode_string(key, value)
    return value


def _form_or_json(raw: str) -> Any:
    raw = raw.strip()
    if raw[:1] in "{[":
        try:
            return json.loads(raw)
        except ValueError:
            return None
    if "=" in raw:
        return dict(parse_qsl(raw, keep_blank_values=True))
    return None


def normalise(entry: dict[str, Any], fmt: str, *, keep_form_bodies: bool) -> dict[str, Any]:
    """A capture entry (ours or WebRetriever's) as {url, method, resource_type, json_data}.

    NavEval keeps only `json_data`; the webfovea filter also keeps parsed form bodies
    (`keep_form_bodies`), since many sites post their filters as forms."""
    url = str(entry.get("url") or "")
    body: Any = None
    if fmt == "webretriever":
        body = entry.get("json_data")
        if body is None and keep_form_bodies and isinstance(entry.get("post_data"), str):
            body = _form_or_json(entry["post_data"])
    else:
        body = entry.get("body_json")
        if body is None and keep_form_bodies and entry.get("body_params"):
            body = {str(k): v for k, v in entry["body_params"]}
    return {
        "url": url,
        "method": str(entry.get("method") or "GET").upper(),
        "resource_type": str(entry.get("resource_type") or ""),
        "json_data": body,
    }


def format_request(req: dict[str, Any]) -> dict[str, Any]:
    """The judge's view of one normalised request: decoded URL, cleaned body, nothing empty."""
    out: dict[str, Any] = {"method": req["method"], "url": unquote(req["url"])}
    body = clean(req.get("json_data")) if req.get("json_data") is not None else None
    if not _empty(body):
        out["json_data"] = body
    return out


def as_log_entry(req: dict[str, Any], ordinal: int) -> dict[str, Any]:
    """A normalised request in the predicate engine's shape (webfovea/predicates.py)."""
    parts = urlsplit(req["url"])
    query: dict[str, Any] = {}
    for k, v in parse_qsl(parts.query, keep_blank_values=True):
        query[k] = [*query[k], v] if isinstance(query.get(k), list) else ([query[k], v] if k in query else v)
    return {
        "ordinal": ordinal,
        "method": req["method"],
        "path": parts.path or "/",
        "query": query,
        "body": req.get("json_data"),
        "fetch": req["resource_type"] in ("xhr", "fetch"),
        "origin": f"{parts.scheme}://{parts.netloc}" if parts.netloc else None,
        "status": None,
    }
