"""Reading a run or task folder someone else wrote, without reading anything outside it.

A folder handed to the judge or the report may be hostile: `trajectory/0.png` a symlink to a
private file, `capture.json` a FIFO that never ends, a "screenshot" that is a text file. Every
file those readers take from a folder goes through here: the path is resolved (symlinks
followed) and must stay inside the folder's own resolved path, must be a regular file no larger
than a bound, and an image must start with the magic bytes its name claims. A link that stays
inside the folder is fine. Standard library only, like the rest of `record/`.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_IMAGE_BYTES",
    "UnsafeFile",
    "check_image",
    "confined",
    "image_kind",
    "read_bytes",
    "read_image",
    "read_text",
]

MAX_FILE_BYTES = 512 * 1024 * 1024  # a capture.json of a long run is tens of MB
MAX_IMAGE_BYTES = 64 * 1024 * 1024  # a full-page PNG is a few MB

_MAGIC = {"png": b"\x89PNG\r\n\x1a\n", "jpeg": b"\xff\xd8\xff"}
_KIND_OF_SUFFIX = {".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg"}


class UnsafeFile(ValueError):
    """A file that is not read: outside its folder, not a regular file, too large, or not
    the image its name claims. The message names the file and why, in one line."""


def confined(root: Path, path: Path | str) -> Path:
    """`path` (relative to `root`, or absolute) resolved, when it is a regular file inside
    `root`'s resolved path. FileNotFoundError when it does not exist; UnsafeFile otherwise."""
    root_real = Path(root).resolve()
    candidate = _joined(Path(root), Path(path))
    name = candidate.name or str(path)
    try:
        real = candidate.resolve(strict=True)
    except FileNotFoundError:
        raise
    except (OSError, RuntimeError) as e:  # a symlink loop (RuntimeError before Python 3.13)
        raise UnsafeFile(f"{name}: cannot be resolved ({type(e).__name__})") from None
    if not real.is_relative_to(root_real):
        raise UnsafeFile(f"{name}: a link out of its folder; not read")
    mode = real.stat().st_mode
    if not stat.S_ISREG(mode):
        raise UnsafeFile(f"{name}: not a regular file; not read")
    return real


def _joined(root: Path, path: Path) -> Path:
    """`path` as a path to open: absolute as it is; relative to `root`, unless it already
    begins with a relative `root` (the caller built it as `root / name`, so it is relative to
    the working directory). Joining such a path to `root` again named `runs/r/runs/r/x.png`,
    a file that never exists, and every reader skipped the screenshots of a run given by a
    relative path without a word."""
    if path.is_absolute():
        return path
    if not root.is_absolute() and path.parts[: len(root.parts)] == root.parts:
        return path
    return root / path


def read_bytes(root: Path, path: Path | str, *, limit: int = MAX_FILE_BYTES) -> bytes:
    real = confined(root, path)
    # O_NOFOLLOW: the last component cannot have been swapped for a link since it was resolved.
    fd = os.open(real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            raise UnsafeFile(f"{real.name}: not a regular file; not read")
        data = f.read(limit + 1)
    if len(data) > limit:
        raise UnsafeFile(f"{real.name}: larger than {limit} bytes; not read")
    return data


def read_text(root: Path, path: Path | str, *, limit: int = MAX_FILE_BYTES, errors: str = "strict") -> str:
    return read_bytes(root, path, limit=limit).decode("utf-8", errors=errors)


def image_kind(data: bytes) -> str | None:
    """ "png" or "jpeg" by the file's magic bytes; None for anything else."""
    return next((kind for kind, magic in _MAGIC.items() if data.startswith(magic)), None)


def _check_kind(path: Path | str, head: bytes) -> None:
    claimed = _KIND_OF_SUFFIX.get(Path(path).suffix.lower(), "png")
    if image_kind(head) != claimed:
        raise UnsafeFile(f"{Path(path).name}: not a {claimed.upper()} image; not read")


def read_image(root: Path, path: Path | str, *, limit: int = MAX_IMAGE_BYTES) -> bytes:
    """An image file's bytes, when its content is the kind its suffix names (PNG or JPEG)."""
    data = read_bytes(root, path, limit=limit)
    _check_kind(path, data)
    return data


def check_image(root: Path, path: Path | str, *, limit: int = MAX_IMAGE_BYTES) -> Path:
    """`path` resolved, when `read_image` would read it: checked by its size and first bytes
    only, so listing a folder's screenshots does not read them all."""
    real = confined(root, path)
    if real.stat().st_size > limit:
        raise UnsafeFile(f"{real.name}: larger than {limit} bytes; not read")
    with real.open("rb") as f:
        _check_kind(path, f.read(16))
    return real
