"""A throwaway site, written as a module under `webfovea_proving_ground/sites/` would be (the recipe
"Adding a site to the proving ground" of docs/architecture.md): its routes on the apps, its
index row. `sites.register(recipe_site)` adds it the way `MODULES` adds the built-in ones."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from webfovea_proving_ground.sites.context import SiteContext
from webfovea_proving_ground.sites.layout import page

SITES = [("recipe", "/recipe", "A throwaway site the recipe test adds")]


def code(seed: int) -> str:
    """The value the page reveals: it depends on the seed, as the built-in sites' answers do."""
    return f"RC-{seed * 7 + 3:04d}"


def register(ctx: SiteContext, main: FastAPI, frame: FastAPI) -> None:
    body = f"""<h1>Recipe</h1>
<button id=reveal style="padding:12px 24px"
 onclick="document.getElementById('code').hidden=false">Show the code</button>
<p id=code hidden>{code(ctx.seed)}</p>
<div id=tile style="margin-top:40px;width:160px;height:80px;background:#cde;user-select:none"
 ondblclick="this.dataset.n=(+this.dataset.n||0)+1;
 document.getElementById('opened').textContent='Opened '+this.dataset.n">Double-click to open</div>
<p id=opened>Closed</p>"""

    @main.get("/recipe", response_class=HTMLResponse)
    def recipe() -> str:
        return page("Recipe", body, active="/recipe")
