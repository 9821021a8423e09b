"""A worker's side of the driver channel (runner/channel.py): claims, hand-ins, heartbeats and
the image reads, over HTTP with the run's token. Blocking calls; the worker runs them in a
thread."""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

import httpx

from webfovea.documents import ocr
from webfovea.tls import tls_context

# A read waits its turn behind the other workers' at most this long. The worker imports this
# module, not the channel's server (http.server and its imports stay out of it).
OCR_WAIT_S = 300.0


class Retired(RuntimeError):
    """The driver no longer accepts this worker (it was declared lost and replaced)."""


class DriverUnreachable(RuntimeError):
    pass


class DriverClient:
    """A worker's side of the channel. Blocking calls; the worker runs them in a thread."""

    def __init__(  # noqa: PLR0913 - where the driver is, who this is, how long to wait
        self,
        url: str,
        token: str,
        worker_id: str,
        incarnation: int,
        patience_s: float = 60.0,
        timeout_s: float = 60.0,
    ) -> None:
        self.ident = {"worker": worker_id, "incarnation": incarnation}
        self.patience_s = patience_s
        headers = {"Authorization": f"Bearer {token}"}
        # Two clients, each used by one caller at a time: beats run beside claims and uploads.
        # The read timeout outlasts the queue's 30 s busy wait: the driver answers 503 first.
        self._main = httpx.Client(
            base_url=url,
            headers=headers,
            timeout=httpx.Timeout(timeout_s, write=300.0),
            verify=tls_context(),
        )
        self._beats = httpx.Client(base_url=url, headers=headers, timeout=10.0, verify=tls_context())
        self._reads: httpx.Client | None = None  # made at the first image
        self._url, self._headers = url, headers

    def close(self) -> None:
        self._main.close()
        self._beats.close()
        if self._reads is not None:
            self._reads.close()

    def read_image(self, png: bytes, how: ocr.Read) -> str | None:
        """The driver's Tesseract reading of `png` (documents/ocr.py `Reader`); None when the
        driver could not read it or be reached: the worker then reads it itself."""
        if self._reads is None:  # its own client: a read runs in a task's thread, beside the others
            self._reads = httpx.Client(
                base_url=self._url, headers=self._headers, timeout=OCR_WAIT_S, verify=tls_context()
            )
        headers = {
            "X-Worker": str(self.ident["worker"]),
            "X-Incarnation": str(self.ident["incarnation"]),
            "X-Psm": str(how.psm),
            "X-Enlarge": str(how.enlarge),
        }
        try:
            r = self._reads.post("/ocr", headers=headers, content=png)
            tsv = r.json().get("tsv") if r.status_code == 200 else None
        except Exception:  # noqa: BLE001 - whatever went wrong, the worker reads the image itself
            return None
        return tsv if isinstance(tsv, str) else None

    def _post(self, path: str, *, retry: bool = True, **kw: Any) -> dict[str, Any]:
        deadline = time.monotonic() + self.patience_s
        delay = 0.2
        while True:
            try:
                r = self._main.post(path, **kw)
            except httpx.TransportError as e:
                if not retry or time.monotonic() > deadline:
                    raise DriverUnreachable(f"the driver does not answer: {e}") from None
                time.sleep(delay)
                delay = min(delay * 2, 5.0)
                continue
            if r.status_code == 409:
                raise Retired(r.json().get("error", "retired"))
            if r.status_code == 503:  # the queue is locked: wait, however long (never lose the task)
                time.sleep(delay)
                delay = min(delay * 2, 5.0)
                deadline = time.monotonic() + self.patience_s
                continue
            r.raise_for_status()
            answer: dict[str, Any] = r.json()  # the driver answers every route with an object
            return answer

    def register(self, pid: int, host: str, cdp_url: str | None) -> None:
        self._post("/register", json={**self.ident, "pid": pid, "host": host, "cdp_url": cdp_url})

    def claim(self) -> dict[str, Any] | None:
        # One id for this claim and all its retries: the driver grants it once.
        answer = self._post("/claim", json={**self.ident, "claim": uuid.uuid4().hex})
        task: dict[str, Any] | None = answer["task"]
        return task

    def finish(self, task_id: str, status: str, archive: Path | None = None) -> None:
        headers = {
            "X-Worker": self.ident["worker"],
            "X-Incarnation": str(self.ident["incarnation"]),
            "X-Task": task_id,
            "X-Status": status,
        }
        if archive is None:
            self._post("/finish", headers=headers, content=b"")
            return
        # Retried whole: the driver takes the archive atomically or not at all.
        deadline = time.monotonic() + self.patience_s
        while True:
            try:
                with archive.open("rb") as f:
                    self._post("/finish", retry=False, headers=headers, content=f)
                return
            except DriverUnreachable:
                if time.monotonic() > deadline:
                    raise
                time.sleep(1.0)

    def heartbeat(self, **fields: Any) -> bool | None:
        """True when the driver asks to stop; None when it could not be reached this time."""
        try:
            r = self._beats.post("/heartbeat", json={**self.ident, **fields})
        except httpx.TransportError:
            return None
        if r.status_code == 409:
            raise Retired(r.json().get("error", "retired"))
        if r.status_code != 200:
            return None
        return bool(r.json().get("stop"))
