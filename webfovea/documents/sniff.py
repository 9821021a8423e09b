"""What a file is, read from its first bytes (magic numbers, zip members), not from its name or
the Content-Type a server chose: a PDF served as `application/octet-stream` with no extension is
still a PDF, and an HTML error page named `report.pdf` is not one.

Kinds: `pdf`, `xlsx`, `ods`, `xls`, `csv`, `tsv`, `json`, `text`; `None` for anything else
(HTML, images, archives, binaries), which the harness leaves as a plain download.
"""

from __future__ import annotations

import csv
import io
import json
import zipfile

KINDS = ("pdf", "xlsx", "ods", "xls", "csv", "tsv", "json", "text")
# What the model is told a kind is.
LABELS = {
    "pdf": "PDF document",
    "xlsx": "Excel workbook",
    "ods": "OpenDocument spreadsheet",
    "xls": "legacy Excel workbook",
    "csv": "CSV table",
    "tsv": "tab-separated table",
    "json": "JSON file",
    "text": "text file",
}
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_HTML_START = (b"<!doctype html", b"<html", b"<head", b"<body", b"<?xml", b"<svg")
_SAMPLE = 64 * 1024


def sniff(data: bytes, name: str = "") -> str | None:
    """The document kind of `data`; `name` only breaks a tie between CSV and plain text."""
    head = data[:1024].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"%PDF-") or b"%PDF-" in data[:1024]:
        return "pdf"
    if data.startswith(b"PK\x03\x04"):
        return _zip_kind(data)
    if data.startswith(_OLE2):
        return "xls"
    text = _as_text(data[:_SAMPLE])
    if text is None:
        return None
    low = text.lstrip().lower()
    if low.startswith(tuple(s.decode() for s in _HTML_START)):
        return None
    if low[:1] in ("{", "[") and _is_json(data):
        return "json"
    table = _table_kind(text, name)
    return table or "text"


def _zip_kind(data: bytes) -> str | None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            names = set(z.namelist())
            if "xl/workbook.xml" in names:
                return "xlsx"
            if (
                "mimetype" in names
                and z.read("mimetype").strip() == b"application/vnd.oasis.opendocument.spreadsheet"
            ):
                return "ods"
    except (zipfile.BadZipFile, KeyError, OSError, RuntimeError):
        return None
    return None


def _as_text(sample: bytes) -> str | None:
    """The sample as text, or None when it is binary (NUL bytes, undecodable)."""
    if b"\x00" in sample:
        return None
    for enc in ("utf-8", "cp1252"):
        try:
            text = sample.decode(enc)
        except UnicodeDecodeError:
            continue  # a cut multi-byte character at the end is tried again below
        break
    else:
        try:
            text = sample[:-4].decode("utf-8")
        except UnicodeDecodeError:
            return None
    controls = sum(1 for c in text[:4096] if ord(c) < 32 and c not in "\t\r\n\f")
    return None if controls > 4 else text


def _is_json(data: bytes) -> bool:
    try:
        json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError):
        return False
    return True


def _table_kind(text: str, name: str) -> str | None:
    """csv or tsv when the first lines split into the same number (>= 2) of fields."""
    lines = [ln for ln in text.splitlines()[:31] if ln.strip()]
    if len(text) >= _SAMPLE or len(lines) == 31:
        lines = lines[:-1]  # the last line of a sample may be cut
    if len(lines) < 2:
        return None
    for delim, kind in (("\t", "tsv"), (",", "csv"), (";", "csv")):
        try:
            widths = [len(r) for r in csv.reader(lines, delimiter=delim)]
        except csv.Error:
            continue
        if widths[0] >= 2 and all(w == widths[0] for w in widths):
            return kind
    if name.lower().endswith((".csv", ".tsv")):
        return "tsv" if name.lower().endswith(".tsv") else "csv"
    return None


def delimiter(kind: str, text: str) -> str:
    """The field separator of a csv/tsv document."""
    if kind == "tsv":
        return "\t"
    first = text.split("\n", 1)[0]
    return ";" if first.count(";") > first.count(",") else ","
