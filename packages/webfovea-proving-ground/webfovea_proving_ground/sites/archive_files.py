"""The archive's files, generated from the seed (deterministic bytes): annual reports as PDF
(fpdf2), a statistics release as XLSX (openpyxl) and a 50,000-row CSV export.

Each report has 12 pages: the operating margin on page 7 in the right column of a two-column
layout, a net profit whose footnote marker points to a restated figure, a segment table that
continues across the break from page 8 to page 9, and an image-only (scanned) page 10.
"""

from __future__ import annotations

import datetime as dt
import io
import random
from dataclasses import dataclass
from functools import cache

COMPANIES = {"northwind": "Northwind Freight plc", "southport": "Southport Energy AG"}
REGIONS = ("North", "South", "East", "West", "Central", "Islands")
SECTORS = ("Manufacturing", "Construction", "Retail", "Transport", "Finance", "Public services")
PORTS = ("Hamburg", "Rotterdam", "Antwerp", "Gdansk", "Valencia", "Piraeus", "Genoa", "Le Havre")
COMMODITIES = ("Coffee", "Steel coils", "Textiles", "Machinery", "Timber", "Fertiliser", "Electronics")
CSV_ROWS = 50_000
_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


@dataclass(frozen=True)
class Report:
    company: str
    margin: str  # page 7, right column
    net_profit: str  # page 5, with the footnote marker
    restated: str  # the footnote's figure
    segments: tuple[tuple[str, str, str], ...]  # name, 2024, 2023 (the last ones on page 9)
    employees: str  # page 10, scanned


@cache
def report(seed: int, key: str) -> Report:
    rng = random.Random(f"{seed}:{key}")
    segs = tuple(
        (name, f"{rng.uniform(200, 900):.1f}", f"{rng.uniform(200, 900):.1f}")
        for name in ("Industrial", "Retail", "Wholesale", "Services", "Logistics", "Digital")
    )
    profit = rng.uniform(300, 600)
    return Report(
        company=COMPANIES[key],
        margin=f"{rng.uniform(6, 19):.1f}",
        net_profit=f"{profit:.1f}",
        restated=f"{profit - rng.uniform(5, 40):.1f}",
        segments=segs,
        employees=f"{rng.randint(1200, 9000):,}",
    )


def _filler(rng: random.Random, n: int) -> list[str]:
    words = "the group continued to invest in its network while costs for energy and labour rose across markets".split()
    return [
        " ".join(rng.choice(words) for _ in range(rng.randint(7, 10))).capitalize() + "." for _ in range(n)
    ]


@cache
def report_pdf(seed: int, key: str) -> bytes:
    from fpdf import FPDF

    r = report(seed, key)
    rng = random.Random(f"{seed}:{key}:text")
    pdf = FPDF(format="A4")
    pdf.set_creation_date(dt.datetime(2025, 3, 31, tzinfo=dt.UTC))
    pdf.set_auto_page_break(False)
    pdf.set_font("helvetica", size=11)

    def head(title: str) -> None:
        pdf.add_page()
        pdf.set_font("helvetica", "B", 15)
        pdf.text(20, 25, title)
        pdf.set_font("helvetica", size=11)
        pdf.text(20, 287, f"{r.company} - Annual report 2024")

    def lines(x: float, y: float, texts: list[str], step: float = 6.5) -> float:
        for t in texts:
            pdf.text(x, y, t)
            y += step
        return y

    head(f"{r.company}: Annual report 2024")
    lines(20, 45, ["Report of the board and financial statements", "for the year ended 31 December 2024"])
    head("Contents")
    lines(
        20,
        40,
        [
            f"{n}  {t}"
            for n, t in enumerate(
                (
                    "Chair's letter",
                    "Strategy",
                    "Key figures",
                    "Markets",
                    "Operations review",
                    "Segments",
                    "Segments (continued)",
                    "Workforce",
                    "Notes",
                    "Auditor",
                ),
                start=3,
            )
        ],
    )
    for title in ("Chair's letter", "Strategy"):
        head(title)
        lines(20, 40, _filler(rng, 30))
    head("Key figures")
    y = lines(20, 40, _filler(rng, 6))
    pdf.text(20, y + 6, "Revenue")
    pdf.text(110, y + 6, f"{sum(float(s[1]) for s in r.segments):.1f}")
    pdf.text(20, y + 13, "Net profit")
    pdf.text(110, y + 13, f"{r.net_profit}*")
    lines(20, y + 30, _filler(rng, 10))
    pdf.set_font("helvetica", size=9)
    pdf.text(
        20, 270, f"* Restated: net profit {r.restated} after the reclassification of discontinued operations."
    )
    pdf.set_font("helvetica", size=11)
    head("Markets")
    lines(20, 40, _filler(rng, 30))
    head("Operations review")  # page 7: two columns
    left = _filler(rng, 34)
    lines(20, 40, [t[:38] for t in left])
    right = [t[:38] for t in _filler(rng, 16)]
    right += [f"Operating margin: {r.margin}%"] + [t[:38] for t in _filler(rng, 16)]
    lines(110, 40, right)
    head("Segments")  # page 8: the table begins at the bottom
    y = lines(20, 40, _filler(rng, 24))
    _table_head(pdf, y + 8, "Segment revenue (EUR million)")
    y = y + 16
    for name, a, b in r.segments[:3]:
        pdf.text(20, y, name)
        pdf.text(110, y, a)
        pdf.text(150, y, b)
        y += 7
    head("Segments (continued)")  # page 9: the rest of the table
    _table_head(pdf, 40, "Segment revenue (EUR million), continued")
    y = 48
    for name, a, b in r.segments[3:]:
        pdf.text(20, y, name)
        pdf.text(110, y, a)
        pdf.text(150, y, b)
        y += 7
    lines(20, y + 10, _filler(rng, 12))
    pdf.add_page()  # page 10: scanned, an image and no text
    pdf.image(_scan(r), x=0, y=0, w=210)
    head("Notes")
    lines(20, 40, _filler(rng, 30))
    head("Auditor's report")
    lines(20, 40, _filler(rng, 20))
    return bytes(pdf.output())


def _table_head(pdf: object, y: float, title: str) -> None:
    pdf.set_font("helvetica", "B", 11)  # type: ignore[attr-defined]
    pdf.text(20, y, title)  # type: ignore[attr-defined]
    pdf.text(110, y, "2024")  # type: ignore[attr-defined]
    pdf.text(150, y, "2023")  # type: ignore[attr-defined]
    pdf.set_font("helvetica", size=11)  # type: ignore[attr-defined]


def _scan(r: Report) -> object:
    """An image of a typed page, slightly grey, as a scanner gives it."""
    from PIL import Image, ImageDraw, ImageFont

    img = Image.new("L", (1240, 1754), 244)
    draw = ImageDraw.Draw(img)
    try:
        font = ImageFont.truetype(_FONT, 34)
    except OSError:
        font = ImageFont.load_default()
    draw.text((120, 150), "Workforce", fill=30, font=font)
    draw.text((120, 260), f"Employees at year end: {r.employees}", fill=40, font=font)
    draw.text((120, 330), "Signed copy of the board's statement on staffing.", fill=60, font=font)
    return img


RELEASE_SHEETS = ("Notes", "Table 1", "Table 2")


@dataclass(frozen=True)
class Release:
    index: dict[str, tuple[str, str]]  # region -> index 2023, 2024
    change: dict[str, tuple[str, str]]  # region -> annual change 2023, 2024 (with footnote symbols)
    wages: dict[str, tuple[str, str]]  # sector -> EUR per month 2023, 2024


@cache
def release(seed: int) -> Release:
    rng = random.Random(f"{seed}:release")
    index = {r: (f"{rng.uniform(104, 118):.1f}", f"{rng.uniform(108, 124):.1f}") for r in REGIONS}
    change = {r: (f"{rng.uniform(1, 6):.1f}", f"{rng.uniform(1, 6):.1f}") for r in REGIONS}
    wages = {s: (str(rng.randint(2400, 4800)), str(rng.randint(2500, 5000))) for s in SECTORS}
    return Release(index, change, wages)


def footnoted(region: str, value: str, col: int) -> str:
    """A cell as the release prints it: provisional 2024 values carry 'p', two revised ones 'r'."""
    if col == 1:
        return f"{value} p"
    return f"{value} r" if region in ("East", "Islands") else value


@cache
def release_xlsx(seed: int) -> bytes:
    from openpyxl import Workbook

    rel = release(seed)
    wb = Workbook()
    notes = wb.active
    notes.title = "Notes"
    for row in (
        ["Consumer prices and wages, 2024 release"],
        ["Symbols: p provisional; r revised."],
        ["Sources: price survey, payroll register."],
    ):
        notes.append(row)
    t1 = wb.create_sheet("Table 1")
    t1.append(["Table 1. Consumer prices by region"])
    t1.append(["Unit: index 2020 = 100; annual change in %"])
    t1.append(["Region", "Index", None, "Annual change (%)", None])
    t1.append([None, "2023", "2024", "2023", "2024"])
    t1.merge_cells("A3:A4")
    t1.merge_cells("B3:C3")
    t1.merge_cells("D3:E3")
    for r in REGIONS:
        i23, i24 = rel.index[r]
        c23, c24 = rel.change[r]
        t1.append([r, float(i23), float(i24), footnoted(r, c23, 0), footnoted(r, c24, 1)])
    t1.append(["p provisional; r revised"])
    t2 = wb.create_sheet("Table 2")
    t2.append(["Table 2. Average monthly gross wage by sector"])
    t2.append(["Sector", "Average monthly wage", None])
    t2.merge_cells("B2:C2")
    t2.append([None, "2023", "2024"])
    t2.append(["Unit", "EUR per month", "EUR per month"])
    for s in SECTORS:
        a, b = rel.wages[s]
        t2.append([s, int(a), f"{b} p"])
    for ws in wb.worksheets:
        ws.sheet_properties  # noqa: B018 - no timestamps in the sheets themselves
    wb.properties.created = wb.properties.modified = dt.datetime(2025, 3, 31)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


@cache
def export_rows(seed: int) -> list[tuple[str, ...]]:
    rng = random.Random(f"{seed}:export")
    start = dt.date(2024, 1, 1)
    rows = []
    for i in range(CSV_ROWS):
        day = start + dt.timedelta(days=rng.randrange(366))
        rows.append(
            (
                f"C-{1_000_000 + i * 7919 % 900_000:07d}",
                day.isoformat(),
                rng.choice(PORTS),
                rng.choice(COMMODITIES),
                str(rng.randint(500, 40_000)),
                f"{rng.uniform(1_000, 900_000):.2f}",
            )
        )
    return rows


EXPORT_HEADER = ("consignment", "date", "port", "commodity", "weight_kg", "declared_value_eur")


@cache
def export_csv(seed: int) -> bytes:
    out = io.StringIO()
    out.write(",".join(EXPORT_HEADER) + "\n")
    for row in export_rows(seed):
        out.write(",".join(row) + "\n")
    return out.getvalue().encode()
