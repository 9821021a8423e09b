"""The stateful apps, one module each; `APPS` registers them by name."""

from __future__ import annotations

from ..spec import AppSpec
from . import booking, cases, requests

APPS: dict[str, AppSpec] = {m.APP.name: m.APP for m in (requests, booking, cases)}

__all__ = ["APPS"]
