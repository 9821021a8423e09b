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
    """One job's reply: its JSON header, its blobs, and the child's peak resident memory."""

    header: dict[str, Any]
    blobs: list[bytes]
    peak_mb: float


async def convert(
    data: bytes, name: str, *, timeout: float = TIMEOUT_S, render: int = 0
) -> tuple[Document, float]:
    """The document `data` converted in a child, with the first `render` pages of a PDF
    rendered; its peak memory in MB. Raises `limits.Refused` (or `NotADocument`) with the
    sentence the model is told."""
    ran = await run({"op": "convert", "name": name, "render": render}, data, timeout=timeout)
    if "not_a_document" in ran.header:
        raise limits.NotADocument(str(ran.header["not_a_document"]))
    doc = codec.load(ran.header.get("doc"), data)
    if doc.pdf is not None:
        for i, png in zip(ran.header.get("pages", []), ran.blobs, strict=False):
            if isinstance(i, int) and 0 <= i < len(doc.pdf.pages):
                doc.pdf.keep_png(i, png)
    return doc, ran.peak_mb


async def render(data: bytes, pages: list[int], *, timeout: float = TIMEOUT_S) -> dict[int, bytes]:
    """PDF pages (0-based) as PNGs, rendered in a child."""
    ran = await run({"op": "render", "pages": pages}, data, timeout=timeout)
    done = [int(i) for i in ran.header.get("pages", [])]
    if len(done) != len(ran.blobs):
        raise limits.Refused("its rendering sent a malformed reply")
    return dict(zip(done, ran.blobs, strict=True))


async def run(job: dict[str, Any], data: bytes, *, timeout: float = TIMEOUT_S) -> Ran:
    """Run one job in a fresh child, killed at `timeout`; a refusal is raised as `Refused`."""
    job = {**job, "memory_mb": MEMORY_MB, "cpu_s": int(timeout) + 1}
    head = json.dumps(job).encode()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "webfovea.documents.worker",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        reply = await asyncio.wait_for(_exchange(proc, _LEN.pack(len(head)) + head + data), timeout)
    except TimeoutError:
        raise limits.Refused(f"opening it took longer than {timeout:g} s") from None
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()
    return _parse(reply, proc.returncode)


async def _exchange(proc: asyncio.subprocess.Process, payload: bytes) -> bytes:
    assert proc.stdin is not None and proc.stdout is not None

    async def feed() -> None:
        assert proc.stdin is not None
        try:
            proc.stdin.write(payload)
            await proc.stdin.drain()
            proc.stdin.close()
        except (BrokenPipeError, ConnectionResetError):
            pass  # it died reading: its exit status says why

    feeding = asyncio.ensure_future(feed())
    chunks, size = [], 0
    try:
        while chunk := await proc.stdout.read(1 << 20):
            size += len(chunk)
            if size > MAX_REPLY:
                raise limits.Refused(f"its view would pass {MAX_REPLY // 2**20} MB")
            chunks.append(chunk)
        await feeding
    finally:
        feeding.cancel()
    await proc.wait()
    return b"".join(chunks)


def _parse(reply: bytes, status: int | None) -> Ran:
    died = limits.Refused(
        f"opening it needed more than {MEMORY_MB:,} MB of memory or crashed the reader"
        + (f" (signal {-status})" if status is not None and status < 0 else "")
    )
    if len(reply) < _LEN.size:
        raise died
    (size,) = _LEN.unpack_from(reply)
    try:
        header = json.loads(reply[_LEN.size : _LEN.size + size])
    except ValueError:
        raise died from None
    if not isinstance(header, dict):
        raise died
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
    blobs, at = [], _LEN.size + size
    while at + _LEN.size <= len(reply):
        (n,) = _LEN.unpack_from(reply, at)
        blobs.append(reply[at + _LEN.size : at + _LEN.size + n])
        at += _LEN.size + n
    return Ran(header, blobs, peak)
