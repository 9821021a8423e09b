"""Writing a task folder as the task runs: screenshots (as sent and marked), trajectory.jsonl,
result.json. The file formats themselves live in record/files.py.

Screenshots are de-duplicated by content: an image whose bytes a file of this folder already
holds (the marked copy of a step with nothing to mark, a page that did not change between two
steps) is a hard link to that file, so every name a reader expects exists and the folder holds
the bytes once (docs/results/run-size.md). Every file is written to a fresh inode, never into an
existing one, so rewriting a name never changes its twins. A filesystem without hard links gets
a copy.
"""

from __future__ import annotations

import hashlib
import io
import os
from pathlib import Path

from PIL import Image, ImageDraw

from webfovea.record.atomic import encodable, scrubbed_text
from webfovea.record.files import append_step, write_result
from webfovea.record.schema import TRAJECTORY_JSONL, StepRecord, TaskResult

RED = (230, 20, 20)


def mark_points(
    image: Image.Image,
    points: list[tuple[float, float]],
    region: tuple[float, float, float, float] | None = None,
) -> Image.Image:
    """A copy of the image with each point marked by a red dot and ring (drag: joined by a line),
    and an attached region (zoom's) outlined in red."""
    marked = image.copy()
    draw = ImageDraw.Draw(marked)
    if region is not None:
        draw.rectangle(region, outline=RED, width=2)
    if len(points) == 2:
        draw.line([points[0], points[1]], fill=RED, width=2)
    for x, y in points:
        draw.ellipse([x - 4, y - 4, x + 4, y + 4], fill=RED)
        draw.ellipse([x - 14, y - 14, x + 14, y + 14], outline=RED, width=3)
    return marked


class TaskRecorder:
    def __init__(self, task_dir: Path) -> None:
        self.dir = Path(task_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.trajectory = self.dir / TRAJECTORY_JSONL
        self.trajectory.write_text("", encoding="utf-8")  # a task runs once: start a fresh trajectory
        self._by_digest: dict[str, str] = {}  # SHA-256 of an image's bytes -> the file holding them
        self.linked = 0  # images written as a link to a file with the same bytes

    def _write_image(self, name: str, data: bytes) -> None:
        """`data` as `name`: a hard link to an earlier file with the same bytes, else a new file."""
        digest = hashlib.sha256(data).hexdigest()
        target = self.dir / name
        target.unlink(missing_ok=True)  # a fresh inode: an old twin of this name keeps its bytes
        first = self._by_digest.get(digest)
        if first is not None and first != name:
            try:
                os.link(self.dir / first, target)
                self.linked += 1
                return
            except OSError:
                pass  # no hard links here (or the first is gone): a copy
        target.write_bytes(data)
        self._by_digest[digest] = name

    @staticmethod
    def _encoded(image: Image.Image) -> bytes:
        out = io.BytesIO()
        image.save(out, format="PNG", optimize=False, compress_level=1)
        return out.getvalue()

    def save_screens(
        self,
        step: int,
        image: Image.Image,
        marks: list[tuple[float, float]],
        region: tuple[float, float, float, float] | None = None,
        png: bytes | None = None,
    ) -> tuple[str, str]:
        """The step's screenshot as sent and marked. `png`: the image already encoded (the
        capture's own PNG, observation/capture.py `Shot.png`), written as it is."""
        sent = f"step_{step:03d}.png"
        marked = f"step_{step:03d}_marked.png"
        if png is None:
            png = self._encoded(image)
        self._write_image(sent, png)
        if marks or region is not None:
            self._write_image(marked, self._encoded(mark_points(image, marks, region)))
        else:  # nothing to mark (a key, a wait, an answer): the same image, not encoded again
            self._write_image(marked, png)
        return sent, marked

    def save_image(self, step: int, kind: str, image: Image.Image) -> str:
        """An image an action attached at `step` (zoom's crop: step_NNN_zoom.png)."""
        name = f"step_{step:03d}_{kind}.png"
        self._write_image(name, self._encoded(image))
        return name

    def save_snapshot(self, step: int, text: str) -> str:
        name = f"step_{step:03d}.snapshot.yml"
        (self.dir / name).write_text(encodable(scrubbed_text(text))[0] + "\n", encoding="utf-8")
        return name

    def append(self, record: StepRecord) -> None:
        append_step(self.dir, record)

    def write_result(self, result: TaskResult) -> Path:
        return write_result(self.dir, result)
