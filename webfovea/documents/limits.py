"""What a document may cost before the harness refuses to open it.

The size of a download is already capped by `HarnessConfig.max_download_mb` (guardrails/
pagewatch.py stops a larger one in the browser); these bounds keep what one document may
expand into — pages rendered, cells shown, a zip's inflated size — so a hostile or huge file
is refused with a note instead of hanging the task.
"""

from __future__ import annotations

import io
import zipfile

MAX_PDF_PAGES = 300  # pages given a text layer and a rendered image; later ones are left out
MAX_PDF_CHARS = 2_000_000  # characters of all text layers of one PDF
MAX_PAGE_PIXELS = 25_000_000  # a page's rendered bitmap (1650 x 15,000): a taller page is shown smaller
MAX_CELLS = 3_000_000  # cells of all sheets of one workbook or table, counted after padding
MAX_MERGE_CELLS = 100_000  # cells one merged range may cover (a header across a sheet: far fewer)
MAX_TEXT_CHARS = 2_000_000  # characters of a JSON or text document shown
MAX_VIEW_BYTES = 16 * 1024 * 1024  # HTML of one view page: past it, rows or text layers are left out
ZIP_MAX_INFLATED = 300 * 1024 * 1024  # bytes all members of an XLSX/ODS may inflate to
ZIP_MAX_RATIO = 100  # inflated / compressed, over the whole archive


class Refused(Exception):
    """A document the harness will not open; the message is the reason the model is told."""

    peak_mb: float | None = None  # the sandboxed child's peak resident memory, when it said


def cells_bound(cells: int) -> None:
    """Refuse a workbook or table whose padded sheets would hold more than MAX_CELLS cells."""
    if cells > MAX_CELLS:
        raise Refused(f"it would open as {cells:,} cells (at most {MAX_CELLS:,})")


class NotADocument(Refused):
    """Not a kind the view opens (an image, an archive, HTML): it stays a plain download."""


def check_zip(data: bytes) -> None:
    """Refuse a zip bomb before any member is inflated: the members' declared sizes against an
    absolute and a ratio bound. A header that lies cannot get past them: Python's zipfile (which
    openpyxl reads through) inflates a member no further than its declared size."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            infos = z.infolist()
    except zipfile.BadZipFile as e:
        raise Refused(f"it is not a readable zip archive ({e})") from None
    inflated = sum(i.file_size for i in infos)
    packed = max(1, sum(i.compress_size for i in infos))
    if inflated > ZIP_MAX_INFLATED:
        raise Refused(
            f"it would inflate to {inflated / 1e6:,.0f} MB (at most {ZIP_MAX_INFLATED // 10**6} MB): "
            "a possible zip bomb"
        )
    if inflated > 10 * 1024 * 1024 and inflated / packed > ZIP_MAX_RATIO:
        raise Refused(
            f"it inflates {inflated / packed:,.0f} times its size (at most {ZIP_MAX_RATIO}): a possible zip bomb"
        )


def read_member(z: zipfile.ZipFile, name: str) -> bytes:
    """One member, never more than the inflation bound whatever its header says."""
    with z.open(name) as f:
        out = f.read(ZIP_MAX_INFLATED + 1)
    if len(out) > ZIP_MAX_INFLATED:
        raise Refused("a member inflates past the bound: a possible zip bomb")
    return out
