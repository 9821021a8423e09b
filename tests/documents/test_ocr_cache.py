"""The OCR cache: an image Tesseract has read is not read again, in this process or another
one sharing the folder; `off` reads every time; a folder that cannot be written only costs the
cache; the folder stays bounded."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from webfovea.documents import ocr, ocr_cache
from webfovea_proving_ground.sites import archive_files as af

pytestmark = pytest.mark.skipif(
    not ocr.available(), reason="tesseract (Debian tesseract-ocr) is not installed"
)


@pytest.fixture
def runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `tesseract` first on PATH that adds a line to the file it returns each time it runs."""
    count = tmp_path / "runs"
    count.write_text("")
    shim = tmp_path / "bin" / "tesseract"
    shim.parent.mkdir()
    real = shutil.which("tesseract")
    shim.write_text(
        f'#!/bin/sh\ncase "$1" in --version) ;; *) echo run >> {count} ;; esac\nexec {real} "$@"\n'
    )
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(ocr_cache, "_memory", type(ocr_cache._memory)())
    return count


def _page() -> bytes:
    from webfovea.documents.document import open_document

    doc = open_document(af.report_pdf(0, "northwind"), "northwind-2024.pdf")
    return doc.pdf.png(9)  # type: ignore[union-attr] - the scanned page


def _count(runs: Path) -> int:
    return len(runs.read_text().split())


def test_a_page_read_once_is_not_read_again_here_or_in_another_process(runs, tmp_path, monkeypatch):
    monkeypatch.setenv(ocr_cache.ENV, str(tmp_path / "cache"))
    png = _page()
    first = ocr.recognise(png, 2.0)
    assert first and _count(runs) == 1
    assert ocr.recognise(png, 2.0) == first and _count(runs) == 1
    assert len(list((tmp_path / "cache").glob("*.tsv"))) == 1
    # Another process: nothing in memory, the folder holds it.
    monkeypatch.setattr(ocr_cache, "_memory", type(ocr_cache._memory)())
    assert ocr.recognise(png, 2.0) == first and _count(runs) == 1
    # Other options or other pixels: read.
    assert ocr.recognise(png, 2.0, psm=11) is not None and _count(runs) == 2
    broken = png[: len(png) // 2]
    assert ocr.recognise(broken, 2.0) is None and _count(runs) == 3
    assert ocr.recognise(broken, 2.0) is None and _count(runs) == 4  # a failure is not kept


def test_off_reads_every_time_and_writes_nothing(runs, tmp_path, monkeypatch):
    monkeypatch.setenv(ocr_cache.ENV, "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    png = _page()
    assert ocr.recognise(png, 2.0) == ocr.recognise(png, 2.0) and _count(runs) == 2
    assert not (tmp_path / "xdg").exists()


def test_a_folder_that_cannot_be_written_only_costs_the_cache(runs, tmp_path, monkeypatch):
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    monkeypatch.setenv(ocr_cache.ENV, str(blocked / "cache"))
    png = _page()
    first = ocr.recognise(png, 2.0)
    assert first and _count(runs) == 1
    assert ocr.recognise(png, 2.0) == first  # the process still remembers it


def test_the_folder_keeps_the_newest_entries(tmp_path, monkeypatch):
    monkeypatch.setenv(ocr_cache.ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(ocr_cache, "DISK_ENTRIES", 5)
    monkeypatch.setattr(ocr_cache, "_writes", 0)
    for i in range(12):
        ocr_cache.put(f"{i:04d}", "tsv")
        os.utime(tmp_path / "cache" / f"{i:04d}.tsv", (1000 + i, 1000 + i))
    ocr_cache.put("last", "tsv")
    monkeypatch.setattr(ocr_cache, "_writes", 100)  # it prunes on every 100th write
    ocr_cache.put("prune", "tsv")
    left = sorted(p.stem for p in (tmp_path / "cache").glob("*.tsv"))
    assert len(left) == 5 and "0000" not in left and {"last", "prune"} <= set(left)


def test_a_screenshot_checked_again_is_neither_read_nor_encoded_again(runs, tmp_path, monkeypatch):
    """The answer check sends a screenshot to be enlarged and read (encoding it costs ~0.1 s): a
    screenshot read before is found by its pixels, not by a PNG of them, so neither the reading
    nor the encoding happens again."""
    from PIL import Image, ImageDraw

    from webfovea.guardrails import ocr_check

    monkeypatch.setenv(ocr_cache.ENV, str(tmp_path / "cache"))
    made: list[tuple[int, int]] = []
    real = ocr_check._png
    monkeypatch.setattr(ocr_check, "_png", lambda im: made.append(im.size) or real(im))
    shot = Image.new("RGB", (720, 200), "white")
    ImageDraw.Draw(shot).text((20, 80), "Total 4,217", fill="black", font_size=40)
    first = ocr_check.recognise_text(shot)
    assert first is not None and "4,217" in first and (_count(runs), len(made)) == (1, 1)
    assert ocr_check.recognise_text(shot.copy()) == first and (_count(runs), len(made)) == (1, 1)
    monkeypatch.setattr(ocr_cache, "_memory", type(ocr_cache._memory)())  # another process
    assert ocr_check.recognise_text(shot) == first and (_count(runs), len(made)) == (1, 1)
    # The same pixels at another enlargement are another reading.
    assert ocr_check.recognise_text(shot, 1) is not None and (_count(runs), len(made)) == (2, 2)
    ImageDraw.Draw(shot).text((20, 150), "Total 9,001", fill="black", font_size=40)
    second = ocr_check.recognise_text(shot)  # other pixels: encoded and read
    assert second is not None and "9,001" in second and (_count(runs), len(made)) == (3, 3)
