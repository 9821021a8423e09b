"""Where webfovea keeps what it may throw away: one folder per cache under the user's cache
directory, each with its own switch (a folder, or off)."""

from __future__ import annotations

import os
from pathlib import Path

OFF = ("off", "0", "no", "false")


def user_cache(env: str, name: str) -> Path | None:
    """The folder `$env` names, None when it says off, else ``$XDG_CACHE_HOME/webfovea/NAME``
    (``~/.cache/webfovea/NAME``)."""
    chosen = os.environ.get(env, "").strip()
    if chosen.lower() in OFF:
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "webfovea" / name
