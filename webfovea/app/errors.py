"""The one error the application layer raises for a mistake of its user (an option, a file, a
model spec): its message says what to change. The CLI prints it in one line and exits 2."""

from __future__ import annotations


class AppError(Exception):
    """A run that cannot start (or be summarised) as asked; `str(e)` is the whole message."""
