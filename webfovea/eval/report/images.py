"""The run report's images: which file a step's screenshot is, and its thumbnail.

A screenshot is read only when it is a real image inside its task folder, itself inside the
run (`record/confined.py`), and decoded only when its header's size is within `MAX_PIXELS`;
otherwise the report says why in its place. Two ways to show one (`Images`): `lazy` (the
default) links the file itself by a relative URL and lets the browser load it when it scrolls
into view, so report.html stays small and opens at once; `inline` embeds a JPEG data URI about
720 px wide, so the one file can be mailed or archived without its run folder.
"""

from __future__ import annotations

import base64
import io
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Literal
from urllib.parse import quote

from PIL import Image

from webfovea.record import StepRecord
from webfovea.record.confined import UnsafeFile, check_image

THUMB_WIDTH = 720
JPEG_QUALITY = 72
# Decoded only below this many pixels (read from the header first): a 1280-px-wide full-page
# capture 40,000 px tall is 51 MP; a forged 60000x60000 header would need 14 GB to decode.
MAX_PIXELS = 64_000_000


Thumb = tuple[str | None, str | None]  # (data URI, None) or (None, why not shown)
Images = Literal["lazy", "inline"]
IMAGES: tuple[Images, ...] = ("lazy", "inline")


def linker(base: Path) -> Callable[[Path, int], Thumb]:
    """An image source for a report written in folder `base`: the file's URL relative to it
    (the file was checked inside the run before it gets here; it is decoded, never encoded, so
    a forged size or a damaged file is refused in words as the inline thumbnail would be)."""
    root = Path(base).resolve()

    def link(path: Path, _width: int = THUMB_WIDTH) -> Thumb:
        try:
            with Image.open(path) as opened:
                w, h = opened.size
                if w * h > MAX_PIXELS:
                    return None, f"{w}×{h} px, over the report's bound of {MAX_PIXELS:,} pixels"
                opened.load()  # decoded once, not encoded: a damaged file is said, not linked
        except FileNotFoundError:
            return None, "the file is missing"
        except Image.DecompressionBombError as e:
            return None, " ".join(str(e).split())[:160]
        except Exception as e:  # whatever a damaged image raises inside Pillow: said in its place
            return None, f"unreadable image ({type(e).__name__}: {' '.join(str(e).split())[:120]})"
        return quote(os.path.relpath(Path(path).resolve(), root).replace(os.sep, "/")), None

    return link


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


def thumbnails(
    paths: list[Path], width: int, src: Callable[[Path, int], Thumb] = thumbnail
) -> dict[Path, Thumb]:
    """All sources at once: Pillow releases the GIL while decoding and encoding, so threads help."""
    workers = max(1, min(8, os.cpu_count() or 1))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return dict(zip(paths, pool.map(lambda p: src(p, width), paths), strict=True))
