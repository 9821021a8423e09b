"""The apps, one module or package each; `APPS` registers them by name.

Adding an app is one module or package under apps/ with its `APP` (an engine/spec.py
`AppSpec`) and one entry in `_MODULES` (docs/breakingweb.md, "Adding an app"). An app kept
outside this package (a plug-in, a test) joins with `register(app)` before the sites start,
and leaves with `unregister(app)`; `version()` changes with every change, so the task
collection (tasks.py) is rebuilt.
"""

from __future__ import annotations

from webfovea.plugins import BUILTIN, Origin, Registry
from webfovea_breakingweb.apps import (
    bank,
    booking,
    calendar,
    cases,
    ecommerce,
    education,
    email,
    finance,
    healthcare,
    mail,
    requests,
    shop,
    social,
    tracker,
    travel,
)
from webfovea_breakingweb.engine.spec import AppSpec

_MODULES = (
    requests,
    booking,
    cases,
    shop,
    bank,
    mail,
    tracker,
    calendar,
    social,
    email,
    finance,
    travel,
    healthcare,
    ecommerce,
    education,
)
ENTRY_POINT_GROUP = "webfovea.breakingweb_apps"
APPS: Registry[AppSpec] = Registry("BreakingWeb app", ENTRY_POINT_GROUP, AppSpec)
_version = [0]


def _bump() -> None:
    _version[0] += 1  # sites and suites built from an older catalogue see it changed


for _m in _MODULES:
    APPS.register(_m.APP, origin=Origin(BUILTIN))
APPS.subscribe(_bump)


def register(app: AppSpec) -> None:
    """Add an app; sessions and sites made afterwards serve it and its tasks."""
    held = APPS.get(app.name)
    if held is not None and held is not app:
        raise ValueError(f"app {app.name!r} is defined twice")
    APPS.register(app)


def unregister(app: AppSpec) -> None:
    """Take an app added with `register` out again (the built-in ones stay)."""
    APPS.unregister(app)


def version() -> int:
    return _version[0]


__all__ = ["APPS", "register", "unregister", "version"]
