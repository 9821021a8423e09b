"""The apps, one module or package each; `APPS` registers them by name.

Adding an app is one module or package under apps/ with its `APP` (an engine/spec.py
`AppSpec`) and one entry in `_MODULES` (docs/breakingweb.md, "Adding an app"). An app kept
outside this package (a plug-in, a test) joins with `register(app)` before the sites start,
and leaves with `unregister(app)`; `version()` changes with every change, so the task
collection (tasks.py) is rebuilt.
"""

from __future__ import annotations

from webfovea.proving_ground.breakingweb.apps import (
    bank,
    booking,
    calendar,
    cases,
    mail,
    requests,
    shop,
    tracker,
)
from webfovea.proving_ground.breakingweb.engine.spec import AppSpec

_MODULES = (requests, booking, cases, shop, bank, mail, tracker, calendar)
APPS: dict[str, AppSpec] = {m.APP.name: m.APP for m in _MODULES}
_version = [0]


def register(app: AppSpec) -> None:
    """Add an app; sessions and sites made afterwards serve it and its tasks."""
    if APPS.get(app.name) is app:
        return
    if app.name in APPS:
        raise ValueError(f"app {app.name!r} is defined twice")
    APPS[app.name] = app  # in place: the suite and the sites hold this dict
    _version[0] += 1


def unregister(app: AppSpec) -> None:
    """Take an app added with `register` out again (the built-in ones stay)."""
    if APPS.get(app.name) is app and app.name not in {m.APP.name for m in _MODULES}:
        del APPS[app.name]
        _version[0] += 1


def version() -> int:
    return _version[0]


__all__ = ["APPS", "register", "unregister", "version"]
