"""Tiny documents that once exhausted the machine or froze the task."""

from __future__ import annotations

import io
import re
import zipfile
import zlib

_ODS_MIME = "application/vnd.oasis.opendocument.spreadsheet"
_NS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
)


def ods_huge_span() -> bytes:
    """Under 1 KB: a cell spanning 50,000 columns and a million rows above 300 short rows (its
    view once listed every covered cell of a page of rows, gigabytes, on the event loop)."""
    content = (
        f'<?xml version="1.0"?><office:document-content {_NS}><office:body><office:spreadsheet>'
        '<table:table table:name="Sheet1"><table:table-row>'
        "<table:table-cell><text:p>Region</text:p></table:table-cell>"
        "<table:table-cell><text:p>Value</text:p></table:table-cell></table:table-row>"
        '<table:table-row><table:table-cell table:number-columns-spanned="50000" '
        'table:number-rows-spanned="1000000"><text:p>North</text:p></table:table-cell>'
        "<table:table-cell><text:p>1</text:p></table:table-cell></table:table-row>"
        '<table:table-row table:number-rows-repeated="300"><table:table-cell><text:p>y</text:p>'
        "</table:table-cell></table:table-row>"
        "</table:table></office:spreadsheet></office:body></office:document-content>"
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), _ODS_MIME)
        z.writestr("content.xml", content)
    return buf.getvalue()


def ods_repeated() -> bytes:
    """About 1 KB: 1,000 filled cells repeated 1,000 times in a row repeated 1,000 times."""
    row = '<table:table-cell table:number-columns-repeated="1000"><text:p>x</text:p></table:table-cell>'
    content = (
        f'<?xml version="1.0"?><office:document-content {_NS}><office:body><office:spreadsheet>'
        '<table:table table:name="S"><table:table-row table:number-rows-repeated="1000">'
        + row * 10
        + "</table:table-row></table:table></office:spreadsheet></office:body></office:document-content>"
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), _ODS_MIME)
        z.writestr("content.xml", content)
    return buf.getvalue()


def xlsx_huge_merge(ref: str = "A3:CV100000") -> bytes:
    """About 5 KB: a small workbook whose sheet declares one merged range over 10 million cells
    (openpyxl makes an object for each covered cell while loading: 915 MB once)."""
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.append(["Region", "Value"])
    ws.append(["North", 1])
    buf = io.BytesIO()
    wb.save(buf)
    src = zipfile.ZipFile(io.BytesIO(buf.getvalue()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            body = src.read(info)
            if info.filename == "xl/worksheets/sheet1.xml":
                merge = f'<mergeCells count="1"><mergeCell ref="{ref}"/></mergeCells>'.encode()
                body = re.sub(rb"(</sheetData>)", rb"\1" + merge, body)
            z.writestr(info.filename, body)
    return out.getvalue()


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF of these objects (1-based, the first the catalog) with a correct xref table."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def pdf_tall_page() -> bytes:
    """About 330 bytes: one empty page 10 pt wide and 14,400 pt tall. At 1,100 CSS px wide and
    1.5x that is 1,650 x 2.4 million pixels, 15 GB of bitmap."""
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 14400] >>",
        ]
    )


def pdf_long_line(chars: int = 60_000) -> bytes:
    """One line of `chars` characters a point apart (strings of 20,000: PDFium cuts a longer
    one): one run of text, whose grouping into lines was quadratic in its length (minutes)."""
    shows = b" ".join(b"(" + b"x" * 20_000 + b") Tj" for _ in range(chars // 20_000))
    stream = zlib.compress(b"BT /F1 1 Tf 5 400 Td " + shows + b" ET")
    return _pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
            b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        ]
    )


def csv_padded() -> bytes:
    """About 80 KB: 20,000 rows of two fields and a last row of 400, which padding makes
    8 million cells (the bound is 3 million; the check once read only the first 100 rows)."""
    return b"a,b\n" * 20_000 + b",".join(b"v" for _ in range(400)) + b"\n"


def ods_padded() -> bytes:
    """An ODS as LibreOffice saves it: two filled rows, each padded with an empty cell repeated
    16,382 times, then an empty row repeated a million times: it opens as 2 rows of 2 cells."""
    filled = "".join(
        f"<table:table-row><table:table-cell><text:p>{a}</text:p></table:table-cell>"
        f"<table:table-cell><text:p>{b}</text:p></table:table-cell>"
        '<table:table-cell table:number-columns-repeated="16382"/></table:table-row>'
        for a, b in (("Region", "Value"), ("North", "7"))
    )
    content = (
        f'<?xml version="1.0"?><office:document-content {_NS}><office:body><office:spreadsheet>'
        f'<table:table table:name="S">{filled}<table:table-row table:number-rows-repeated="1048574">'
        '<table:table-cell table:number-columns-repeated="16384"/></table:table-row>'
        "</table:table></office:spreadsheet></office:body></office:document-content>"
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("mimetype"), _ODS_MIME)
        z.writestr("content.xml", content)
    return buf.getvalue()
