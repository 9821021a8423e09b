"""Every judge method `webfovea judge run --method` accepts, in one registry.

A method is one `JudgeMethod` record (judge/method.py) in a module's `METHODS`, and the
module is listed in `_MODULES`; `judge/run.py` and the command line read the catalogue,
never a method's name. A method kept outside the package joins with `register(method)` (in
code) or an entry point in the `webfovea.judge_methods` group naming its `JudgeMethod`.
"""

from __future__ import annotations

from webfovea.judge import agenttrek_eval, autonomous_eval, methods, published, rule, webvoyager_eval
from webfovea.judge.method import JudgeMethod
from webfovea.plugins import BUILTIN, Origin, Registry, UnknownName

__all__ = ["BY_NAME", "METHODS", "JudgeMethod", "get", "names", "register", "unregister"]

_MODULES = (published, autonomous_eval, agenttrek_eval, webvoyager_eval, methods, rule)

ENTRY_POINT_GROUP = "webfovea.judge_methods"
METHODS: Registry[JudgeMethod] = Registry("judge method", ENTRY_POINT_GROUP, JudgeMethod)
BY_NAME = METHODS  # reads like the dict it was: `name in BY_NAME`, `BY_NAME[name]`


def register(method: JudgeMethod) -> None:
    """Offer `method` as `--method NAME`; a name another method holds is an error."""
    METHODS.register(method)


def unregister(name: str) -> None:
    """Take a method added with `register` out again (the built-in ones stay)."""
    METHODS.unregister(name)


for _module in _MODULES:
    for _method in _module.METHODS:
        METHODS.register(_method, origin=Origin(BUILTIN))


def names() -> tuple[str, ...]:
    return METHODS.names()


def get(name: str) -> JudgeMethod:
    try:
        return METHODS.require(name)
    except UnknownName:
        raise ValueError(f"unknown method {name!r}; use {', '.join(METHODS.names())}") from None
