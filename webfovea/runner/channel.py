"""The driver channel: how workers reach the queue without opening it.

The driver serves a small HTTP API (stdlib `ThreadingHTTPServer` on a thread of the driver:
five JSON/binary endpoints need no framework and no event loop next to the synchronous
supervision loop). Every request carries the run's random bearer token and the worker's
id and incarnation (how many times its slot was started); a request from an incarnation the
supervisor has given up on gets 409, so a worker declared lost can never claim or finish a
task after its tasks were salvaged.

    POST /register   {worker, incarnation, pid, host, cdp_url}
    POST /heartbeat  {worker, incarnation, stage?, step?, browser_pid?}   -> {stop}
    POST /claim      {worker, incarnation, claim}                         -> {task | null, stop}
    POST /finish     headers X-Worker, X-Incarnation, X-Task, X-Status; body: tar.gz or empty
    POST /ocr        headers X-Worker, X-Incarnation, X-Psm, X-Enlarge; body: PNG -> {tsv | null}

Workers use `DriverClient` (runner/client.py, httpx).

A claim is granted once, to the worker that receives it: each claim carries an id the client
keeps across its retries, so a retry after a timeout (a stopped driver, a queue locked by
another process) is answered with the task the first attempt was granted, not a second one.
A worker runs one task at a time and claims only after handing the last one in, so a task it
still holds at a new claim never reached it: that task goes back to pending, never `lost`.
A locked queue answers 503 (retried), never stops the run.

The driver also reads the workers' images with Tesseract (documents/ocr.py `read_through`), at
most `OCR_AT_ONCE` at a time for the whole run: no worker carries a Tesseract of its own (45-100
MB while it reads a screenshot), nor the enlarged copy a small-text read wants (a screenshot at
2x: +25-30 MiB for a moment), and the machine carries one or two however many workers run.
"""

from __future__ import annotations

import hmac
import json
import os
import sqlite3
import tarfile
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webfovea.documents import ocr
from webfovea.record.files import failure_result, read_result, write_result
from webfovea.runner.queue import TaskQueue
from webfovea.runner.transfer import INCOMING, unpack_into
from webfovea.task import Task

if TYPE_CHECKING:
    from webfovea.runner.spend import RunSpend
    from webfovea.runner.supervisor import Events

MAX_UPLOAD = 2 << 30  # a task folder of screenshots is megabytes; refuse anything absurd
MAX_IMAGE = 64 << 20  # a PNG to read: a screenshot is about 1 MB
MAX_ENLARGE = 4  # the driver enlarges a worker's image at most so many times before reading it
OCR_AT_ONCE = max(1, (os.cpu_count() or 2) // 2)  # Tesseract on one thread each (documents/ocr.py)
_HEARTBEAT_FIELDS = frozenset({"stage", "step", "browser_pid"})


class Stale(Exception):
    """The request comes from an incarnation the supervisor no longer runs."""


class Driver:
    """The driver's state behind the channel: the queue, who may talk, whether to stop."""

    def __init__(
        self, q: TaskQueue, tasks: list[Task], events: Events, spend: RunSpend | None = None
    ) -> None:
        self.q = q
        self.spend = spend  # the run's spending cap: no task is handed out once it is reached
        self.tasks = {t.task_id: t for t in tasks}
        self.events = events
        self.lock = threading.Lock()
        self.current: dict[str, int] = {}
        self.stopping = False
        self.broken: str | None = None  # why the queue can no longer be used (the run is stopping)
        self._grants: dict[str, tuple[tuple[int, str], str | None]] = {}  # worker -> (its claim, task)
        self.beats: dict[str, float] = {}  # when each worker last reached the driver (queue or not)
        self.reading = threading.BoundedSemaphore(OCR_AT_ONCE)

    def read_image(self, worker_id: str, incarnation: int, png: bytes, how: ocr.Read) -> str | None:
        """Tesseract's TSV for a worker's image, enlarged and read here, `OCR_AT_ONCE` at a time."""
        with self.lock:
            self._check(worker_id, incarnation)
        with self.reading:
            return ocr.read_here(png, how)

    def mark_broken(self, reason: str) -> None:
        with self.lock:
            self.broken = self.broken or reason
            self.stopping = True

    def admit(self, worker_id: str, incarnation: int) -> None:
        with self.lock:
            self.current[worker_id] = incarnation

    def retire(self, worker_id: str) -> None:
        """From now on the worker's requests are refused (taken before salvaging its tasks)."""
        with self.lock:
            self.current.pop(worker_id, None)

    def request_stop(self) -> None:
        with self.lock:
            self.stopping = True

    def _check(self, worker_id: str, incarnation: int) -> None:
        if self.broken:
            raise Stale(f"the run is stopping: {self.broken}")
        if self.current.get(worker_id) != incarnation:
            raise Stale(f"worker {worker_id} incarnation {incarnation} is not the one running")

    def register(self, worker_id: str, incarnation: int, pid: int, host: str, cdp_url: str | None) -> None:
        with self.lock:
            self._check(worker_id, incarnation)
            self.q.register_worker(worker_id, pid, cdp_url, incarnation)
        self.events.write("worker_registered", worker=worker_id, restarts=incarnation, pid=pid, host=host)

    def heartbeat(self, worker_id: str, incarnation: int, fields: dict[str, Any]) -> bool:
        with self.lock:
            self._check(worker_id, incarnation)
            self.beats[worker_id] = time.time()  # alive even if the queue is locked just now
            self.q.heartbeat(worker_id, **{k: v for k, v in fields.items() if k in _HEARTBEAT_FIELDS})
            return self.stopping

    def claim(self, worker_id: str, incarnation: int, claim_id: str | None = None) -> dict[str, Any] | None:
        with self.lock:
            self._check(worker_id, incarnation)
            self.beats[worker_id] = time.time()
            held = self.q.claimed_by(worker_id)
            grant = self._grants.get(worker_id)
            if claim_id is not None and grant is not None and grant[0] == (incarnation, claim_id):
                tid = grant[1]  # a retry of the claim already granted: the same answer
                if tid is None or tid in held:
                    return self.tasks[tid].model_dump(mode="json") if tid else None
            for unreceived in held:  # granted to an earlier claim whose answer never arrived
                self.q.release(unreceived)
                self.events.write("claim_returned", task_id=unreceived, worker=worker_id)
            tid = None if self.stopping or self._budget_spent() else self.q.claim(worker_id)
            if claim_id is not None:
                self._grants[worker_id] = ((incarnation, claim_id), tid)
        return self.tasks[tid].model_dump(mode="json") if tid else None

    def _budget_spent(self) -> bool:
        """The run's cap reached (said once in runner.log.jsonl); under the lock."""
        if self.spend is None:
            return False
        known = self.spend.stopped is not None
        why = self.spend.reached()
        if why is not None and not known:
            self.events.write("run_budget_reached", reason=why, pending=self.q.counts()["pending"])
        return why is not None

    def finish(self, worker_id: str, incarnation: int, tid: str, status: str, archive: Path | None) -> None:
        with self.lock:
            self._check(worker_id, incarnation)
            if tid not in self.q.claimed_by(worker_id):
                if self.q.handed_in_by(tid, worker_id):  # a retry of a hand-in already taken
                    return
                raise Stale(f"task {tid} is not claimed by worker {worker_id}")
            if archive is not None:
                placed = unpack_into(archive, self.q.out_dir, {tid})
                size = archive.stat().st_size
                self.events.write(
                    "task_received", task_id=tid, worker=worker_id, status=status, bytes=size, placed=placed
                )
            task_dir = self.q.out_dir / tid
            res = read_result(task_dir)
            if res is None:  # the net under the worker's contract: every finished task has a result
                res = failure_result(
                    self.tasks.get(tid), tid, "error", "the worker finished without a result.json"
                )
                write_result(task_dir, res)
            self.q.finish(tid, res.status)  # the file on disk is the truth, whatever the worker said
            if self.spend is not None:
                self.spend.record(tid, res)

    def accept_leftovers(self, worker_id: str, data: bytes) -> list[str]:
        """Place what a dead worker left on its node, for the tasks it still had claimed."""
        (self.q.out_dir / INCOMING).mkdir(exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=self.q.out_dir / INCOMING, suffix=".tar.gz") as f:
            f.write(data)
            f.flush()
            try:
                with self.lock:
                    placed = unpack_into(Path(f.name), self.q.out_dir, set(self.q.claimed_by(worker_id)))
            except (tarfile.TarError, OSError) as e:
                self.events.write("leftovers_refused", worker=worker_id, error=f"{type(e).__name__}: {e}")
                return []
        self.events.write("leftovers_received", worker=worker_id, bytes=len(data), placed=placed)
        return placed


class _Handler(BaseHTTPRequestHandler):
    driver: Driver
    token: str
    protocol_version = "HTTP/1.1"  # keep-alive: a worker beats every second
    timeout = 300  # an idle connection of a vanished worker does not hold a thread forever

    def log_message(self, *args: object) -> None:
        pass

    def _reply(self, code: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:  # noqa: N802 - stdlib name
        auth = self.headers.get("Authorization", "")
        if not hmac.compare_digest(auth.encode(), f"Bearer {self.token}".encode()):
            self._drain()
            self._reply(401, {"error": "bad token"})
            return
        try:
            self._reply(200, self._route())
        except Stale as e:
            self._reply(409, {"error": str(e)})
        except sqlite3.OperationalError as e:
            if not _busy(e):
                self.driver.mark_broken(f"the queue failed: {type(e).__name__}: {e}")
                self._reply(409, {"error": "the run is stopping: its queue failed"})
                return
            self._reply(503, {"error": f"the queue is busy ({e}); try again"})  # delayed, not lost
        except sqlite3.Error as e:  # the queue file was damaged under the driver: stop the run
            self.driver.mark_broken(f"the queue failed: {type(e).__name__}: {e}")
            self._reply(409, {"error": "the run is stopping: its queue failed"})
        except ConnectionError:  # the worker hung up (it timed out and retries): nothing to answer
            return
        except OSError as e:  # the output folder refuses writes (disk full, read-only): stop the run
            self.driver.mark_broken(f"cannot write {e.filename or 'the output folder'}: {e.strerror or e}")
            self._reply(409, {"error": "the run is stopping: its output folder refuses writes"})
        except (KeyError, ValueError, TypeError, tarfile.TarError) as e:  # TarError: a hostile archive
            self._reply(400, {"error": f"{type(e).__name__}: {e}"})

    def _drain(self) -> None:
        n = int(self.headers.get("Content-Length") or 0)
        while n > 0:
            chunk = self.rfile.read(min(n, 1 << 16))
            if not chunk:
                break
            n -= len(chunk)

    def _route(self) -> dict[str, Any]:
        d = self.driver
        if self.path == "/finish":
            return self._finish()
        if self.path == "/ocr":
            h = self.headers
            n = int(h.get("Content-Length") or 0)
            if not 0 < n <= MAX_IMAGE:
                raise ValueError(f"an image of {n} bytes")
            png = self.rfile.read(n)
            how = ocr.Read(int(h["X-Psm"]), int(h.get("X-Enlarge") or 1))
            if not 1 <= how.enlarge <= MAX_ENLARGE:
                raise ValueError(f"an enlargement of {how.enlarge}")
            return {"tsv": d.read_image(h["X-Worker"], int(h["X-Incarnation"]), png, how)}
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        wid, inc = str(body["worker"]), int(body["incarnation"])
        if self.path == "/register":
            d.register(wid, inc, int(body.get("pid") or 0), str(body.get("host") or ""), body.get("cdp_url"))
            return {"ok": True}
        if self.path == "/heartbeat":
            return {"stop": d.heartbeat(wid, inc, body)}
        if self.path == "/claim":
            claim = body.get("claim")
            return {"task": d.claim(wid, inc, str(claim) if claim else None), "stop": d.stopping}
        raise KeyError(self.path)

    def _finish(self) -> dict[str, Any]:
        h = self.headers
        wid, inc, tid, status = h["X-Worker"], int(h["X-Incarnation"]), h["X-Task"], h["X-Status"]
        n = int(h.get("Content-Length") or 0)
        if n > MAX_UPLOAD:
            raise ValueError(f"upload of {n} bytes is larger than {MAX_UPLOAD}")
        if n == 0:
            self.driver.finish(wid, inc, tid, status, None)
            return {"ok": True}
        incoming = self.driver.q.out_dir / INCOMING
        incoming.mkdir(exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=incoming, suffix=".tar.gz") as f:
            left = n
            while left > 0:
                chunk = self.rfile.read(min(left, 1 << 20))
                if not chunk:
                    raise ValueError("upload ended early")
                f.write(chunk)
                left -= len(chunk)
            f.flush()
            self.driver.finish(wid, inc, tid, status, Path(f.name))
        return {"ok": True}


def _busy(e: sqlite3.OperationalError) -> bool:
    text = str(e).lower()
    return "locked" in text or "busy" in text


class ChannelServer:
    """The HTTP endpoint on a daemon thread; `url` is what workers are given."""

    def __init__(self, driver: Driver, host: str, token: str) -> None:
        handler = type("Handler", (_Handler,), {"driver": driver, "token": token})
        self.httpd = ThreadingHTTPServer((host, 0), handler)
        self.httpd.daemon_threads = True
        self.httpd.block_on_close = False  # a dead worker's open connection must not hold the exit
        self.url = f"http://{host}:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="driver-channel", daemon=True)

    def __enter__(self) -> ChannelServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
