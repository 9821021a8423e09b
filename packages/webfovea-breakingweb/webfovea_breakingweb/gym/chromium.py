"""BrowserGym's environment launches Playwright's own Chromium twice per reset (the task's browser,
which `BreakingWebEnv` may point elsewhere, and the chat's, which takes no executable path).
Where Playwright's download is missing but a Chromium is installed (a headless shell, as
webfovea's own runs use: `find_chrome`), `link_system_chromium` lays out a Playwright browsers
folder whose headless shell is that binary and points `$PLAYWRIGHT_BROWSERS_PATH` at it. It
must run before Playwright's driver starts (the first environment's reset); an installed
Playwright browser, or a folder the user already chose, is left alone.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import playwright

from webfovea.browser.session import BrowserNotFound, find_chrome
from webfovea.user_cache import user_cache

SHELL_PATH = Path("chrome-headless-shell-linux64") / "chrome-headless-shell"


def _revision() -> str:
    listing = Path(playwright.__file__).parent / "driver" / "package" / "browsers.json"
    browsers = json.loads(listing.read_text(encoding="utf-8"))["browsers"]
    return str(next(b["revision"] for b in browsers if b["name"] == "chromium-headless-shell"))


def _expected(root: Path) -> Path:
    return root / f"chromium_headless_shell-{_revision()}" / SHELL_PATH


def link_system_chromium() -> Path | None:
    """The browsers folder now in `$PLAYWRIGHT_BROWSERS_PATH`, or None when nothing was needed
    or possible (Playwright then says itself how to install its browser)."""
    current = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or Path.home() / ".cache" / "ms-playwright")
    if _expected(current).exists() or os.environ.get("PLAYWRIGHT_BROWSERS_PATH"):
        return None
    folder = user_cache("WEBFOVEA_PW_BROWSERS", "playwright-browsers")
    if folder is None:
        return None
    try:
        binary = Path(find_chrome(headless=True))
    except BrowserNotFound:
        return None
    link = _expected(folder)
    if not link.exists():
        link.parent.mkdir(parents=True, exist_ok=True)
        if link.is_symlink():  # left pointing at a binary that is gone
            link.unlink()
        try:
            link.symlink_to(binary)
        except FileExistsError:
            pass  # another worker made it meanwhile
    os.environ["PLAYWRIGHT_BROWSERS_PATH"] = str(folder)
    return folder
