"""Finding, launching and connecting to Chromium. One BrowserSession owns one browser."""

from __future__ import annotations

import os
import shlex
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, BrowserContext, Page, Playwright

from webfovea.browser.driver_start import start_playwright
from webfovea.secrets import remember_storage, remember_storage_state

# Flags every launch gets: no background traffic of Chromium's own (updates, sync, component
# and extension downloads, QUIC): a run's only requests are the pages'. The offline host rule
# (OFFLINE_ENV) is separate: with it no real website resolves.
BASE_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--no-default-browser-check",
    # Every site in a process of its own, out-of-process iframes included: full Chromium does this
    # by default on desktop, the headless shell only when asked (the proving ground needs OOPIFs).
    "--site-per-process",
]
# The headless shell hints web fonts to whole-pixel advances unless told not to; full Chromium
# positions glyphs at fractional advances (a 40 px web-font string: 96 vs 97.06 px wide). With
# hinting off the shell lays text out as full Chromium does.
SHELL_FLAGS = ["--font-render-hinting=none"]
# Chromium keeps only the last --disable-features, and Playwright passes its own list first: ours
# (appended after it) must repeat Playwright's (1.65; a test checks none goes missing).
_FEATURES_FLAG = "--disable-features="
PLAYWRIGHT_DISABLED_FEATURES = [
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
]
# Memory per worker, each measured alone (benchmarks/bench_memory.py; docs/memory.md has the
# numbers): headless Chromium still preloads the address bar's two WebUI popups into a renderer
# of their own (~40 MiB private, both must go); the spare renderer kept warm for the next site.
MEMORY_DISABLED_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "SpareRendererForSitePerProcess"]
# V8 in every renderer favours size: a smaller young generation and a heap grown in smaller steps
# halve a heavy page's renderer (the 3,000-row register with its AI snapshot: ~300 -> ~170 MiB)
# at the price of more collections (that page's snapshot 1.2 -> 2.5 s; the suite's tasks/min
# did not move). The user's --js-flags are appended to ours, so theirs win.
MEMORY_JS_FLAGS = "--optimize-for-size"
# Likewise --enable-features: Playwright (1.65) enables these; ours follow. The network service
# runs in the browser process instead of a utility process of its own: 14-20 MiB PSS less per
# worker at the peaks (docs/memory.md).
_ENABLE_FLAG = "--enable-features="
MEMORY_ENABLED_FEATURES = ["NetworkServiceInProcess2"]


def playwright_enabled_features() -> list[str]:
    """Playwright's own --enable-features list (it leaves the first out when the user asked for
    its legacy screenshots)."""
    legacy = bool(os.environ.get("PLAYWRIGHT_LEGACY_SCREENSHOT"))
    return [*([] if legacy else ["CDPScreenshotNewSurface"]), "SkipListAccountsWithoutGaiaCookies"]


_JS_FLAG = "--js-flags="
# Offline runs only (tests, CI, the proving ground): no name but localhost resolves, so no real
# website is reachable. Never the default for a user's URL.
OFFLINE_RULES = "MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1"
_RULES_FLAG = "--host-resolver-rules="
OFFLINE_FLAGS = [*BASE_FLAGS, _RULES_FLAG + OFFLINE_RULES]
OFFLINE_ENV = "WEBFOVEA_OFFLINE"  # 1/true/yes: every launch is offline (the tests and CI set it)
EXTRA_ARGS_ENV = "WEBFOVEA_CHROME_ARGS"  # extra Chromium flags for every launch (shell-quoted)


def offline_from_env() -> bool:
    return os.environ.get(OFFLINE_ENV, "").strip().lower() in ("1", "true", "yes", "on")


def launch_args(offline: bool, extra: list[str] | None = None, exe: str | None = None) -> list[str]:
    """The Chromium flags of a launch: the base flags (and a headless shell's, when `exe` is one),
    the user's extra ones ($WEBFOVEA_CHROME_ARGS and `extra`), and the offline resolver rule when
    offline. Flags Chromium keeps only the last
    of are merged into one: host-resolver rules (the user's mappings first so they still win),
    disabled and enabled features (Playwright's, ours, the user's) and V8 flags (ours, then the
    user's)."""
    given = shlex.split(os.environ.get(EXTRA_ARGS_ENV, "")) + list(extra or [])
    rules = [a[len(_RULES_FLAG) :] for a in given if a.startswith(_RULES_FLAG)]
    features = [*PLAYWRIGHT_DISABLED_FEATURES, *MEMORY_DISABLED_FEATURES]
    for a in given:
        if a.startswith(_FEATURES_FLAG):
            features += [f.strip() for f in a[len(_FEATURES_FLAG) :].split(",") if f.strip()]
    enabled = [*playwright_enabled_features(), *MEMORY_ENABLED_FEATURES]
    for a in given:
        if a.startswith(_ENABLE_FLAG):
            enabled += [f.strip() for f in a[len(_ENABLE_FLAG) :].split(",") if f.strip()]
    js = [MEMORY_JS_FLAGS, *(a[len(_JS_FLAG) :] for a in given if a.startswith(_JS_FLAG))]
    merged = (_RULES_FLAG, _FEATURES_FLAG, _ENABLE_FLAG, _JS_FLAG)
    shell = SHELL_FLAGS if exe is not None and is_headless_shell(exe) else []
    args = [*BASE_FLAGS, *shell, *(a for a in given if not a.startswith(merged))]
    args.append(_FEATURES_FLAG + ",".join(dict.fromkeys(features)))
    args.append(_ENABLE_FLAG + ",".join(dict.fromkeys(enabled)))
    args.append(_JS_FLAG + " ".join(f.strip() for f in js if f.strip()))
    if offline:
        rules.append(OFFLINE_RULES)
    if rules:
        args.append(_RULES_FLAG + ", ".join(r.strip().strip(",") for r in rules if r.strip()))
    return args


INSTALL_HINT = (
    "No Chromium found. Install one (Debian/Ubuntu: `apt-get install -y chromium chromium-headless-shell`), "
    "or set WEBFOVEA_CHROME=/path/to/chrome, or connect to a running browser with --cdp-url."
)


class BrowserNotFound(RuntimeError):
    pass


# The headless shell (Chromium's old headless mode, its own binary; what Playwright itself runs
# headless) carries no browser UI layer: per worker ~130 MiB less PSS than full Chromium in
# headless mode on the same pages (docs/memory.md). Preferred for headless launches when installed.
HEADLESS_SHELLS = ("chromium-headless-shell", "chrome-headless-shell", "headless_shell")
DEBIAN_SHELL_BINARY = "/usr/lib/chromium/chromium-headless-shell"
FULL_BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")


def find_chrome(headless: bool = True) -> str:
    """Locate a Chromium binary: $WEBFOVEA_CHROME; for headless launches a headless shell
    (Debian's chromium-headless-shell, Chrome's chrome-headless-shell, Playwright's); then full
    Chromium/Chrome on the PATH; then Playwright's own download."""
    env = os.environ.get("WEBFOVEA_CHROME")
    if env:
        if Path(env).exists():
            return env
        raise BrowserNotFound(f"WEBFOVEA_CHROME={env} does not exist. {INSTALL_HINT}")
    pw_root = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH", Path.home() / ".cache" / "ms-playwright"))
    candidates: list[str | None] = []
    if headless:
        # Debian's /usr/bin/chromium-headless-shell is a script that runs this binary as its child
        # (no exec): launch the binary itself, so the browser is the process Playwright started.
        candidates += [DEBIAN_SHELL_BINARY, *(shutil.which(n) for n in HEADLESS_SHELLS)]
        candidates += [
            str(c) for c in sorted(pw_root.glob("chromium_headless_shell-*/*/*headless*shell"), reverse=True)
        ]
    candidates += [shutil.which(n) for n in FULL_BROWSERS]
    candidates += [str(c) for c in sorted(pw_root.glob("chromium-*/chrome-linux*/chrome"), reverse=True)]
    for found in candidates:
        if found and Path(found).is_file():
            return found
    raise BrowserNotFound(INSTALL_HINT)


def is_headless_shell(exe: str) -> bool:
    """Whether a binary is a headless shell (it cannot open a window)."""
    return "headless" in Path(exe).name and "shell" in Path(exe).name


def browser_env(home: Path) -> dict[str, str]:
    """Point Chromium's HOME, TMPDIR and XDG folders at a folder of the run."""
    env = dict(os.environ)
    for var in ("HOME", "TMPDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME"):
        sub = home / var.lower()
        sub.mkdir(parents=True, exist_ok=True)
        env[var] = str(sub)
    return env


HOME_PREFIX = "webfovea-chrome-"
OWNER_FILE = "owner"  # "<pid> <start time>" of the process that made the folder


def _owner_stamp(pid: int) -> str:
    """A process's pid and start time (/proc): a reused pid does not look like the owner."""
    try:
        start = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        start = "?"
    return f"{pid} {start}"


def sweep_stale_homes(root: Path | None = None) -> list[Path]:
    """Remove browser folders (HOME/TMPDIR/profile of a launch) whose owner process is gone —
    a worker killed with SIGKILL cannot clean up after itself. Returns what was removed."""
    removed = []
    for home in Path(root or tempfile.gettempdir()).glob(HOME_PREFIX + "*"):
        try:
            pid = int((home / OWNER_FILE).read_text().split()[0])
            if _owner_stamp(pid) == (home / OWNER_FILE).read_text().strip():
                continue  # its owner is alive
        except (OSError, ValueError, IndexError):
            continue  # not ours to judge (an older layout, or being created right now)
        shutil.rmtree(home, ignore_errors=True)
        removed.append(home)
    return removed


@dataclass(frozen=True)
class BrowserLogin:
    """Where a launched browser's logins come from: a Playwright storage state file (cookies and
    local storage, e.g. saved by `context.storage_state(path=...)` after logging in by hand), or
    a Chromium profile folder kept between runs (one browser at a time may use it)."""

    storage_state: str | None = None
    user_data_dir: str | None = None

    def __post_init__(self) -> None:
        if self.storage_state and self.user_data_dir:
            raise ValueError("give a storage state or a profile folder, not both")
        if self.storage_state and not Path(self.storage_state).is_file():
            raise ValueError(
                f"storage state {self.storage_state} is not a file (save one with context.storage_state)"
            )


class BrowserSession:
    """A Playwright connection to one Chromium (launched here, or reached over CDP)."""

    def __init__(self) -> None:
        self._pw: Playwright | None = None
        self.browser: Browser | None = None
        self.context: BrowserContext | None = None
        self.cdp_url: str | None = None
        self._home: tempfile.TemporaryDirectory[str] | None = None
        self.viewport = (1920, 1080)
        self.offline = False
        self.persistent = False  # a profile folder: a context without a Browser object
        self._context_options: dict[str, Any] | None = None  # a launched browser's: for fresh_context

    @classmethod
    async def launch(
        cls,
        *,
        viewport: tuple[int, int] = (1920, 1080),
        headless: bool = True,
        executable: str | None = None,
        offline: bool | None = None,
        extra_args: list[str] | None = None,
        login: BrowserLogin | None = None,
    ) -> BrowserSession:
        """Launch Chromium. `offline` (default: $WEBFOVEA_OFFLINE) adds the resolver rule that
        keeps every name but localhost from resolving: for tests, CI and the proving ground."""
        self = cls()
        self.offline = offline_from_env() if offline is None else offline
        self.viewport = viewport
        exe = executable or find_chrome(headless)
        if not headless and is_headless_shell(exe):
            raise BrowserNotFound(
                f"{exe} is a headless shell: it cannot show a window. Set WEBFOVEA_CHROME "
                "to a full Chromium (e.g. /usr/bin/chromium) for a headed launch."
            )
        sweep_stale_homes()
        self._home = tempfile.TemporaryDirectory(prefix=HOME_PREFIX)
        (Path(self._home.name) / OWNER_FILE).write_text(_owner_stamp(os.getpid()))
        self._pw = await start_playwright()
        try:
            # Playwright's env takes str | float | bool values (dict is invariant: widen the type).
            env: dict[str, str | float | bool] = dict(browser_env(Path(self._home.name)))
            context_options: dict[str, Any] = {
                "viewport": {"width": viewport[0], "height": viewport[1]},
                "device_scale_factor": 1,
                "accept_downloads": True,
                "service_workers": "block",  # a worker could answer navigations the site guard must see
            }
            launch_options: dict[str, Any] = {
                "executable_path": exe,
                "headless": headless,
                "args": launch_args(self.offline, extra_args, exe),
                "env": env,
            }
            if login is not None and login.user_data_dir:  # a profile kept between runs
                Path(login.user_data_dir).mkdir(parents=True, exist_ok=True)
                self.context = await self._pw.chromium.launch_persistent_context(
                    login.user_data_dir, **launch_options, **context_options
                )
                self.persistent = True
                # The profile's saved logins are credentials as a storage state's are: every
                # exit scrubs them (they are read once, at start; logins made during the run
                # are the task's secrets' business).
                remember_storage(await self.context.storage_state())
            else:
                self.browser = await self._pw.chromium.launch(**launch_options)
                if login is not None and login.storage_state:
                    context_options["storage_state"] = login.storage_state
                    # Its cookies and local storage are credentials: scrubbed from every exit.
                    remember_storage_state(login.storage_state)
                self._context_options = context_options
                self.context = await self.browser.new_context(**context_options)
        except BaseException:
            await self.close()
            raise
        return self

    @classmethod
    async def connect(cls, cdp_url: str, *, viewport: tuple[int, int] = (1920, 1080)) -> BrowserSession:
        self = cls()
        self.viewport = viewport
        self.cdp_url = cdp_url
        self._pw = await start_playwright()
        try:
            self.browser = await self._pw.chromium.connect_over_cdp(cdp_url, timeout=15_000)
        except Exception as e:
            await self.close()
            raise ConnectionError(
                f"cannot reach a browser at {cdp_url}: {str(e).splitlines()[0]}. "
                "Start Chromium with --remote-debugging-port=PORT and pass --cdp-url http://127.0.0.1:PORT"
            ) from None
        self.context = (
            self.browser.contexts[0]
            if self.browser.contexts
            else await self.browser.new_context(accept_downloads=True)
        )
        return self

    async def fresh_page(self) -> Page:
        """Close every tab left by earlier work and return one usable page at the viewport size."""
        assert self.context is not None
        pages = list(self.context.pages)
        page = await self.context.new_page()
        await _close_pages(pages)
        await page.set_viewport_size({"width": self.viewport[0], "height": self.viewport[1]})
        return page

    async def fresh_context(self) -> bool:
        """A new browser context in place of the current one (cookies, storage, cache and tabs of
        earlier tasks gone), for a task that must start clean (a server-side session per run,
        seed 003 §3). Only for a browser launched here: a profile folder or a browser reached over
        CDP keeps the user's own context. True when the context was replaced."""
        if self.persistent or self.cdp_url or self.browser is None or self._context_options is None:
            return False
        old, self.context = self.context, await self.browser.new_context(**self._context_options)
        if old is not None:
            try:
                await old.close()
            except Exception:
                pass
        return True

    async def close_pages(self) -> None:
        """Close every tab but a new blank one (between tasks): the last task's renderers and what
        its listeners hold go now, not when the next task opens its page. One tab stays: a browser
        reached over CDP may quit with its last window."""
        if self.context is not None:
            pages = list(self.context.pages)
            await self.context.new_page()
            await _close_pages(pages)

    async def healthy(self, timeout_s: float = 5.0) -> bool:
        """A real round trip: evaluate in a page. An object existing proves nothing."""
        import asyncio

        if self.context is None:
            return False
        if not self.persistent and (self.browser is None or not self.browser.is_connected()):
            return False
        try:
            page = self.context.pages[0] if self.context.pages else await self.context.new_page()
            return bool(await asyncio.wait_for(page.evaluate("1+1"), timeout_s) == 2)
        except Exception:
            return False

    async def close(self) -> None:
        for closer in (
            (self.context.close if self.persistent and self.context is not None else None),
            (self.browser.close if self.browser and not self.cdp_url else None),
            (self._pw.stop if self._pw else None),
        ):
            if closer is None:
                continue
            try:
                await closer()
            except Exception:
                pass
        self.browser = None
        self._pw = None
        if self._home is not None:
            self._home.cleanup()
            self._home = None


async def _close_pages(pages: list[Page]) -> None:
    for old in pages:
        try:
            await old.close()
        except Exception:
            pass
        # Whatever still reaches a closed page object (Playwright's own bookkeeping until its
        # context closes; browser/world.py's table did until a page's close removed it) keeps
        # every listener a task left on it alive, and with them the task's harness and its
        # screenshots (~13 MiB a task). A closed page fires nothing, so nothing is lost.
        impl = getattr(old, "_impl_obj", None)
        if impl is not None and hasattr(impl, "remove_all_listeners"):
            impl.remove_all_listeners()


_LOST_MARKERS = (
    "Target closed",
    "has been closed",
    "Connection closed",
    "Browser closed",
    "crashed",
    "Target page, context or browser has been closed",
    "Session closed",
)


class BrowserLost(RuntimeError):
    """The browser or its connection is gone: the task ends as a recorded failure."""


def is_browser_lost(exc: BaseException) -> bool:
    return isinstance(exc, BrowserLost) or any(m in str(exc) for m in _LOST_MARKERS)
