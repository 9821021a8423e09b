"""The two things every HTML report writes from run data: text and links.

Run folders and ab.json are written by runs, which read hostile pages and models: any string
in them — a task id, an arm's run path, a model's reply — may be markup or a `javascript:`
URL. Text goes through `text` (escaped for element content and quoted attributes alike);
a link goes through `href`, which keeps only http(s) URLs and relative paths and says None for
the rest (the report then shows the text without a link).
"""

from __future__ import annotations

import json
from html import escape
from typing import Any
from urllib.parse import quote, urlsplit

__all__ = ["href", "text"]

_SAFE_SCHEMES = ("http", "https")
# Characters a path keeps as they are; everything else is percent-encoded, so a relative path
# can never grow a scheme (`javascript:` -> `javascript%3A`) or leave its attribute.
_PATH_SAFE = "/._-~"


def text(value: Any) -> str:
    """`value` as HTML text: None is empty, non-strings as JSON, `<>&"'` escaped."""
    if value is None:
        return ""
    if not isinstance(value, str):
        value = json.dumps(value, ensure_ascii=False, default=str)
    return escape(value, quote=True)


def href(value: Any) -> str | None:
    """An attribute-ready link for `value`, or None when it must not be a link.

    http(s) URLs are kept (escaped); a path without a scheme is percent-encoded and kept as
    relative (a leading `/` or `\\` — another host or the file system's root — is refused, like
    any other scheme: `javascript:`, `data:`, `file:`, `vbscript:`)."""
    if not isinstance(value, str) or not value or any(ord(c) < 32 or ord(c) == 127 for c in value):
        return None
    if "\\" in value or value.startswith("/"):
        return None
    try:
        parts = urlsplit(value)
    except ValueError:
        return None
    if parts.scheme or parts.netloc:
        if parts.scheme.lower() in _SAFE_SCHEMES and parts.netloc:
            return escape(value, quote=True)
        return None
    return quote(value, safe=_PATH_SAFE)
