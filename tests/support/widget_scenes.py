"""Pages that show recurring widgets (a cookie banner, a paginator, a date picker) at several
sizes and positions, for template matching's tests and benchmark (benchmarks/bench_templates.py).

Each widget is plain HTML at a fixed CSS size, scaled by CSS `zoom` (Chromium lays it out and
rasterises the text again at that size, as a page zoom or a responsive rule does: not a
resampled bitmap). Every placed widget carries `data-widget="KIND"`, so a test reads the truth
box from the DOM. The page also holds look-alikes (the same widget family with other words or
numbers), which a matcher must not report.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

FONT = "font-family:Arial,Helvetica,sans-serif"


def _page_button(label: str) -> str:
    current = label == "1"
    colour, fill = ("#fff", "#2563eb") if current else ("#1d4ed8", "#fff")
    return (
        '<span style="width:30px;height:30px;border:1px solid #3b82f6;border-radius:4px;display:flex;'
        f'align-items:center;justify-content:center;color:{colour};background:{fill}">{label}</span>'
    )


WIDGETS: dict[str, str] = {
    "cookie_banner": f"""<div style="width:360px;height:92px;background:#1f2937;color:#f9fafb;{FONT};
 font-size:14px;border-radius:8px;padding:12px;box-sizing:border-box">
 <div style="font-weight:bold">We use cookies</div>
 <div style="font-size:12px;margin-top:4px">to make this site work and to measure visits.</div>
 <div style="position:absolute;right:12px;bottom:10px">
  <button style="background:#9ca3af;border:0;padding:4px 10px;border-radius:4px">Reject</button>
  <button class="accept" style="background:#22c55e;border:0;padding:4px 10px;border-radius:4px;font-weight:bold">Accept all</button>
 </div></div>""",
    "paginator": f"""<div style="width:250px;height:36px;display:flex;gap:4px;{FONT};font-size:14px">
 {"".join(_page_button(t) for t in ("«", "1", "2", "3", "4", "5", "»"))}</div>""",
    "date_picker": f"""<div style="width:210px;height:190px;border:1px solid #999;background:#fafafa;{FONT};
 font-size:12px;padding:6px;box-sizing:border-box">
 <div style="display:flex;justify-content:space-between;font-weight:bold;margin-bottom:4px">
  <span>‹</span><span>March 2026</span><span>›</span></div>
 <div style="display:grid;grid-template-columns:repeat(7,1fr);gap:2px;text-align:center">
 {"".join(f"<b>{d}</b>" for d in "MTWTFSS")}
 {"".join(f"<span>{n}</span>" for n in range(1, 32))}</div></div>""",
}

# Look-alikes: the same family, other content (a second banner, another page range, April).
LOOKALIKES: dict[str, str] = {
    "cookie_banner": WIDGETS["cookie_banner"]
    .replace("We use cookies", "Newsletter")
    .replace("to make this site work and to measure visits.", "Get our weekly digest by e-mail.")
    .replace("Accept all", "Subscribe")
    .replace("Reject", "Later"),
    "paginator": WIDGETS["paginator"]
    .replace(">2<", ">7<")
    .replace(">3<", ">8<")
    .replace(">4<", ">9<")
    .replace(">5<", ">10<"),
    "date_picker": WIDGETS["date_picker"].replace("March 2026", "April 2027").replace("<span>31</span>", ""),
}

FILLER = f"""<div style="position:absolute;left:0;top:0;width:100%;{FONT};color:#444;font-size:13px;
 line-height:1.5;padding:8px;columns:4">{
    " ".join(
        "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor." for _ in range(40)
    )
}</div>"""


@dataclass(frozen=True)
class Placed:
    kind: str
    scale: float
    x: int
    y: int
    lookalike: bool = False

    def html(self) -> str:
        body = (LOOKALIKES if self.lookalike else WIDGETS)[self.kind]
        tag = "" if self.lookalike else f' data-widget="{self.kind}"'
        return (
            # zoom on an inner box: on the positioned one it would scale its left/top too
            f'<div{tag} style="position:absolute;left:{self.x}px;top:{self.y}px">'
            f'<div style="position:relative;zoom:{self.scale}">{body}</div></div>'
        )


def page(placed: list[Placed], filler: bool = True) -> str:
    return (
        '<!doctype html><html><body style="margin:0;background:#fff;overflow:hidden">'
        + (FILLER if filler else "")
        + "".join(p.html() for p in placed)
        + "</body></html>"
    )


def alone(kind: str) -> str:
    """The widget alone at scale 1 on a white page: the template is its element screenshot."""
    return page([Placed(kind, 1.0, 20, 20)], filler=False)


def scene(
    kind: str, seed: int, scales: tuple[float, ...], view: tuple[int, int] = (1280, 720)
) -> list[Placed]:
    """The widget at each of `scales` and one look-alike, at random non-overlapping places."""
    rnd = random.Random(f"{kind}-{seed}")
    sizes = {"cookie_banner": (360, 92), "paginator": (250, 36), "date_picker": (210, 190)}
    w0, h0 = sizes[kind]
    out: list[Placed] = []
    boxes: list[tuple[float, float, float, float]] = []
    wanted = [(s, False) for s in scales] + [(rnd.choice(scales), True)]
    for s, look in wanted:
        w, h = w0 * s, h0 * s
        for _ in range(200):
            x, y = rnd.randint(0, int(view[0] - w - 1)), rnd.randint(0, int(view[1] - h - 1))
            if all(x + w + 8 < b[0] or b[2] + 8 < x or y + h + 8 < b[1] or b[3] + 8 < y for b in boxes):
                break
        else:
            continue  # no room left for it in this view
        boxes.append((x, y, x + w, y + h))
        out.append(Placed(kind, s, x, y, look))
    return out
