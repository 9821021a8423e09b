"""The run report's images: which file a step's screenshot is, and its thumbnail.

A screenshot is read only when it is a real image inside its task folder, itself inside the
run (`record/confined.py`), and decoded only when its header's size is within `MAX_PIXELS`;
otherwise the report says why in its place. Thumbnails are JPEG data URIs about 720 px wide.
"""

from __future__ import annotations

import base64
import io
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from PIL import Image

from webfovea.record import StepRecord
from webfovea.record.confined import UnsafeFile, check_image

THUMB_WIDTH = 720
JPEG_QUALITY = 72
# Decoded only below this many pixels (read from the header first): a 1280-px-wide full-page
# capture 40,000 px tall is 51 MP; a forged 60000x60000 header would need 14 GB to decode.
MAX_PIXELS = 64_000_000


Thumb = tuple[str | None, str | None]  # (data URI, None) or (None, why not shown)


def thumbnail(path: Path, width: int = THUMB_WIDTH) -> Thumb:
    """(JPEG data URI of the image scaled to `width`, None), or (None, why it is not shown).

    The header is read first: an image over `MAX_PIXELS` is never decoded (Pillow's own
    decompression-bomb check stays on beneath it)."""
    try:
        with Image.open(path) as opened:
            w, h = opened.size
            if w * h > MAX_PIXELS:
                return None, f"{w}×{h} px, over the report's bound of {MAX_PIXELS:,} pixels"
            im = opened.convert("RGB")
            if im.width > width:
                im = im.resize(
                    (width, max(1, round(im.height * width / im.width))), Image.Resampling.BILINEAR
                )
            buf = io.BytesIO()
            im.save(buf, "JPEG", quality=JPEG_QUALITY)  # optimize=True: -3% size, +60% time
    except FileNotFoundError:
        return None, "the file is missing"
    except Image.DecompressionBombError as e:
        return None, " ".join(str(e).split())[:160]
    except Exception as e:  # whatever a damaged image raises inside Pillow: the report goes on
        return None, f"unreadable image ({type(e).__name__}: {' '.join(str(e).split())[:120]})"
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode("ascii"), None


def step_image(step: StepRecord, task_dir: Path, run_dir: Path) -> Path | str | None:
    """The step's screenshot when it is a real image inside the task folder, itself inside the
    run; else why not (a trajectory naming an absolute path, `../`, a link out, a FIFO, a text
    file named .png); None when the step names none."""
    name = step.screenshot_marked or step.screenshot
    if not name:
        return None
    if not task_dir.resolve().is_relative_to(run_dir.resolve()):
        return "the task folder is a link out of the run folder; not read"
    try:
        return check_image(task_dir, name)
    except FileNotFoundError:
        return "the file is missing"
    except (OSError, UnsafeFile) as e:
        return str(e)


def thumbnails(paths: list[Path], width: int) -> dict[Path, Thumb]:
    """All thumbnails at once: Pillow releases the GIL while decoding and encoding, so threads help."""
    workers = max(1, min(8, os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return dict(zip(paths, pool.map(lambda p: thumbnail(p, width), paths), strict=True))
