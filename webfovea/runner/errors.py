"""Errors the runner shows the user as one clear message."""

from __future__ import annotations


class RunError(RuntimeError):
    """Bad input found before any task started (shown to the user as one clear message)."""
