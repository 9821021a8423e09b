"""Curves measured without a browser: documents against their size, the judge's evidence
against a capture's size.

- `pdf`: a generated PDF of N text pages (fpdf2, as the archive site makes its report);
  open_document (text layers of the first limits.MAX_PDF_PAGES pages) + its view's HTML.
- `csv`: a CSV of N rows and 6 columns; open_document + the first page of its table view +
  a filtered view (`q=`), the view a model's search asks for.
- `judge`: a task folder whose capture.json holds N MB of recorded requests
  (benchmarks/bench_view.py's generator); judge.evidence.build_evidence on it.
"""

from __future__ import annotations

import csv
import io
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from fit import Curve

from webfovea.documents import limits
from webfovea.documents.document import open_document


def pdf_bytes(pages: int) -> bytes:
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_font("helvetica", size=10)
    for p in range(pages):
        pdf.add_page()
        for line in range(40):
            pdf.text(
                15,
                20 + line * 6.5,
                f"Page {p + 1} line {line}: revenue {p * 40 + line} thousand, region {line % 7}",
            )
    return bytes(pdf.output())


def csv_bytes(rows: int) -> bytes:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["id", "name", "value", "code", "region", "date"])
    for r in range(rows):
        w.writerow(
            [
                r,
                f"Item {r}",
                r * 7 % 1000,
                r % 13,
                f"Region {r % 9}",
                f"2024-{r % 12 + 1:02d}-{r % 28 + 1:02d}",
            ]
        )
    return out.getvalue().encode()


def _median_s(fn: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def run_pdf(sizes: list[int], reps: int) -> list[Curve]:
    c = Curve("pdf_open", "Opening a PDF against its pages", "PDF pages", "open + view, s")
    for n in sizes:
        data = pdf_bytes(n)
        c.points.append((n, _median_s(lambda data=data: open_document(data, "r.pdf").html(), reps)))
        print(f"  pdf {n:>6,} pages ({len(data) / 1e6:.1f} MB): {c.points[-1][1]:.3f} s")
    return [c]


def run_csv(sizes: list[int], reps: int) -> list[Curve]:
    c = Curve("csv_open", "Opening a CSV against its rows", "CSV rows", "open + first view, s")
    c.extra["open + filtered view, s"] = []
    for n in sizes:
        data = csv_bytes(n)
        try:
            open_document(data, "t.csv")
        except limits.Refused as e:  # past the cell bound: the refusal is the answer
            print(f"  csv {n:>9,} rows ({len(data) / 1e6:.1f} MB): refused ({e})")
            continue
        c.points.append((n, _median_s(lambda data=data: open_document(data, "t.csv").html(), reps)))
        doc = open_document(data, "t.csv")
        c.extra["open + filtered view, s"].append(
            (n, c.points[-1][1] + _median_s(lambda doc=doc: doc.html({"q": "Region 3"}), reps))
        )
        print(f"  csv {n:>9,} rows ({len(data) / 1e6:.1f} MB): {c.points[-1][1]:.3f} s")
    return [c]


def run_judge(sizes: list[int], reps: int) -> list[Curve]:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from bench_view import BIG, write_run

    from webfovea.judge.evidence import build_evidence

    c = Curve(
        "judge_evidence", "The judge's evidence against a capture's size", "capture MB", "build_evidence, s"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            run = Path(tmp) / f"mb{n}"
            write_run(run, 1, n)
            c.points.append((n, _median_s(lambda run=run: build_evidence(run / BIG), reps)))
            print(f"  judge {n:>4} MB capture: {c.points[-1][1]:.3f} s")
    return [c]
