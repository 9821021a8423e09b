"""The `documents` suite: twelve tasks whose evidence is only inside a document download.

On the filings archive (`sites/archive.py`): per annual report (PDF, 12 pages) the operating
margin on page 7 in a two-column layout, the restated net profit a footnote marker points to,
and a segment row after the table's break onto page 9; in the statistics release (XLSX) two
cells under merged headers, with footnote symbols, on two sheets, and one under a unit row;
in the 50,000-row CSV export three consignments found with the view's row filter. With the
`documents` switch off the downloads are only saved, so every task fails (the reference
profile too). Targets are the view's own elements (`documents/render.py`), the line numbers
of a PDF's text layer read from the same converter the harness uses.
"""

from __future__ import annotations

from typing import Any

from webfovea.documents.pdf import PdfDoc
from webfovea.task import Task
from webfovea_proving_ground.plan import L, answer, check_suite, click, fill, find_text, text_has
from webfovea_proving_ground.sites import archive_files as af
from webfovea_proving_ground.suites.base import SuiteBase

CSV_PICKS = (12_345, 31_337, 45_678)  # data rows of the export (0-based) asked about


def _line(seed: int, key: str, page: int, starts: str) -> int:
    """The text-layer line of `page` (1-based) whose first cell starts with `starts`."""
    doc = PdfDoc(af.report_pdf(seed, key))
    for i, line in enumerate(doc.pages[page - 1].lines):
        if line[0].text.lstrip("* ").startswith(starts):
            return i
    raise ValueError(f"no line starting {starts!r} on page {page} of {key}")


def _opened(name: str) -> dict:
    return text_has(L("#doc-name"), name)


class DocumentTasks(SuiteBase):
    def report_tasks(self) -> None:
        for key, company in af.COMPANIES.items():
            r = af.report(self.seed, key)
            link = click(L(f"#report-{key}"), expect=_opened(f"{key}-2024.pdf"))
            margin = _line(self.seed, key, 7, "Operating margin")
            self.add(
                f"doc-{key}-margin",
                "archive",
                "/archive",
                f"In the filings archive, open {company}'s annual report 2024 and report its operating margin "
                "for 2024 as stated in the operations review.",
                f"{r.margin}%",
                "document extraction",
                ["document", "find_text"],
                [
                    link,
                    find_text("Operating margin", L(f'#page-7 .ln[data-ln="{margin}"]')),
                    answer(L(f'#page-7 .ln[data-ln="{margin}"] span'), regex=r"([\d.]+%)"),
                ],
            )
            note = _line(self.seed, key, 5, "Restated")
            self.add(
                f"doc-{key}-restated",
                "archive",
                "/archive",
                f"In the filings archive, open {company}'s annual report 2024. Its key figures mark the net "
                "profit with a footnote: what is the net profit after the restatement the footnote gives?",
                r.restated,
                "document extraction",
                ["document", "find_text"],
                [
                    link,
                    find_text("Restated", L(f'#page-5 .ln[data-ln="{note}"] span')),
                    answer(L(f'#page-5 .ln[data-ln="{note}"] span'), regex=r"net profit ([\d.]+)"),
                ],
            )
            name, value, _ = r.segments[3]
            seg = _line(self.seed, key, 9, name)
            self.add(
                f"doc-{key}-segment",
                "archive",
                "/archive",
                f"In the filings archive, open {company}'s annual report 2024. What was the 2024 revenue of its "
                f"{name} segment, in EUR million?",
                value,
                "document extraction",
                ["document", "read_text"],
                [
                    link,
                    find_text("continued", L(f'#page-9 .ln[data-ln="{seg}"] span')),
                    answer(L(f'#page-9 .ln[data-ln="{seg}"] span', nth=1)),
                ],
            )

    def release_tasks(self) -> None:
        rel = af.release(self.seed)
        link = click(L("#release-xlsx"), expect=_opened("prices-2024.xlsx"))

        def sheet(n: int) -> dict:
            return click(L("#doc-sheets a", nth=n), expect=text_has(L("#doc-range"), af.RELEASE_SHEETS[n]))

        region = af.REGIONS[2]  # East: its 2023 change is revised ("r"), 2024 provisional ("p")
        row = 5 + af.REGIONS.index(region)
        self.add(
            "doc-release-change",
            "archive",
            "/archive",
            f"In the filings archive's 2024 statistical release, what was the annual change of consumer prices "
            f"in the {region} region in 2024, in percent? Give the number only.",
            rel.change[region][1],
            "document extraction",
            ["document"],
            [link, sheet(1), answer(L(f'#doc-rows tr[data-row="{row}"] td.c4'), regex=r"([\d.]+)")],
        )
        region = af.REGIONS[4]
        row = 5 + af.REGIONS.index(region)
        self.add(
            "doc-release-index",
            "archive",
            "/archive",
            f"In the filings archive's 2024 statistical release, what was the consumer price index of the "
            f"{region} region in 2023 (2020 = 100)?",
            rel.index[region][0],
            "document extraction",
            ["document"],
            [link, sheet(1), answer(L(f'#doc-rows tr[data-row="{row}"] td.c1'))],
        )
        sector = af.SECTORS[1]
        row = 5 + af.SECTORS.index(sector)
        self.add(
            "doc-release-wage",
            "archive",
            "/archive",
            f"In the filings archive's 2024 statistical release, what was the average monthly gross wage in "
            f"{sector} in 2024, in euros? Give the number only.",
            rel.wages[sector][1],
            "document extraction",
            ["document"],
            [link, sheet(2), answer(L(f'#doc-rows tr[data-row="{row}"] td.c2'), regex=r"(\d+)")],
        )

    def export_tasks(self) -> None:
        rows = af.export_rows(self.seed)
        link = click(L("#export-csv"), expect=_opened("consignments.csv"))
        for n, (i, (col, what)) in enumerate(
            zip(CSV_PICKS, ((5, "declared value in EUR"), (2, "port"), (4, "weight in kg")), strict=True)
        ):
            cid = rows[i][0]
            self.add(
                f"doc-export-{n + 1:02d}",
                "archive",
                "/archive",
                f"In the filings archive's consignment export (CSV), find consignment {cid} and report its {what}.",
                rows[i][col],
                "complete data retrieval",
                ["document", "long_page"],
                [
                    link,
                    fill(L("#doc-filter"), cid, submit=True, expect=text_has(L("#doc-range"), "matching")),
                    answer(L(f'#doc-rows tr[data-row="{i + 2}"] td.c{col}')),
                ],
            )


def load_documents_suite(handle: Any, seed: int | None = None) -> list[Task]:
    """The suite for running sites (a SitesHandle: its seed, URLs and control plane)."""
    from webfovea_proving_ground.suites.builtin import with_sessions

    seed = getattr(handle, "seed", 0) if seed is None else seed
    s = DocumentTasks(handle, seed)
    s.report_tasks()
    s.release_tasks()
    s.export_tasks()
    check_suite(s.tasks)
    return with_sessions(s.tasks, handle, seed)
