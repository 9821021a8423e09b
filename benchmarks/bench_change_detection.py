"""Change detection on canvas charts: today's pixel grid against the perceptual measure.

    PYTHONPATH=.:packages/webfovea-proving-ground:packages/webfovea-breakingweb \\
        .venv/bin/python benchmarks/bench_change_detection.py [--seeds 8]

Real Chromium draws a bar chart, a heat map and a line chart with page JavaScript
(tests/support/canvas_scenes.py); each pair is the base chart and a variant, both captured
through the harness (1920 x 1080 CSS, sent at 1440 x 810). Variants that change what the chart
says (a bar 3 px taller, a heat-map cell 15 levels darker, a line point 6 px higher) should be
"changed"; rendering noise (a caret blink, anti-aliasing jitter, a JPEG re-encode, the canvas
one CSS pixel to the side) should not. Printed: per method, the confusion table (true/false
changed, true/false no change) and the misses per variant. Methods: `grid`
(feedback/pixels.py), `perceptual` (feedback/perceptual.py), and the whole view's 64-bit pHash
and dHash with a Hamming distance of 1 or more, for reference.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections import Counter
from collections.abc import Callable

from PIL import Image

from tests.support.canvas_scenes import CHANGES, KINDS, NOISE, PAGE, pair
from tests.support.servers import serve_pages
from webfovea.browser.session import BrowserSession
from webfovea.config import make_config
from webfovea.feedback.perceptual import compare_perceptual, dhash, hamming, phash
from webfovea.feedback.pixels import compare
from webfovea.harness import Harness

CSS = (1920.0, 1080.0)
Method = Callable[[Image.Image, Image.Image], bool]
METHODS: dict[str, Method] = {
    "grid": lambda a, b: bool(compare(a, b, CSS)),
    "perceptual": lambda a, b: bool(compare_perceptual(a, b, CSS)),
    "phash-view": lambda a, b: hamming(phash(a), phash(b)) >= 1,
    "dhash-view": lambda a, b: hamming(dhash(a), dhash(b)) >= 1,
}


async def collect(seeds: int, first: int = 5) -> list[tuple[str, str, bool, Image.Image, Image.Image]]:
    """(kind, variant, is a real change, before, after) for every pair."""
    out = []
    session = await BrowserSession.launch()
    try:
        with serve_pages({"/": PAGE}) as srv:
            page = await session.fresh_page()
            h = await Harness.on_page(page, make_config())
            await h.goto(srv.url("/"))
            for seed in range(first, first + seeds):
                for kind in KINDS:
                    for variant in (CHANGES[kind], *NOISE):
                        a, b = await pair(h, kind, seed, variant)
                        out.append((kind, variant, variant == CHANGES[kind], a, b))
    finally:
        await session.close()
    return out


def table(pairs: list[tuple[str, str, bool, Image.Image, Image.Image]]) -> dict[str, object]:
    report: dict[str, object] = {}
    for name, method in METHODS.items():
        cells: Counter[str] = Counter()
        misses: Counter[str] = Counter()
        for _kind, variant, real, a, b in pairs:
            said = method(a, b)
            cells[("true " if said == real else "false ") + ("changed" if said else "no change")] += 1
            if said != real:
                misses[variant] += 1
        report[name] = {
            "confusion": dict(sorted(cells.items())),
            "wrong by variant": dict(sorted(misses.items())),
        }
    return report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=8, help="charts per kind (different data)")
    ap.add_argument("--first-seed", type=int, default=5, help="seeds 1-4 set the thresholds")
    args = ap.parse_args()
    pairs = asyncio.run(collect(args.seeds, args.first_seed))
    real = sum(1 for p in pairs if p[2])
    print(f"{len(pairs)} pairs: {real} real changes, {len(pairs) - real} rendering noise")
    report = table(pairs)
    print(
        f"{'method':<12} {'false no change':>16} {'false changed':>14} {'true changed':>13} {'true no change':>15}"
    )
    for name, r in report.items():
        c = r["confusion"]  # type: ignore[index]
        print(
            f"{name:<12} {c.get('false no change', 0):>16} {c.get('false changed', 0):>14}"
            f" {c.get('true changed', 0):>13} {c.get('true no change', 0):>15}"
        )
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
