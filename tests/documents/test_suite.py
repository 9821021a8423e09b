"""The `documents` suite: twelve tasks on the filings archive, answers that live only in its
files, and files that are what their tasks say (no browser: the converter reads them)."""

from __future__ import annotations

from webfovea.documents.document import open_document
from webfovea_proving_ground.sites import archive_files as af
from webfovea_proving_ground.suites.documents import load_documents_suite


class _Handle:
    seed = 0
    frame_url = None

    def url(self, path: str) -> str:
        return "http://127.0.0.1:1" + path


def test_twelve_tasks_each_with_a_plan_and_the_document_class():
    tasks = load_documents_suite(_Handle())
    assert len(tasks) == 12
    assert all("document" in t.failure_classes for t in tasks)
    assert all(t.model_extra["plan"][-1]["op"] == "answer" for t in tasks)  # type: ignore[index]


def test_the_report_holds_its_figures_where_the_tasks_say():
    r = af.report(0, "northwind")
    doc = open_document(af.report_pdf(0, "northwind"), "northwind-2024.pdf")
    pages = doc.pdf.pages  # type: ignore[union-attr]
    assert doc.extent() == "12 pages" and doc.scanned() == [10]
    assert f"Operating margin: {r.margin}%" in pages[6].text
    assert f"{r.net_profit}*" in pages[4].text and f"net profit {r.restated}" in pages[4].text
    assert "continued" in pages[8].text and r.segments[3][0] in pages[8].text
    assert r.segments[3][0] not in pages[7].text  # the row is after the break
    assert af.report_pdf(0, "northwind") == af.report_pdf.__wrapped__(0, "northwind")  # deterministic


def test_the_release_and_the_export_are_read_as_tables():
    doc = open_document(af.release_xlsx(0), "prices-2024.xlsx")
    assert [s.name for s in doc.sheets] == list(af.RELEASE_SHEETS)
    table1 = doc.sheets[1]
    assert table1.header_rows == (2, 4) and (2, 1, 2, 2) in table1.merges
    export = open_document(af.export_csv(0), "consignments.csv")
    assert export.extent() == f"{af.CSV_ROWS:,} rows of 6 columns"
