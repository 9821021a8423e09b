"""How long a large document takes to open in the document view, on real headless Chromium.

    .venv/bin/python benchmarks/bench_documents.py [--rows 50000] [--repeat 3]

A loopback page offers a CSV export of `--rows` rows (the filings archive's consignment
export) and the archive's 12-page PDF report. For each, it prints the conversion alone
(sniff + parse + first page of HTML) and the whole round trip the model waits for: the click
that downloads it, the download saved, the view converted, the tab navigated to it and
settled, and the next screenshot taken. The bound: a 50,000-row CSV under 2 s.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from webfovea.config import make_config
from webfovea.documents.document import open_document
from webfovea.harness import Harness
from webfovea_proving_ground.sites import archive_files as af

PAGE = b"""<html><body style="font:16px sans-serif">
<a href="/export.csv" style="position:absolute;left:100px;top:100px">CSV</a>
<a href="/report.pdf" style="position:absolute;left:100px;top:200px">PDF</a></body></html>"""


def _server(files: dict[str, tuple[str, bytes]]) -> ThreadingHTTPServer:
    class H(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - stdlib name
            ctype, body = files.get(self.path, ("text/html", PAGE))
            self.send_response(200)
            self.send_header("Content-Type", ctype)
            if ctype != "text/html":
                self.send_header("Content-Disposition", f"attachment; filename={self.path[1:]}")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a: object) -> None:
            pass

    srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


async def _round_trip(url: str, y: int, folder: Path) -> tuple[float, str]:
    async with Harness.launch(url, config=make_config()) as h:
        h.keep_downloads(folder)
        await h.observe()
        t0 = time.perf_counter()
        res = await h.step(f"Thought: open\nAction: click(start_box='({int(110 * 0.75)},{int(y * 0.75)})')")
        await h.observe()
        return time.perf_counter() - t0, res.feedback


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=af.CSV_ROWS)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    csv = b"".join(af.export_csv(0).splitlines(keepends=True)[: args.rows + 1])
    pdf = af.report_pdf(0, "northwind")
    for name, data in (("export.csv", csv), ("report.pdf", pdf)):
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            open_document(data, name).html()
            times.append(time.perf_counter() - t0)
        print(f"{name}: {len(data) / 1e6:.1f} MB, conversion median {statistics.median(times):.2f} s")
    srv = _server({"/export.csv": ("text/csv", csv), "/report.pdf": ("application/pdf", pdf)})
    url = f"http://127.0.0.1:{srv.server_address[1]}/"
    try:
        for name, y in (("export.csv", 108), ("report.pdf", 208)):
            times, said = [], ""
            for _ in range(args.repeat):
                with tempfile.TemporaryDirectory() as tmp:
                    took, said = asyncio.run(_round_trip(url, y, Path(tmp)))
                times.append(took)
            print(
                f"{name}: click -> view on screen, median {statistics.median(times):.2f} s, max {max(times):.2f} s"
            )
            print(f"  told: {said[:160]}")
    finally:
        srv.shutdown()


if __name__ == "__main__":
    main()
