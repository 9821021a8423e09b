"""Parsing, the first stage: reply text -> Action or Rejection.

`reply.py` binds a call to the offered actions; `scan.py` finds the call in the text;
`tokens.py` strips chat-template tokens and markup; `values.py` reads points, keys and strings.
"""

from webfovea.parsing import reply
from webfovea.parsing.reply import *  # noqa: F403 - the stage's public names are reply's

__all__ = reply.__all__
