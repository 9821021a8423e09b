"""The stateful apps, one module each; `APPS` registers them by name."""

from __future__ import annotations

from webfovea.proving_ground.breakingweb.apps import booking, cases, requests
from webfovea.proving_ground.breakingweb.engine.spec import AppSpec

APPS: dict[str, AppSpec] = {m.APP.name: m.APP for m in (requests, booking, cases)}

__all__ = ["APPS"]
