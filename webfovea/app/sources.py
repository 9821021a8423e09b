"""Task sources named `KIND:SPEC` on the command line: tasks that come from outside code rather
than from a proving-ground suite or a task file, each made by its own module.

`browsergym:<benchmark>[.<task>]` — BrowserGym's tasks, set up and scored by BrowserGym
(webfovea/environments/browsergym/, docs/browsergym.md). Adding a source is one loader here.
"""

from __future__ import annotations

from collections.abc import Callable

from webfovea.app.errors import AppError
from webfovea.task import Task

# (the spec after `KIND:`, the seed) -> the tasks; AppError with what to do when it cannot.
SourceLoader = Callable[[str, int], list[Task]]


def _browsergym(spec: str, seed: int) -> list[Task]:
    from webfovea.environments.browsergym.catalog import BrowserGymMissing
    from webfovea.environments.browsergym.miniwob_site import MiniwobMissing
    from webfovea.environments.browsergym.tasks import browsergym_tasks

    if not spec:
        raise AppError("browsergym: needs a benchmark or a task, e.g. browsergym:miniwob.click-test")
    try:
        return browsergym_tasks(f"browsergym:{spec}", seed)
    except (BrowserGymMissing, MiniwobMissing, ImportError) as e:
        raise AppError(str(e)) from None


def _browsergym_aliases() -> dict[str, str]:
    from webfovea.environments.browsergym.miniwob_site import url_aliases

    return url_aliases()


SOURCES: dict[str, SourceLoader] = {"browsergym": _browsergym}
# A source whose tasks name a server started on a free port: that address -> a stable name, so
# a re-run of the same command resumes (runner/identity.py) instead of seeing every task changed.
SOURCE_ALIASES: dict[str, Callable[[], dict[str, str]]] = {"browsergym": _browsergym_aliases}


def source_aliases(name: str) -> dict[str, str]:
    """The per-start addresses of a `KIND:SPEC` source's tasks -> their stable names."""
    aliases = SOURCE_ALIASES.get(name.partition(":")[0])
    return aliases() if aliases is not None and source_of(name) is not None else {}


def source_of(name: str) -> tuple[SourceLoader, str] | None:
    """The loader and spec of `KIND:SPEC` when KIND is a registered source, else None."""
    kind, sep, spec = name.partition(":")
    loader = SOURCES.get(kind) if sep else None
    return (loader, spec) if loader is not None else None


def slug(name: str) -> str:
    """A folder-safe name for a source (`browsergym:miniwob.click-*` -> `browsergym-miniwob.click-x`)."""
    return "".join(c if c.isalnum() or c in "._-" else "-" if c == ":" else "x" for c in name)
