"""Documents are converted and rendered in a child process the harness can kill.

A hostile file of a few hundred bytes can ask a reader for gigabytes (a page metres tall, a
merged range over a million cells) or for minutes of CPU. The bounds of `limits.py` refuse
the known shapes; this is the wall behind them: each job runs in a fresh child
(`worker.py`) that limits its own address space and CPU time before it reads the file, and is
killed at the deadline, so nothing keeps running after the harness gave up on it (a thread
cannot be stopped; a process can). Its reply is JSON (`codec.py`), never a pickle.

A fresh interpreter costs about 0.1 s (docs/documents.md "The sandbox"); no fork of the
harness's own process, whose threads and event loop a fork would copy half-alive.
"""

from __future__ import annotations

import asyncio
import json
import struct
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from webfovea.documents import codec, limits
from webfovea.documents.document import Document

MEMORY_MB = 1024  # the child's address space (Python and the readers take about 250 MB of it)
TIMEOUT_S = 30.0  # wall clock of one job; the child's CPU limit is the same, rounded up
MAX_REPLY = 512 * 1024 * 1024  # bytes a child may send back
_LEN = struct.Struct(">Q")


@dataclass
class Ran:
    """One job's first reply: its JSON header, its blobs, and the child's peak resident memory."""

    header: dict[str, Any]
    blobs: list[bytes]
    peak_mb: float


class Job:
    """One child and the frames it sends (a JSON header and its blobs each), killed by `close`."""

    def __init__(self, proc: asyncio.subprocess.Process, feeding: asyncio.Future[None]) -> None:
        self._proc, self._feeding, self._read = proc, feeding, 0

    @classmethod
    async def start(cls, job: dict[str, Any], data: bytes, cpu_s: float) -> Job:
        job = {**job, "memory_mb": MEMORY_MB, "cpu_s": int(cpu_s) + 1}
        head = json.dumps(job).encode()
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "webfovea.documents.worker",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
        )
        return cls(proc, asyncio.ensure_future(_feed(proc, _LEN.pack(len(head)) + head + data)))

    async def frame(self, timeout: float) -> Ran | None:
        """The next frame (None: the child ended); `Refused` past `timeout`, or when the frame
        says the file was refused, or when the child died without a word."""
        try:
            got = await asyncio.wait_for(self._frame(), timeout)
        except TimeoutError:
            await self.close()
            raise limits.Refused(f"opening it took longer than {timeout:g} s") from None
        if got is None:
            return None
        header, blobs = got
        return Ran(header, blobs, _check(header))

    async def _frame(self) -> tuple[dict[str, Any], list[bytes]] | None:
        out = self._proc.stdout
        assert out is not None
        try:
            header = json.loads(await self._chunk(out))
            if not isinstance(header, dict):
                raise ValueError("not an object")
            blobs = [await self._chunk(out) for _ in range(int(header.get("blobs", 0)))]
        except asyncio.IncompleteReadError as e:
            if e.partial:
                raise self._died() from None
            return None
        except ValueError:
            raise self._died() from None
        return header, blobs

    async def _chunk(self, out: asyncio.StreamReader) -> bytes:
        (n,) = _LEN.unpack(await out.readexactly(_LEN.size))
        self._read += n
        if self._read > MAX_REPLY:
            raise limits.Refused(f"its view would pass {MAX_REPLY // 2**20} MB")
        return await out.readexactly(n)

    def _died(self) -> limits.Refused:
        status = self._proc.returncode
        return limits.Refused(
            f"opening it needed more than {MEMORY_MB:,} MB of memory or crashed the reader"
            + (f" (signal {-status})" if status is not None and status < 0 else "")
        )

    async def first(self, timeout: float) -> Ran:
        ran = await self.frame(timeout)
        if ran is None:
            await self._proc.wait()
            raise self._died()
        return ran

    async def close(self) -> None:
        self._feeding.cancel()
        if self._proc.returncode is None:
            self._proc.kill()
        await self._proc.wait()


async def convert(data: bytes, name: str, *, timeout: float = TIMEOUT_S) -> tuple[Document, float]:
    """The document `data` converted in a child; its peak memory in MB. Raises `limits.Refused`
    (or `NotADocument`) with the sentence the model is told."""
    doc, peak, job = await convert_ahead(data, name, timeout=timeout)
    if job is not None:
        await job.close()
    return doc, peak


async def convert_ahead(
    data: bytes, name: str, *, timeout: float = TIMEOUT_S, render: int = 0, ocr: int = 0
) -> tuple[Document, float, Job | None]:
    """`convert`, and the child kept to render pages of a PDF ahead — its first `ocr` scanned
    pages, then its first `render` pages —: read them with `Job.frame` or `pages_of(job)`,
    which closes it."""
    job = await Job.start({"op": "convert", "name": name, "render": render, "ocr": ocr}, data, 2 * timeout)
    try:
        ran = await job.first(timeout)
        if "not_a_document" in ran.header:
            raise limits.NotADocument(str(ran.header["not_a_document"]))
        doc = codec.load(ran.header.get("doc"), data)
    except BaseException:
        await job.close()
        raise
    if doc.pdf is None or render + ocr <= 0:
        await job.close()
        return doc, ran.peak_mb, None
    return doc, ran.peak_mb, job


async def pages_of(job: Job, timeout: float = TIMEOUT_S) -> AsyncIterator[tuple[int, bytes]]:
    """The pages a job sends, as they come, until it ends, fails or passes `timeout`."""
    deadline = time.monotonic() + timeout
    try:
        while (ran := await job.frame(max(0.01, deadline - time.monotonic()))) is not None:
            page = ran.header.get("page")
            if isinstance(page, int) and len(ran.blobs) == 1:
                yield page, ran.blobs[0]
    finally:
        await job.close()


async def render(data: bytes, pages: list[int], *, timeout: float = TIMEOUT_S) -> dict[int, bytes]:
    """PDF pages (0-based) as PNGs, rendered in a child; the pages done before a failure."""
    job = await Job.start({"op": "render", "pages": pages}, data, timeout)
    out: dict[int, bytes] = {}
    try:
        async for i, png in pages_of(job, timeout):
            out[i] = png
    except limits.Refused:
        if not out:
            raise
    return out


async def run(job: dict[str, Any], data: bytes, *, timeout: float = TIMEOUT_S) -> Ran:
    """One job's first frame (the tests measure a child with it)."""
    child = await Job.start(job, data, timeout)
    try:
        return await child.first(timeout)
    finally:
        await child.close()


async def _feed(proc: asyncio.subprocess.Process, payload: bytes) -> None:
    assert proc.stdin is not None
    try:
        proc.stdin.write(payload)
        await proc.stdin.drain()
        proc.stdin.close()
    except (BrokenPipeError, ConnectionResetError):
        pass  # it died reading: its exit status says why


def _check(header: dict[str, Any]) -> float:
    """The child's peak memory in MB from a frame; `Refused` when the frame is a refusal."""
    peak = round(float(header.get("peak_kb", 0)) / 1024, 1)
    why = None
    if header.get("memory"):
        why = f"opening it needed more than {MEMORY_MB:,} MB of memory"
    elif "refused" in header:
        why = str(header["refused"])
    elif "error" in header:
        why = f"it could not be read ({str(header['error'])[:160]})"
    if why is not None:
        refused = limits.Refused(why)
        refused.peak_mb = peak
        raise refused
    return peak
