"""OCR of a scanned page with Tesseract, when the optional program is installed."""

from __future__ import annotations

import pytest

from webfovea.documents import ocr
from webfovea.documents.document import open_document
from webfovea.proving_ground.sites import archive_files as af

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
