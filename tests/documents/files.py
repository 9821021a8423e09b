"""Documents for the tests, made here: PDFs with fpdf2, workbooks with openpyxl, a zip bomb."""

from __future__ import annotations

import io
import zipfile


def pdf(pages: int = 3, *, padding: int = 0) -> bytes:
    from fpdf import FPDF

    doc = FPDF(format="A4")
    doc.set_font("helvetica", size=11)
    for n in range(1, pages + 1):
        doc.add_page()
        doc.text(20, 30, f"Quarterly note, section {n}")
        if n == pages:
            doc.text(20, 50, "Net revenue")
            doc.text(100, 50, "1,234.5")
            doc.text(140, 50, "1,100.2")
            doc.text(20, 60, "Needle phrase on the last page")
    out = bytes(doc.output())
    return out + b"%" + b"x" * padding + b"\n" if padding else out


def xlsx_merged() -> bytes:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Prices"
    ws.append(["Table 1. Prices"])
    ws.append(["Region", "Index", None, "Change (%)", None])
    ws.append([None, "2023", "2024", "2023", "2024"])
    ws.merge_cells("A2:A3")
    ws.merge_cells("B2:C2")
    ws.merge_cells("D2:E2")
    ws.append(["North", 101.5, 104.2, "2.1", "2.7 p"])
    wb.create_sheet("Wages").append(["Sector", "Wage"])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def zip_bomb() -> bytes:
    """An XLSX-shaped zip whose one member inflates to 50 MB of zeros (about 50 KB packed)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("xl/workbook.xml", "<workbook/>")
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as f:
            block = b"\0" * (1 << 20)
            for _ in range(50):
                f.write(block)
    return buf.getvalue()
