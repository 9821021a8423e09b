"""Parsing, the first stage: reply text -> Action or Rejection.

`reply.py` binds a call to the offered actions; `scan.py` finds the call in the text;
`tokens.py` strips chat-template tokens and markup; `values.py` reads points, keys and strings.
"""

from webfovea.parsing.reply import (
    DEFAULT_FORBIDDEN,
    GRAMMAR_HINT,
    TEMPLATE_TOKEN_RE,
    TEMPLATE_TOKENS,
    clean_reply,
    expected_form,
    parse_reply,
)

__all__ = [
    "DEFAULT_FORBIDDEN",
    "GRAMMAR_HINT",
    "TEMPLATE_TOKENS",
    "TEMPLATE_TOKEN_RE",
    "clean_reply",
    "expected_form",
    "parse_reply",
]
