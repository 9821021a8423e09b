"""MiniWoB++'s pages, served on loopback from the `miniwob` package's own files.

BrowserGym's MiniWoB tasks open `<MINIWOB_URL><task>.html`; the pages ship inside the Farama
`miniwob` package (`miniwob/html/`). One static server per process serves them, so the tasks run
offline, and a run never depends on a checkout of miniwob-plusplus.
"""

from __future__ import annotations

import importlib.util
import os
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

_lock = threading.Lock()
_server: ThreadingHTTPServer | None = None


class MiniwobMissing(Exception):
    pass


def html_dir() -> Path:
    spec = importlib.util.find_spec("miniwob")  # its __init__ imports gymnasium and more: not needed
    if spec is None or not spec.submodule_search_locations:
        raise MiniwobMissing(
            "MiniWoB++'s pages are not installed: `scripts/setup` with WEBFOVEA_EXTRAS including "
            "browsergym installs them (docs/browsergym.md)"
        )
    folder = Path(next(iter(spec.submodule_search_locations))) / "html"
    if not (folder / "miniwob").is_dir():
        raise MiniwobMissing(f"the miniwob package has no html/miniwob folder at {folder}")
    return folder


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the stdlib's name
        pass


def miniwob_url() -> str:
    """The base URL BrowserGym's MiniWoB tasks take (`.../miniwob/`): `$MINIWOB_URL` when set
    (BrowserGym's own variable: a server of the user's), else a server started here once, whose
    URL goes into `$MINIWOB_URL` so that worker processes started later use the same pages
    (the tasks' start URLs, and so their site guard, name its port)."""
    global _server
    with _lock:
        if os.environ.get("MINIWOB_URL"):
            return os.environ["MINIWOB_URL"]
        if _server is None:
            handler = partial(_Quiet, directory=str(html_dir()))
            _server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
            threading.Thread(target=_server.serve_forever, name="miniwob-pages", daemon=True).start()
        os.environ["MINIWOB_URL"] = url = f"http://127.0.0.1:{_server.server_address[1]}/miniwob/"
        return url


# What the pages' address is called in a run's identity (runner/identity.py): the server above
# listens on a free port, new with every start, so without it a re-run never resumes.
STABLE_URL = "http://miniwob/miniwob/"


def url_aliases() -> dict[str, str]:
    """The pages' per-start address -> its stable name, left out of a run's identity."""
    return {miniwob_url(): STABLE_URL}
