"""Serve the proving ground on two loopback ports.

Pages come from `http://127.0.0.1:A`; embedded dashboards and documents from
`http://localhost:B`, a different site as far as Chromium is concerned, so those iframes
run out of process exactly like third-party embeds on live sites.
"""

from __future__ import annotations

import asyncio
import errno
import socket
import threading
import time
from types import TracebackType

import uvicorn

from .sessions import ControlClient
from .sites import SiteContext, build_apps, warm_up


class PortInUseError(OSError):
    """A requested port is taken; the message names it and says what to do."""


def _bind(port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    # Lets a restarted server reuse a port in TIME_WAIT; a live listener still raises EADDRINUSE.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
    except OSError as e:
        sock.close()
        if e.errno == errno.EADDRINUSE:
            raise PortInUseError(
                errno.EADDRINUSE, f"port {port} is already in use; pick another port or stop what is using it"
            ) from None
        raise OSError(e.errno, f"cannot listen on 127.0.0.1:{port}: {e.strerror}") from None
    sock.listen(128)
    return sock


class _Server:
    """One uvicorn server on an already bound socket, in its own thread and event loop."""

    def __init__(self, app: object, sock: socket.socket, name: str) -> None:
        self.sock = sock
        config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False)  # type: ignore[arg-type]
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, name=f"webfovea-{name}", daemon=True)
        self.error: BaseException | None = None

    def _run(self) -> None:
        try:
            asyncio.run(self.server.serve(sockets=[self.sock]))
        except BaseException as e:  # surfaced by start()
            self.error = e

    def start(self, timeout: float = 15.0) -> None:
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if self.error is not None or not self.thread.is_alive():
                raise RuntimeError(f"site server failed to start: {self.error!r}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"site server did not start within {timeout:.0f} s")
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


class SitesHandle:
    """A running proving ground. Use as a context manager or call `.stop()`."""

    def __init__(
        self,
        seed: int,
        main_port: int,
        frame_port: int,
        servers: list[_Server],
        ctx: SiteContext | None = None,
        control_secret: str = "",
    ) -> None:
        self.seed = seed
        self.ctx = ctx  # the sites' shared state: what the hostile suite is judged on
        # Known only to the runner: makes sessions and reads the sites' own request logs.
        self.control_secret = control_secret
        self.main_port = main_port
        self.frame_port = frame_port
        self.main_url = f"http://127.0.0.1:{main_port}"
        self.frame_url = f"http://localhost:{frame_port}"
        self._servers = servers

    @property
    def control_url(self) -> str:
        """Where a task's `session.control_url` points (POST creates a session)."""
        return self.url("/_control/sessions")

    def control(self) -> ControlClient:
        return ControlClient(self.main_url, self.control_secret)

    def url(self, path: str = "/") -> str:
        return self.main_url + (path if path.startswith("/") else "/" + path)

    def stop(self) -> None:
        for s in self._servers:
            s.stop()
        self._servers = []

    @property
    def running(self) -> bool:
        """False once stopped: a holder of the handle (BreakingWeb's gym registry) starts new sites."""
        return bool(self._servers)

    def __enter__(self) -> SitesHandle:
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def start_sites(seed: int = 0, ports: tuple[int, int] = (0, 0)) -> SitesHandle:
    """Start both origins (port 0 = a free port). Raises PortInUseError naming a taken port."""
    main_sock = _bind(ports[0])
    try:
        frame_sock = _bind(ports[1])
    except BaseException:
        main_sock.close()
        raise
    main_port, frame_port = main_sock.getsockname()[1], frame_sock.getsockname()[1]
    ctx = SiteContext(seed, f"http://127.0.0.1:{main_port}", f"http://localhost:{frame_port}")
    main_app, frame_app = build_apps(ctx)
    warm_up(ctx)
    servers = [_Server(main_app, main_sock, "main"), _Server(frame_app, frame_sock, "frame")]
    started: list[_Server] = []
    try:
        for s in servers:
            s.start()
            started.append(s)
    except BaseException:
        for s in started:
            s.stop()
        for s in servers:
            s.sock.close()
        raise
    return SitesHandle(seed, main_port, frame_port, servers, ctx, ctx.sessions.secret)


def serve_forever(seed: int = 0, ports: tuple[int, int] = (8000, 8001)) -> None:
    """For `webfovea serve`: print where the sites are and block until Ctrl-C."""
    with start_sites(seed, ports) as handle:
        print(f"Proving ground (seed {seed}) at {handle.main_url}/")
        print(f"Embedded content (second origin) at {handle.frame_url}/")
        from .sites import SITES

        for name, path, desc in SITES:
            print(f"  {name:<10} {handle.url(path):<45} {desc}")
        print("Press Ctrl-C to stop.")
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            print("Stopping.")
