"""A curve's shape in one number, and the curve as a picture.

`exponent` fits log(cost) = k·log(size) + c by least squares over the points past the first
(the first is usually dominated by a fixed cost: a launch, a round trip). k near 1 is linear,
below 0.8 the fixed cost still dominates (sub-linear over the range), above 1.2 super-linear.
`svg` draws a log-log line chart with nothing but the standard library, so the benchmark adds
no plotting dependency (docs/results/ embeds the files).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape


@dataclass
class Curve:
    name: str  # file stem: dom_step
    title: str
    x_label: str
    y_label: str
    points: list[tuple[float, float]] = field(default_factory=list)  # (size, cost)
    extra: dict[str, list[tuple[float, float]]] = field(default_factory=dict)  # more series, same x

    def as_json(self) -> dict[str, object]:
        return {
            "title": self.title,
            "x": self.x_label,
            "y": self.y_label,
            "points": self.points,
            "exponent": round(exponent(self.points), 2),
            "shape": shape(exponent(self.points)),
            "extra": {k: {"points": v, "exponent": round(exponent(v), 2)} for k, v in self.extra.items()},
        }


def exponent(points: list[tuple[float, float]]) -> float:
    pts = [(math.log(x), math.log(y)) for x, y in points[1:] if x > 0 and y > 0]
    if len(pts) < 2:
        return float("nan")
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    num = sum((x - mx) * (y - my) for x, y in pts)
    den = sum((x - mx) ** 2 for x, _ in pts)
    return num / den if den else float("nan")


def shape(k: float) -> str:
    if math.isnan(k):
        return "too few points"
    if k < -0.2:
        return "falls as the size grows"
    if k < 0.8:
        return "sub-linear (a fixed cost dominates)"
    if k <= 1.2:
        return "linear"
    return "super-linear"


COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")


def svg(curve: Curve, width: int = 560, height: int = 340) -> str:
    series = {curve.y_label: curve.points, **curve.extra}
    xs = [x for pts in series.values() for x, _ in pts if x > 0]
    ys = [y for pts in series.values() for _, y in pts if y > 0]
    if not xs or not ys:
        return "<svg xmlns='http://www.w3.org/2000/svg'/>"
    left, right, top, bottom = 70, 20, 40, 50
    lx0, lx1 = math.log10(min(xs)), math.log10(max(xs)) or 1.0
    ly0, ly1 = math.log10(min(ys)), math.log10(max(ys))
    if lx1 == lx0:
        lx1 = lx0 + 1
    if ly1 == ly0:
        ly1 = ly0 + 1

    def px(x: float) -> float:
        return left + (math.log10(x) - lx0) / (lx1 - lx0) * (width - left - right)

    def py(y: float) -> float:
        return height - bottom - (math.log10(y) - ly0) / (ly1 - ly0) * (height - top - bottom)

    out = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' font-family='sans-serif' font-size='11'>",
        f"<text x='{width / 2}' y='18' text-anchor='middle' font-size='13'>{escape(curve.title)}</text>",
        f"<line x1='{left}' y1='{height - bottom}' x2='{width - right}' y2='{height - bottom}' stroke='#444'/>",
        f"<line x1='{left}' y1='{top}' x2='{left}' y2='{height - bottom}' stroke='#444'/>",
        f"<text x='{width / 2}' y='{height - 10}' text-anchor='middle'>{escape(curve.x_label)} (log)</text>",
    ]
    for x in sorted(set(xs)):
        out.append(
            f"<text x='{px(x):.1f}' y='{height - bottom + 15}' text-anchor='middle'>{_short(x)}</text>"
        )
    for y in (min(ys), math.sqrt(min(ys) * max(ys)), max(ys)):
        out.append(f"<text x='{left - 6}' y='{py(y) + 4:.1f}' text-anchor='end'>{_short(y)}</text>")
    for i, (label, pts) in enumerate(series.items()):
        colour = COLOURS[i % len(COLOURS)]
        good = [(x, y) for x, y in pts if x > 0 and y > 0]
        line = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in good)
        out.append(f"<polyline points='{line}' fill='none' stroke='{colour}' stroke-width='2'/>")
        out += [f"<circle cx='{px(x):.1f}' cy='{py(y):.1f}' r='3' fill='{colour}'/>" for x, y in good]
        k = exponent(good)
        out.append(
            f"<text x='{left + 10}' y='{top + 14 * (i + 1)}' fill='{colour}'>{escape(label)} (slope {k:.2f})</text>"
        )
    out.append("</svg>")
    return "\n".join(out)


def _short(v: float) -> str:
    if v >= 1_000_000:
        return f"{v / 1e6:g}M"
    if v >= 1000:
        return f"{v / 1e3:g}k"
    return f"{v:.3g}"
