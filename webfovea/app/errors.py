"""The one error the application layer raises for a mistake of its user (an option, a file, a
model spec): its message says what to change. The CLI prints it in one line and exits 2."""

from __future__ import annotations

from pydantic import ValidationError


class AppError(Exception):
    """A run that cannot start (or be summarised) as asked; `str(e)` is the whole message."""


def config_error(e: ValueError) -> AppError:
    """A configuration the harness refused, as one line: a pydantic error's first complaint
    (`max_cost: a money budget … needs the model's prices …`), not its multi-line report."""
    if not isinstance(e, ValidationError) or not e.errors():
        return AppError(str(e))
    err = e.errors()[0]
    where = ".".join(str(p) for p in err.get("loc", ()))
    msg = str(err.get("msg", e)).removeprefix("Value error, ")
    return AppError(f"{where}: {msg}" if where else msg)
