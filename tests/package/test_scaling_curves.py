"""benchmarks/scaling: the slope it reports is the curve's, and a small CSV curve is written
as the JSON and SVG docs/results/scaling.md embeds."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "scaling"))

from fit import Curve, exponent, shape, svg  # noqa: E402


def test_the_slope_is_the_power_past_the_fixed_cost() -> None:
    assert abs(exponent([(10, 100), (100, 10_000), (1000, 1_000_000)]) - 2.0) < 1e-9
    # the first point is a fixed cost and is left out of the fit
    assert abs(exponent([(1, 50), (10, 10), (100, 100), (1000, 1000)]) - 1.0) < 1e-9
    assert shape(-0.5) == "falls as the size grows"
    assert shape(1.0) == "linear" and shape(0.3).startswith("sub-linear") and shape(1.6) == "super-linear"
    picture = svg(Curve("c", "t", "x", "y", points=[(1, 1), (10, 10), (100, 100)]))
    assert picture.count("<circle") == 3 and "slope 1.00" in picture


def test_a_csv_curve_is_measured_and_written(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "scaling"),
            "csv",
            "--sizes",
            "200,2000,8000",
            "--reps",
            "1",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    data = json.loads((tmp_path / "csv_open.json").read_text())
    assert [p[0] for p in data["points"]] == [200, 2000, 8000]
    assert all(p[1] > 0 for p in data["points"]) and data["exponent"] == data["exponent"]  # not NaN
    assert (tmp_path / "csv_open.svg").read_text().count("<circle") == 6  # two series
    assert "csv_open: slope" in out


def test_an_unknown_curve_is_refused_with_the_names() -> None:
    r = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "scaling"), "dmo"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 2 and "use any of dom, rows" in r.stderr
