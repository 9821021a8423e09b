"""Task folders in transit: a worker that does not share the driver's filesystem packs its
finished folder (or, after it died, its node-side supervisor packs what it left) as a
tar.gz; the driver unpacks it into `<out>/<task_id>/`.

Unpacking trusts nothing in the archive: the stdlib `data` filter refuses absolute paths,
`..`, links that point outside, and device files; then only top-level folders the caller
allows (tasks the sender had claimed) are moved into the output folder.
"""

from __future__ import annotations

import os
import shutil
import tarfile
import tempfile
from pathlib import Path

from webfovea.runner.queue import validate_tasks
from webfovea.task import Task

INCOMING = ".incoming"  # staging folder inside the output folder (same filesystem: renames are atomic)


def pack_folders(root: Path, names: list[str], dest: Path) -> Path | None:
    """tar.gz of `root/<name>/` for each name that exists (hidden files included). None if none."""
    present = [n for n in names if (root / n).is_dir()]
    if not present:
        return None
    with tarfile.open(dest, "w:gz", compresslevel=3) as tar:
        for name in present:
            tar.add(root / name, arcname=name)
    return dest


def leftover_names(root: Path) -> list[str]:
    """Task folders still in a worker's work dir: a live worker deletes each after upload, so
    whatever remains belongs to a task the worker did not get to hand over."""
    if not root.is_dir():
        return []
    return sorted(p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))


def pack_leftovers(root: Path) -> bytes | None:
    """The leftovers of a dead worker as tar.gz bytes (then deleted locally), or None."""
    names = leftover_names(root)
    if not names:
        return None
    with tempfile.TemporaryDirectory(prefix="webfovea-leftovers-") as tmp:
        packed = pack_folders(root, names, Path(tmp) / "left.tar.gz")
        data = packed.read_bytes() if packed else None
    for name in names:
        shutil.rmtree(root / name, ignore_errors=True)
    return data


def _safe_name(name: str) -> bool:
    try:
        validate_tasks([Task(task_id=name, task="-", website="about:blank")])
    except (ValueError, RuntimeError):  # QueueError is a RuntimeError
        return False
    return True


def unpack_into(archive: Path, out_dir: Path, allowed: set[str]) -> list[str]:
    """Extract `archive` and move its allowed top-level task folders into `out_dir`.

    Returns the task ids placed. A folder already present in `out_dir` is merged file by
    file (the archive wins): the driver may have written into it first (e.g. a salvage note).
    """
    staging_root = out_dir / INCOMING
    staging_root.mkdir(exist_ok=True)
    placed: list[str] = []
    with tempfile.TemporaryDirectory(dir=staging_root) as tmp:
        stage = Path(tmp)
        with tarfile.open(archive, "r:*") as tar:
            tar.extractall(stage, filter="data")
        for entry in sorted(stage.iterdir()):
            if (
                not entry.is_dir()
                or entry.is_symlink()
                or entry.name not in allowed
                or not _safe_name(entry.name)
            ):
                continue
            target = out_dir / entry.name
            if not target.exists():
                os.replace(entry, target)
            else:
                _merge(entry, target)
            placed.append(entry.name)
    return placed


def _merge(src: Path, dst: Path) -> None:
    for item in list(src.rglob("*")):
        rel = item.relative_to(src)
        if item.is_dir():
            (dst / rel).mkdir(parents=True, exist_ok=True)
        else:
            (dst / rel).parent.mkdir(parents=True, exist_ok=True)
            os.replace(item, dst / rel)
