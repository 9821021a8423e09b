"""BrowserGym's tasks through webfovea's harness (docs/browsergym.md): `catalog.py` (which
benchmarks and tasks), `environment.py` (a task as a task environment: BrowserGym sets it up
and its reward scores it), `facade.py` (its sync Playwright code on the harness's async page),
`miniwob_site.py` (MiniWoB++'s pages on loopback), `tasks.py` (webfovea tasks for a spec)."""
