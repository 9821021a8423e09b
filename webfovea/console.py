"""The one way webfovea makes a Rich console: on a terminal, Rich's own width; elsewhere (a pipe,
a file, CI's log) no hard wrap, so a progress line or a table row is never split mid-number.

`COLUMNS`, when set, wins (Rich reads it), as a user who wants a width in a log expects.
"""

from __future__ import annotations

import os
import sys
from typing import TextIO

from rich.console import Console

# Wide enough that no row of ours is wrapped; tables still size to their content.
UNWRAPPED_WIDTH = 400


def make_console(*, stderr: bool = False, file: TextIO | None = None) -> Console:
    stream = file if file is not None else (sys.stderr if stderr else sys.stdout)
    probe = Console(file=stream)
    if probe.is_terminal or os.environ.get("COLUMNS"):
        return Console(file=file, stderr=stderr)
    return Console(file=file, stderr=stderr, width=UNWRAPPED_WIDTH, soft_wrap=True)
