"""Page text inside the harness's notes: quoted with the one quoting function, and cut.

`page_text` is webfovea/quoting.py's (re-exported here for the feedback room): page text in a
note is quoted and cannot leave its quotes. `capped` holds a whole note (or a tool's output) to
its budget, built on read_text's.
"""

from __future__ import annotations

from webfovea.browser.textsearch import READ_CHARS
from webfovea.quoting import page_text

# An action's note: read_text's page text plus the harness's words around it (the label
# searched, the match count, the custom-font caveat). A note longer than this is cut.
NOTE_CHARS = READ_CHARS + 400

__all__ = ["NOTE_CHARS", "capped", "page_text"]


def capped(text: str, limit: int = READ_CHARS) -> str:
    """`text` cut to `limit` characters, saying how much was left out (a tool's output, an
    action's note): no action hands the model more than its budget."""
    if len(text) <= limit:
        return text
    return f"{text[: max(1, limit)].rstrip()}… [{len(text) - limit:,} more characters cut]"
