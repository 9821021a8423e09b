"""Template matching on real Chromium screenshots: precision and recall per widget.

    PYTHONPATH=.:packages/webfovea-proving-ground:packages/webfovea-breakingweb \\
        .venv/bin/python benchmarks/bench_templates.py [--seeds 5] [--json out.json]

For each widget of tests/support/widget_scenes.py (a cookie banner, a paginator, a date picker)
the template is its element screenshot at CSS zoom 1. Each scene is a 1280 x 720 page of text
with the widget at every scale of `--scales` (CSS zoom: Chromium lays it out and rasterises it
again at that size) at random places, and one look-alike of the same family (other words, other
page numbers, another month) at one of those scales. A match is a true positive when its box
overlaps an unmatched true widget's DOM box with IoU >= 0.5; any other match is a false positive
(the look-alike included); an unmatched widget is a miss. Printed: per widget, precision,
recall, recall per scale, look-alikes reported, and the median seconds per search (on a shared
machine: wall time, not a bound).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import statistics
import time
from collections import Counter

from PIL import Image

from tests.support.servers import serve_pages
from tests.support.widget_scenes import WIDGETS, alone, page, scene
from webfovea.browser.session import BrowserSession
from webfovea.vision.matching import find

VIEW = (1280, 720)
BOX_JS = (
    "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"
)


def _iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - ix * iy
    return ix * iy / union if union > 0 else 0.0


async def run(seeds: int, scales: tuple[float, ...]) -> dict[str, dict[str, object]]:
    pages = {f"/alone/{k}": alone(k) for k in WIDGETS}
    scenes = {(k, s): scene(k, s, scales, VIEW) for k in WIDGETS for s in range(1, seeds + 1)}
    pages.update({f"/scene/{k}/{s}": page(p) for (k, s), p in scenes.items()})
    out: dict[str, dict[str, object]] = {}
    with serve_pages(pages) as site:
        session = await BrowserSession.launch(viewport=VIEW)
        try:
            pg = await session.fresh_page()
            for kind in WIDGETS:
                await pg.goto(site.url(f"/alone/{kind}"))
                png = await pg.locator(f'[data-widget="{kind}"] > div > div').screenshot()
                template = Image.open(io.BytesIO(png)).convert("RGB")
                tp = fp = fn = lookalike = 0
                found_at: Counter[float] = Counter()
                shown_at: Counter[float] = Counter()
                seconds: list[float] = []
                for seed in range(1, seeds + 1):
                    await pg.goto(site.url(f"/scene/{kind}/{seed}"))
                    truth = await pg.eval_on_selector_all("[data-widget] > div > div", BOX_JS)
                    looks = await pg.eval_on_selector_all("body > div:not([data-widget]) > div > div", BOX_JS)
                    placed = [p for p in scenes[(kind, seed)] if not p.lookalike]
                    shot = Image.open(io.BytesIO(await pg.screenshot())).convert("RGB")
                    t0 = time.perf_counter()
                    matches = find(shot, template, limit=10)
                    seconds.append(time.perf_counter() - t0)
                    used: set[int] = set()
                    for m in matches:
                        best = max(range(len(truth)), key=lambda i: _iou(m.box, truth[i]), default=None)
                        if best is not None and best not in used and _iou(m.box, truth[best]) >= 0.5:
                            used.add(best)
                            tp += 1
                        else:
                            fp += 1
                            lookalike += any(_iou(m.box, b) >= 0.5 for b in looks)
                    fn += len(truth) - len(used)
                    for i, p in enumerate(placed):
                        shown_at[p.scale] += 1
                        found_at[p.scale] += i in used
                out[kind] = {
                    "template": list(template.size),
                    "true_positives": tp,
                    "false_positives": fp,
                    "lookalikes_reported": lookalike,
                    "misses": fn,
                    "precision": round(tp / (tp + fp), 3) if tp + fp else None,
                    "recall": round(tp / (tp + fn), 3) if tp + fn else None,
                    "recall_by_scale": {str(s): f"{found_at[s]}/{shown_at[s]}" for s in scales},
                    "median_seconds": round(statistics.median(seconds), 2),
                }
                print(kind, json.dumps(out[kind]), flush=True)
        finally:
            await session.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=5, help="scenes per widget")
    ap.add_argument("--scales", default="0.75,0.9,1.0,1.1,1.25,1.5", help="CSS zooms each scene shows")
    ap.add_argument("--json", help="write the results here too")
    a = ap.parse_args()
    results = asyncio.run(run(a.seeds, tuple(float(s) for s in a.scales.split(","))))
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
