"""The proving-ground sites: two FastAPI apps (main origin and frame origin) built from a seed.

Each module registers its routes on both apps; `build_apps` wires them together with an
index page listing every site. Adding a site is one module with its `register(ctx, main, frame)`
plus one entry in `MODULES` (and its rows in `SITES`, the index). The site modules and FastAPI
are imported when the apps are built: a process that needs only a site's data or its font (the
oracle, in every runner worker) does not load them (~11 MiB). A site module kept outside
this package (a plug-in, a test) joins with `register(module)` before the sites are started
(its own `SITES` rows, if it has them, join the index), and leaves with `unregister(module)`.
"""

from __future__ import annotations

import importlib
import threading
from types import ModuleType
from typing import TYPE_CHECKING, Any

from webfovea.plugins import BUILTIN, Origin, Registry

from .layout import esc, page

if TYPE_CHECKING:
    from fastapi import FastAPI

    from .context import SiteContext

SITES: list[tuple[str, str, str]] = [
    ("stats", "/stats", "Table builder: selects, autocomplete, date inputs, a long table, CSV"),
    ("stats", "/stats/compare", "Compare two countries side by side"),
    ("dashboard", "/dashboard", "Trade dashboard in a cross-origin iframe: covered list, hover-only chart"),
    ("rankings", "/rankings", "City rankings drawn with an obfuscating web font"),
    ("filings", "/filings", "Annual reports in a cross-origin document viewer"),
    ("captcha", "/gate", "Customs data behind an image-grid CAPTCHA"),
    ("slow", "/shipments", "Shipment tracker: slow first load, rows lazy-loaded on scroll"),
    ("consent", "/energy", "Energy prices behind a consent dialog"),
    ("forms", "/register", "Company register: search box under a transparent layer"),
    ("forms", "/requests", "Data request form: date input and a contenteditable field"),
    ("forms", "/publications", "Publications search whose box loses focus to a popover"),
    ("lab", "/lab", "Widget lab: changes a length-based detector misses, answers that arrive late"),
    (
        "structure",
        "/struct/stations",
        "A 3,000-row register: a snapshot over 500 KB, the answer row in the middle",
    ),
    ("structure", "/struct/widgets", "Widgets in an open and in a closed shadow root"),
    ("structure", "/struct/seat", "A button that renames itself when clicked (stale references)"),
    ("structure", "/struct/reports", "Report list that shows the last opened reference after going back"),
    ("structure", "/struct/contact", "A form whose labels are drawn next to the wrong inputs"),
    (
        "archive",
        "/archive",
        "Filings archive: answers only in PDF reports, an XLSX release, a CSV export (suite `documents`)",
    ),
    ("hostile", "/hostile/", "Hostile pages: each tries to steer, trap or rob the harness (suite `hostile`)"),
]

# The built-in site modules, by name (imported by `site_modules`).
MODULES = (
    "stats",
    "dashboard",
    "rankings",
    "filings",
    "gate",
    "slow",
    "forms",
    "lab",
    "hostile",
    "structure",
    "archive",
)


def _short_name(module: ModuleType) -> str:
    return str(getattr(module, "SITE_NAME", module.__name__.rsplit(".", 1)[-1]))


def _remember_rows() -> None:
    # The index lists every site module's `SITES` rows: the built-in table, then the others'.
    SITES[:] = [
        *_BUILTIN_ROWS,
        *(row for m in SITE_MODULES.loaded().values() for row in getattr(m, "SITES", ())),
    ]


ENTRY_POINT_GROUP = "webfovea.sites"
SITE_MODULES: Registry[ModuleType] = Registry("site", ENTRY_POINT_GROUP, ModuleType, name_of=_short_name)
_BUILTIN_ROWS = list(SITES)
_builtin_loaded = False


def site_modules() -> list[ModuleType]:
    """Every site module the apps are built from: the built-in ones, then the registered ones
    (in code, or by an entry point in the `webfovea.sites` group naming the module)."""
    global _builtin_loaded
    if not _builtin_loaded:
        _builtin_loaded = True
        for name in MODULES:
            SITE_MODULES.register(importlib.import_module(f"{__name__}.{name}"), origin=Origin(BUILTIN))
        SITE_MODULES.subscribe(_remember_rows)
    return list(SITE_MODULES.values())


def register(module: ModuleType) -> None:
    """Add a site module (`register(ctx, main, frame)`, optional `SITES` index rows); sites
    started afterwards serve it."""
    site_modules()
    SITE_MODULES.register(module)


def unregister(module: ModuleType) -> None:
    """Take a module added with `register` out again (the built-in ones stay)."""
    SITE_MODULES.unregister(module)


def build_apps(ctx: SiteContext, extra: tuple[Any, ...] = ()) -> tuple[FastAPI, FastAPI]:
    """Both apps with every site module. A module with `MOUNT_LAST = True` (BreakingWeb's
    stateful apps) and the `extra` ones come last, just inside the request log: their
    intervention middleware must sit inside it, so the log sees what the browser really got."""
    from fastapi import FastAPI
    from fastapi.responses import HTMLResponse

    from .. import sessions

    main = FastAPI(title="webfovea proving ground", docs_url=None, redoc_url=None, openapi_url=None)
    frame = FastAPI(title="webfovea embedded content", docs_url=None, redoc_url=None, openapi_url=None)

    @main.get("/", response_class=HTMLResponse)
    def index() -> str:
        items = "".join(
            f'<tr><td><a href="{path}">{esc(path)}</a></td><td>{esc(name)}</td><td>{esc(desc)}</td></tr>'
            for name, path, desc in SITES
        )
        body = f"""<h1>Proving ground</h1><p class="lead">Seed {ctx.seed}. Embedded content is served from
{esc(ctx.frame_url)}.</p><div class="card"><table class="data" id="sites"><thead><tr><th>Page</th><th>Site</th>
<th>What it exercises</th></tr></thead><tbody>{items}</tbody></table></div>"""
        return page("Proving ground", body, active="/")

    @frame.get("/", response_class=HTMLResponse)
    def frame_index() -> str:
        return "<p>Embedded content for the proving ground.</p>"

    modules = site_modules()
    for module in [m for m in modules if not getattr(m, "MOUNT_LAST", False)]:
        module.register(ctx, main, frame)
    for module in [m for m in modules if getattr(m, "MOUNT_LAST", False)]:
        module.register(ctx, main, frame)
    for module in extra:
        module.register(ctx, main, frame)
    sessions.install(main, frame, ctx.sessions, ctx.main_url, ctx.frame_url)
    return main, frame


def warm_up(ctx: SiteContext) -> threading.Thread:
    """Build the font, CAPTCHA tiles and documents in the background so that the first page
    that needs them is not the one that waits (an invisible web font would show in a screenshot)."""

    def build() -> None:
        from . import filings
        from .fonts import build_pua_font
        from .images import captcha_tiles

        build_pua_font(ctx.seed)
        ctx.cache.setdefault("tiles", captcha_tiles(ctx.seed))
        for doc_id in filings.filings(ctx.seed):
            filings.document_html(ctx.seed, doc_id)

    thread = threading.Thread(target=build, name="webfovea-warm-up", daemon=True)
    thread.start()
    return thread


def __getattr__(name: str) -> Any:
    if name == "SiteContext":  # FastAPI comes with it (the sessions' routes)
        from .context import SiteContext

        return SiteContext
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "SITES",
    "SITE_MODULES",
    "SiteContext",
    "build_apps",
    "register",
    "site_modules",
    "unregister",
    "warm_up",
]
