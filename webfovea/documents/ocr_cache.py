"""Tesseract's output for an image it has read before, by the image's bytes.

A run reads the same pixels again and again: an A/B's arms and a repeated run end on the same
evidence screenshots, the answer's lines are the same crop across tasks, a replay checks again.
Tesseract is deterministic for the same program, language data, options and image, so its TSV
is kept under the SHA-256 of the PNG with the options and `tesseract --version` in the key: in
the process (the last `MEMORY_ENTRIES`) and in a folder shared by the run's workers.

The folder: ``WEBFOVEA_OCR_CACHE`` (a path, or ``off`` for none at all), else
``$XDG_CACHE_HOME/webfovea/ocr`` (``~/.cache/webfovea/ocr``). It keeps at most `DISK_ENTRIES`
files, the oldest dropped first; an unwritable folder only costs the cache.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from collections import OrderedDict
from functools import cache
from pathlib import Path

from webfovea.user_cache import user_cache

ENV = "WEBFOVEA_OCR_CACHE"
MEMORY_ENTRIES = 64
DISK_ENTRIES = 4000
_memory: OrderedDict[str, str] = OrderedDict()
_writes = 0


def folder() -> Path | None:
    """Where the cache lives (None: off)."""
    return user_cache(ENV, "ocr")


@cache
def _version(exe: str) -> str | None:
    try:
        done = subprocess.run([exe, "--version"], capture_output=True, timeout=10, check=True)  # noqa: S603
    except (OSError, subprocess.SubprocessError):
        return None
    return (done.stdout or done.stderr).decode("utf-8", "replace").splitlines()[0].strip() or None


def key(exe: str, png: bytes, options: list[str]) -> str | None:
    """The cache key of reading `png` with `options` (None: the cache is off, or the program's
    version is unknown)."""
    if folder() is None:
        return None
    version = _version(exe)
    if version is None:
        return None
    h = hashlib.sha256(png)
    h.update("\0".join([version, *options]).encode())
    return h.hexdigest()


def get(k: str) -> str | None:
    """The output kept under a key from `key`, or None."""
    if k in _memory:
        _memory.move_to_end(k)
        return _memory[k]
    where = folder()
    try:
        text = (where / f"{k}.tsv").read_text(encoding="utf-8") if where is not None else None
    except OSError:
        return None
    if text is not None:
        _remember(k, text)
    return text


def put(k: str, text: str) -> None:
    global _writes
    where = folder()
    if where is None:
        return
    _remember(k, text)
    path = where / f"{k}.tsv"
    try:
        where.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)  # whole or absent: workers share the folder
    except OSError:
        return
    _writes += 1
    if _writes % 100 == 1:
        _prune(where)


def _remember(k: str, text: str) -> None:
    _memory[k] = text
    _memory.move_to_end(k)
    while len(_memory) > MEMORY_ENTRIES:
        _memory.popitem(last=False)


def _prune(where: Path) -> None:
    try:
        entries = sorted(where.glob("*.tsv"), key=lambda p: p.stat().st_mtime)
        for old in entries[: max(0, len(entries) - DISK_ENTRIES)]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
