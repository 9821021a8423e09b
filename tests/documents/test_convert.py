"""Sniffing and conversion without a browser: what a file is, and what its view holds."""

from __future__ import annotations

import json

import pytest

from tests.documents import files
from webfovea.documents import limits
from webfovea.documents.document import open_document
from webfovea.documents.sniff import sniff


def test_kinds_are_sniffed_from_the_bytes_not_the_name():
    assert sniff(files.pdf(1), "download") == "pdf"
    assert sniff(files.xlsx_merged(), "report.pdf") == "xlsx"
    assert sniff(b"a,b,c\n1,2,3\n4,5,6\n", "data.txt") == "csv"
    assert sniff(b"a\tb\n1\t2\n", "x") == "tsv"
    assert sniff(json.dumps({"a": [1, 2]}).encode(), "x.csv") == "json"
    assert sniff(b"Just a note.\nSecond line.", "x.bin") == "text"
    assert sniff(b"<!DOCTYPE html><html><body>no</body></html>", "report.pdf") is None
    assert sniff(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "chart.pdf") is None
    assert sniff(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 100, "x") == "xls"


def test_a_pdf_gets_pages_with_a_text_layer_and_markers():
    doc = open_document(files.pdf(3), "note.pdf")
    assert doc.extent() == "3 pages"
    html = doc.html()
    assert html.count('class="doc-page"') == 3 and "Page 3 of 3" in html
    assert 'data-page-label="page 3 of 3"' in html
    last = doc.pdf.pages[2]  # type: ignore[union-attr]
    row = next(line for line in last.lines if line[0].text == "Net revenue")
    assert [c.text for c in row] == ["Net revenue", "1,234.5", "1,100.2"]
    assert "<script" not in html


def test_merged_header_cells_keep_their_spans():
    doc = open_document(files.xlsx_merged(), "prices.xlsx")
    assert doc.extent() == "2 sheets (Prices, Wages)"
    html = doc.html()
    assert '<th class="c0" rowspan="2">Region</th>' in html
    assert '<th class="c1" colspan="2">Index</th>' in html
    assert '<th class="c3" colspan="2">Change (%)</th>' in html
    assert '<div class="caption">Table 1. Prices</div>' in html
    assert "2.7 p" in html and "aria-current=page>Prices</a>" in html
    assert ">Sector<" in doc.html({"sheet": "1"})


def test_a_long_csv_is_paged_and_filtered():
    rows = "\n".join(f"R{i},{i * 3}" for i in range(1, 5001))
    doc = open_document(("id,value\n" + rows).encode(), "export.csv")
    assert doc.extent() == "5,000 rows of 2 columns"
    first = doc.html()
    assert first.count("<tr data-row=") == 200 + 1  # the header row and one page of rows
    assert "page 1 of 25" in first
    hit = doc.html({"q": "R4321"})
    assert '<td class="c1">12963</td>' in hit and "of 1 ·" in hit


def test_a_zip_bomb_is_refused_before_it_is_inflated():
    with pytest.raises(limits.Refused, match="zip bomb"):
        open_document(files.zip_bomb(), "prices.xlsx")


def test_json_is_pretty_printed():
    doc = open_document(b'{"a":{"b":[1,2]}}', "data.json")
    assert "&quot;b&quot;: [" in doc.html()


@pytest.mark.asyncio(loop_scope="session")
async def test_a_pdf_printed_by_chromium_reads_as_rows(session):
    """A document from another engine than the tests' fpdf2 (Skia, through Chromium's printing).
    Its cells stand apart as in a printed report (cells a space apart read as one phrase)."""
    page = await session.fresh_page()
    await page.set_content(
        "<style>td,th{padding:0 20px}</style><h1>Port statistics</h1><table><tr><th>Port</th><th>TEU 2024</th></tr>"
        "<tr><td>Antwerp</td><td>13,532</td></tr><tr><td>Hamburg</td><td>7,800</td></tr></table>"
        + "<p style='break-before:page'>Annex: methodology and sources.</p>"
    )
    data = await page.pdf(format="A4")
    doc = open_document(data, "ports")
    assert doc.kind == "pdf" and doc.extent() == "2 pages"
    rows = [[c.text for c in line] for line in doc.pdf.pages[0].lines]  # type: ignore[union-attr]
    assert ["Antwerp", "13,532"] in rows and "Annex" in doc.pdf.pages[1].text  # type: ignore[union-attr]


def test_a_semicolon_csv_with_quoted_fields():
    data = 'Region;"Value, EUR";Note\r\nNorth;"1.234,5";"a; b"\r\nSouth;"987,0";\r\n'.encode("cp1252")
    doc = open_document(data, "x")
    assert doc.kind == "csv" and doc.sheets[0].rows[1] == ["North", "1.234,5", "a; b"]
