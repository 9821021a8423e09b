"""The sandboxed child that converts or renders one document: `python -m webfovea.documents.worker`.

It limits itself before it reads a byte of the file (address space, CPU seconds, no core
file), reads one job from stdin — a JSON header and the file's bytes — and writes one reply
to stdout: a JSON header (the converted document, or why it was refused, and its own peak
resident memory) and the rendered page images after it. `sandbox.py` starts it, frames both
ends and kills it at the deadline.
"""

from __future__ import annotations

import json
import resource
import struct
import sys
from typing import Any, BinaryIO

_LEN = struct.Struct(">Q")


def frame(out: BinaryIO, header: dict[str, Any], blobs: list[bytes]) -> None:
    body = json.dumps({**header, "blobs": len(blobs)}, ensure_ascii=False, separators=(",", ":")).encode()
    out.write(_LEN.pack(len(body)) + body)
    for blob in blobs:
        out.write(_LEN.pack(len(blob)))
        out.write(blob)
    out.flush()


def _limit(memory_mb: int, cpu_s: int) -> None:
    limit = memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _peak_kb() -> int:
    # Linux keeps ru_maxrss across exec: a child started by a 400 MB runner worker would report
    # the worker's size. VmHWM belongs to this process image alone.
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


def _run(job: dict[str, Any], data: bytes, out: BinaryIO) -> None:
    """Convert: one frame with the document, then one per page rendered ahead (`render`),
    where PDFium has the file open already. Render: one frame per page."""
    from webfovea.documents import codec, pdf
    from webfovea.documents.document import open_document

    if job["op"] == "convert":
        doc = open_document(data, str(job["name"]))
        frame(out, {"doc": codec.dump(doc), "peak_kb": _peak_kb()}, [])
        if doc.pdf is not None:
            # Scanned pages first when the harness will OCR them: it waits for those.
            scanned = [i for i, p in enumerate(doc.pdf.pages) if p.scanned][: int(job.get("ocr", 0))]
            ahead = range(min(int(job.get("render", 0)), len(doc.pdf.pages)))
            for i in dict.fromkeys([*scanned, *ahead]):
                frame(out, {"page": i, "peak_kb": _peak_kb()}, [doc.pdf.png(i)])
    elif job["op"] == "render":
        for i, png in pdf.render_pages(data, [int(i) for i in job["pages"]]):
            frame(out, {"page": i, "peak_kb": _peak_kb()}, [png])
    else:
        raise ValueError(f"unknown job {job['op']!r}")


def main() -> None:
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    (size,) = _LEN.unpack(stdin.read(_LEN.size))
    job = json.loads(stdin.read(size))
    _limit(int(job["memory_mb"]), int(job["cpu_s"]))
    data = stdin.read()
    from webfovea.documents import limits

    try:
        _run(job, data, stdout)
        return
    except limits.NotADocument as e:
        header: dict[str, Any] = {"not_a_document": str(e)}
    except limits.Refused as e:
        header = {"refused": str(e)}
    except MemoryError:
        header = {"memory": True}
    except Exception as e:  # a malformed file the libraries choke on
        header = {"error": f"{type(e).__name__}: {str(e)[:120]}"}
    header["peak_kb"] = _peak_kb()
    frame(stdout, header, [])


if __name__ == "__main__":
    main()
