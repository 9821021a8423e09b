"""OCR of a scanned page with Tesseract, when the optional program is installed."""

from __future__ import annotations

import os
import shutil

import pytest

from webfovea.documents import ocr, ocr_cache
from webfovea.documents.document import open_document
from webfovea_proving_ground.sites import archive_files as af

pytestmark = pytest.mark.skipif(
    not ocr.available(), reason="tesseract (Debian tesseract-ocr) is not installed"
)


def test_a_scanned_page_gets_a_text_layer_marked_as_ocr():
    r = af.report(0, "northwind")
    doc = open_document(af.report_pdf(0, "northwind"), "northwind-2024.pdf", ocr=True)
    assert doc.scanned() == [] and doc.ocr_done() == [10]
    assert f"Employees at year end: {r.employees}" in doc.pdf.pages[9].text  # type: ignore[union-attr]
    assert "recognised by OCR" in doc.html()


def test_without_the_switch_the_scanned_page_stays_image_only():
    doc = open_document(af.report_pdf(0, "northwind"), "northwind-2024.pdf")
    assert doc.scanned() == [10] and "Scanned page: no text layer" in doc.html()


def _shim(tmp_path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN202 - the file the shim writes
    """A `tesseract` first on PATH that notes the thread limit it was given, then runs the real one."""
    seen = tmp_path / "omp"
    shim = tmp_path / "bin" / "tesseract"
    shim.parent.mkdir()
    shim.write_text(
        f'#!/bin/sh\necho "${{OMP_THREAD_LIMIT:-unset}}" > {seen}\nexec {shutil.which("tesseract")} "$@"\n'
    )
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{shim.parent}{os.pathsep}{os.environ['PATH']}")
    return seen


def test_tesseract_runs_on_one_thread_unless_the_user_says_otherwise(tmp_path, monkeypatch):
    # OpenMP's default (a thread per core) made each screenshot cost ~8x more (docs/results/ocr.md).
    seen = _shim(tmp_path, monkeypatch)
    monkeypatch.setenv(ocr_cache.ENV, "off")  # the program must really run each time
    monkeypatch.delenv("OMP_THREAD_LIMIT", raising=False)
    doc = open_document(af.report_pdf(0, "northwind"), "northwind-2024.pdf", ocr=True)
    assert doc.ocr_done() == [10] and seen.read_text().strip() == "1"
    monkeypatch.setenv("OMP_THREAD_LIMIT", "2")
    assert ocr.recognise(doc.pdf.png(9), 1.0) and seen.read_text().strip() == "2"  # type: ignore[union-attr]
