"""This machine's Chromium where Playwright looks for its own download, for BrowserGym's
environment (`gym.make("browsergym/...")`, AgentLab studies).

BrowserGym launches `playwright.chromium.launch()` without an executable path, so it runs the
Chromium build Playwright downloads (`playwright install chromium`) and nothing else; its
`EnvArgs` has no way to pass one. Where that download is not possible (no network to
Playwright's CDN, a distribution's Chromium only: what scripts/setup installs), a folder laid out
as Playwright's registry whose executables are links to the Chromium webfovea finds
(`browser/session.find_chrome`) serves it: point `PLAYWRIGHT_BROWSERS_PATH` at it before
BrowserGym's Playwright starts (worker processes inherit it). docs/browsergym.md.
"""

from __future__ import annotations

import json
import platform
import sys
from pathlib import Path

from webfovea.browser.session import find_chrome

# Playwright's executable path inside a browser's folder, per browser and Linux machine
# (its registry's EXECUTABLE_PATHS).
_LAYOUT = {
    ("chromium-headless-shell", "x86_64"): ("chrome-headless-shell-linux64", "chrome-headless-shell"),
    ("chromium-headless-shell", "aarch64"): ("chrome-headless-shell-linux-arm64", "chrome-headless-shell"),
    ("chromium", "x86_64"): ("chrome-linux64", "chrome"),
    ("chromium", "aarch64"): ("chrome-linux-arm64", "chrome"),
}


def _revisions() -> dict[str, str]:
    import playwright

    listing = Path(playwright.__file__).parent / "driver" / "package" / "browsers.json"
    browsers = json.loads(listing.read_text())["browsers"]
    return {b["name"]: str(b["revision"]) for b in browsers}


def link_playwright_chromium(folder: Path | str) -> Path:
    """Make `folder` a Playwright browsers folder for the installed Playwright whose Chromium
    (headless shell for headless launches, full Chromium for headed ones) is this machine's;
    returns it. Idempotent. Linux only (Playwright's downloads serve elsewhere)."""
    machine = platform.machine().lower().replace("amd64", "x86_64").replace("arm64", "aarch64")
    if not sys.platform.startswith("linux") or ("chromium", machine) not in _LAYOUT:
        raise RuntimeError(
            f"linking this machine's Chromium for Playwright is for Linux x86_64/aarch64, not "
            f"{sys.platform} {machine}: run `playwright install chromium` instead"
        )
    folder = Path(folder)
    revisions = _revisions()
    for name, headless in (("chromium-headless-shell", True), ("chromium", False)):
        first, exe = _LAYOUT[(name, machine)]
        link = folder / f"{name.replace('-', '_')}-{revisions[name]}" / first / exe
        link.parent.mkdir(parents=True, exist_ok=True)
        target = Path(find_chrome(headless=headless))
        if link.is_symlink() and link.resolve() != target.resolve():
            link.unlink()
        if not link.is_symlink():
            link.symlink_to(target)
    return folder
