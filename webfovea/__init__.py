"""webfovea: reliable round trips for vision-based web agents, and a proving ground to measure them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"  # the one source of the version: pyproject.toml reads it (dynamic)
__all__ = [
    "BrowseResult", "Harness", "HarnessConfig", "PageAgent", "browse", "browse_sync", "make_config", "__version__",
]  # fmt: skip

if TYPE_CHECKING:
    from webfovea.app.browse import BrowseResult, browse, browse_sync
    from webfovea.config import HarnessConfig, make_config
    from webfovea.harness import Harness
    from webfovea.page_api import PageAgent


def __getattr__(name: str) -> Any:
    # Lazy: `import webfovea` stays cheap for tools that only need the data types.
    if name == "Harness":
        from webfovea.harness import Harness

        return Harness
    if name in ("HarnessConfig", "make_config"):
        from webfovea import config

        return getattr(config, name)
    if name in ("browse", "browse_sync", "BrowseResult"):  # the one-line agent (app/browse.py)
        from importlib import import_module

        return getattr(import_module("webfovea.app.browse"), name)
    if name == "PageAgent":  # act / extract / observe on a page you hold (page_api/)
        from webfovea.page_api import PageAgent

        return PageAgent
    raise AttributeError(name)
