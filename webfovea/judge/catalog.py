"""Every judge method `webfovea judge run --method` accepts, in one registry.

A method is one `JudgeMethod` record (judge/method.py) in a module's `METHODS`, and the
module is listed in `_MODULES`; `judge/run.py` and the command line read the catalogue,
never a method's name. A method kept outside the package (a plug-in, a test) joins with
`register(method)` and leaves with `unregister(name)`.
"""

from __future__ import annotations

from webfovea.judge import methods, published, rule
from webfovea.judge.method import JudgeMethod

__all__ = ["BY_NAME", "JudgeMethod", "get", "names", "register", "unregister"]

_MODULES = (published, methods, rule)

BY_NAME: dict[str, JudgeMethod] = {}
_BUILTIN: set[str] = set()


def register(method: JudgeMethod) -> None:
    """Offer `method` as `--method NAME`; a name already taken is an error."""
    if method.name in BY_NAME:
        raise ValueError(f"judge method {method.name!r} is defined twice")
    BY_NAME[method.name] = method


def unregister(name: str) -> None:
    """Take a method added with `register` out again (the built-in ones stay)."""
    if name not in _BUILTIN:
        BY_NAME.pop(name, None)


for _module in _MODULES:
    for _method in _module.METHODS:
        register(_method)
_BUILTIN.update(BY_NAME)


def names() -> tuple[str, ...]:
    return tuple(BY_NAME)


def get(name: str) -> JudgeMethod:
    try:
        return BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown method {name!r}; use {', '.join(BY_NAME)}") from None
