"""The headed browser a person takes BreakingWeb's tasks in: full Chromium with a window (never
the headless shell), the app in one window and the task window in another, and a DevTools
endpoint written to the run folder (`human_browser.json`) so an assistant — or a test's scripted
person — can attach to the same browser over CDP.

Raw events are counted on the app's window only: pointer clicks and key presses through the
counter script (pages.py) and main-frame navigations through Playwright's `framenavigated`,
from the moment the task's page has loaded (the load itself is not the person's).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from webfovea.browser.session import find_chrome, is_headless_shell, launch_args, offline_from_env
from webfovea_breakingweb.people.attempts import RawEvents
from webfovea_breakingweb.people.pages import BINDING, COUNTER_JS, ENDED

ENDPOINT_FILE = "human_browser.json"


class NoDisplay(RuntimeError):
    pass


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class HeadedBrowser:
    """One headed Chromium for the whole run (`launch` as a context manager)."""

    def __init__(self, pw: Any, context: Any, home: tempfile.TemporaryDirectory[str], cdp_url: str) -> None:
        self._pw, self.context, self._home, self.cdp_url = pw, context, home, cdp_url
        self.app = context.pages[0] if context.pages else context.new_page()
        self.panel = context.new_page()
        self._events = RawEvents()
        self._counting = False
        context.expose_binding(BINDING, self._on_event)
        context.add_init_script(COUNTER_JS)
        self.app.on("framenavigated", self._on_navigation)

    @classmethod
    def launch(cls, run_dir: Path) -> HeadedBrowser:
        if sys.platform.startswith("linux") and not (
            os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
        ):
            raise NoDisplay(
                "--harness human shows the task in a browser window, and there is no display "
                "(DISPLAY is not set): run it on a desktop, or under xvfb-run with a scripted person"
            )
        exe = find_chrome(headless=False)
        if is_headless_shell(exe):
            raise NoDisplay(f"{exe} is a headless shell: set WEBFOVEA_CHROME to a full Chromium")
        from playwright.sync_api import sync_playwright

        port = _free_port()
        home = tempfile.TemporaryDirectory(prefix="webfovea-human-")
        pw = sync_playwright().start()
        try:
            context = pw.chromium.launch_persistent_context(
                str(Path(home.name) / "profile"),
                executable_path=exe,
                headless=False,
                args=launch_args(offline_from_env(), [f"--remote-debugging-port={port}"], exe),
                no_viewport=True,  # the window's own size: a person resizes it as they like
            )
        except BaseException:
            pw.stop()
            home.cleanup()
            raise
        cdp_url = f"http://127.0.0.1:{port}"
        Path(run_dir).mkdir(parents=True, exist_ok=True)
        (Path(run_dir) / ENDPOINT_FILE).write_text(json.dumps({"cdp_url": cdp_url}) + "\n", encoding="utf-8")
        return cls(pw, context, home, cdp_url)

    def __enter__(self) -> HeadedBrowser:
        return self

    def __exit__(
        self, t: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            self.context.close()
        except Exception:  # noqa: BLE001 - the person may have closed it already
            pass
        finally:
            self._pw.stop()
            self._home.cleanup()

    def _on_event(self, source: dict[str, Any], kind: str) -> None:
        if not self._counting or source.get("page") is not self.app:
            return
        if kind == "click":
            self._events.clicks += 1
        elif kind == "key":
            self._events.keys += 1

    def _on_navigation(self, frame: Any) -> None:
        if self._counting and frame == self.app.main_frame:
            self._events.navigations += 1

    def set_cookie(self, name: str, value: str, url: str) -> None:
        self.context.add_cookies([{"name": name, "value": value, "url": url, "httpOnly": True}])

    def attempt(self, url: str, panel_html: str, cap_s: float) -> tuple[str, str | None, float, RawEvents]:
        """Show the task and wait for the person's ending: (ending, answer, seconds, events)."""
        from playwright.sync_api import Error as PlaywrightError

        self._counting = False
        try:
            self.app.goto(url)
            self.app.wait_for_load_state("load")
        except PlaywrightError:  # the person closed the app's window or the browser
            return "closed", None, 0.0, RawEvents()
        self._events = RawEvents()
        self._counting = True
        # The instruction appears last: the clock starts when the person can read and act.
        self.panel.evaluate(f"() => {{ delete window.{ENDED}; }}")
        self.panel.set_content(panel_html)
        self.panel.bring_to_front()
        t0 = time.monotonic()
        ending, answer = wait_ended(self.panel, cap_s)
        seconds = time.monotonic() - t0
        self._counting = False
        return ending, answer, seconds, self._events


def wait_ended(panel: Any, cap_s: float) -> tuple[str, str | None]:
    """How the person ended in the task window: (done | infeasible | timeout | closed, answer)."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    deadline = time.monotonic() + cap_s
    try:
        got = panel.wait_for_function(f"() => window.{ENDED}", timeout=max(1.0, cap_s) * 1000, polling=200)
        value = got.json_value()
    except PlaywrightTimeout:
        return "timeout", None
    except PlaywrightError:
        return ("timeout", None) if time.monotonic() >= deadline else ("closed", None)
    how = str(value.get("how"))
    answer = str(value.get("answer") or "").strip() or None
    return (how if how in ("done", "infeasible") else "closed"), answer
