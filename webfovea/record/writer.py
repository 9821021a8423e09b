"""Writing a task folder: screenshots (as sent and marked), trajectory.jsonl, result.json."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from webfovea.record.redact import redact_json, redact_text, redact_url
from webfovea.record.schema import StepRecord, TaskResult

RED = (230, 20, 20)


def mark_points(image: Image.Image, points: list[tuple[float, float]]) -> Image.Image:
    """A copy of the image with each point marked by a red dot and ring (drag: joined by a line)."""
    marked = image.copy()
    draw = ImageDraw.Draw(marked)
    if len(points) == 2:
        draw.line([points[0], points[1]], fill=RED, width=2)
    for x, y in points:
        draw.ellipse([x - 4, y - 4, x + 4, y + 4], fill=RED)
        draw.ellipse([x - 14, y - 14, x + 14, y + 14], outline=RED, width=3)
    return marked


def write_json_atomic(path: Path, data: Any) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False, default=str), encoding="utf-8")
    os.replace(tmp, path)


class TaskRecorder:
    def __init__(self, task_dir: Path) -> None:
        self.dir = task_dir
        self.dir.mkdir(parents=True, exist_ok=True)
        self.trajectory = self.dir / "trajectory.jsonl"
        self.trajectory.write_text("", encoding="utf-8")

    def save_screens(self, step: int, image: Image.Image, marks: list[tuple[float, float]]) -> tuple[str, str]:
        sent = f"step_{step:03d}.png"
        marked = f"step_{step:03d}_marked.png"
        image.save(self.dir / sent, optimize=False, compress_level=1)
        mark_points(image, marks).save(self.dir / marked, optimize=False, compress_level=1)
        return sent, marked

    def append(self, record: StepRecord) -> None:
        with self.trajectory.open("a", encoding="utf-8") as f:
            f.write(redact_step(record).model_dump_json() + "\n")

    def write_result(self, result: TaskResult) -> Path:
        path = self.dir / "result.json"
        write_json_atomic(path, redact_result(result).model_dump(mode="json"))
        return path


def redact_step(record: StepRecord) -> StepRecord:
    """What the harness wrote about the page (fingerprints, notes, rejections) without secrets.
    The model's own reply stays as it wrote it: replay needs it."""
    return record.model_copy(update={
        "feedback": redact_text(record.feedback) or "",
        "rejection": redact_text(record.rejection),
        "fingerprint_before": redact_json(record.fingerprint_before),
        "fingerprint_after": redact_json(record.fingerprint_after),
    })


def redact_result(result: TaskResult) -> TaskResult:
    """result.json never echoes credentials (an error quoting a base URL with user:pass@ or ?key=)."""
    return result.model_copy(update={
        "error": redact_text(result.error),
        "website": redact_url(result.website) if result.website else result.website,
    })
