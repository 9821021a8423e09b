"""Measured cost in summary.json and the report: tokens per step from recorded usage, the
cache-read fraction from the third step on, and dollars from a prices file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webfovea.eval.costs import PriceError, read_prices
from webfovea.eval.report import render_report
from webfovea.eval.summary import build_summary
from webfovea.record.schema import StepRecord, TaskResult
from webfovea.record.writer import TaskRecorder
from webfovea.task import Task

CACHED = [  # (uncached, read, written, output) per step
    (0, 0, 4000, 30),
    (0, 4000, 1600, 30),
    (0, 5600, 1600, 30),
    (100, 7200, 1600, 30),
]


def _task(run: Path, tid: str, usages: list[dict]) -> Task:
    rec = TaskRecorder(run / tid)
    for i, usage in enumerate(usages):
        rec.append(StepRecord(step=i, raw_reply="x", usage=usage))
    rec.write_result(TaskResult(task_id=tid, status="finished", answer="1", steps=len(usages)))
    return Task(task_id=tid, task="t", website="http://x", answer="1")


def test_tokens_per_step_cache_fraction_and_cost(tmp_path: Path):
    cached = [
        {
            "prompt_tokens": u + r + w,
            "completion_tokens": o,
            "input_tokens": u,
            "cache_read_input_tokens": r,
            "cache_creation_input_tokens": w,
        }
        for u, r, w, o in CACHED
    ]
    plain = [{"prompt_tokens": 6000, "completion_tokens": 40, "estimated": True}] * 2
    tasks = [_task(tmp_path, "a", cached), _task(tmp_path, "b", plain)]
    prices_file = tmp_path / "prices.json"
    prices_file.write_text(json.dumps({"input": 3, "output": 15}))
    prices = read_prices(prices_file)
    assert prices == pytest.approx({"input": 3.0, "output": 15.0, "cache_read": 0.3, "cache_write": 3.75})
    summary = build_summary(tmp_path, tasks, complete=True, meta={"prices": prices})
    a = summary["per_task"]["a"]["tokens"]
    # prompts 4000, 5600, 7200, 8900 -> 25700 / 4 steps
    assert a["input_tokens_per_step"] == 6425.0 and a["uncached_input_tokens_per_step"] == 25.0
    assert a["cache_read_fraction"] == round((5600 + 7200) / (7200 + 8900), 4)  # steps 3 and 4 only
    assert a["output_tokens_per_step"] == 30.0
    # $: 100*3 + 8800*3.75 + 16800*0.3 + 120*15, per million
    assert summary["per_task"]["a"]["cost"] == pytest.approx((300 + 33000 + 5040 + 1800) / 1e6)
    b = summary["per_task"]["b"]["tokens"]
    assert b["uncached_input_tokens_per_step"] == 6000.0 and b["cache_read_fraction"] is None
    assert b["estimated_calls"] == 2
    total = summary["tokens"]
    assert total["steps"] == 6 and total["uncached_input_tokens_per_step"] == round(12100 / 6, 1)
    assert total["cost"] == pytest.approx(summary["per_task"]["a"]["cost"] + summary["per_task"]["b"]["cost"])
    # price units: uncached 1x, written 1.25x, read 0.1x (no prices needed)
    assert a["price_units"] == pytest.approx(100 + 1.25 * 8800 + 0.1 * 16800)
    assert b["price_units"] == 12000.0  # no caching provider: every input token uncached
    assert total["price_units_per_task"] == pytest.approx((a["price_units"] + 12000) / 2, abs=0.1)
    (tmp_path / "summary.json").write_text(json.dumps(summary))
    html = render_report(tmp_path)
    assert "<h3>Cost</h3>" in html and f"${summary['per_task']['a']['cost']:.4f}" in html


def test_bad_prices_say_what_to_write(tmp_path: Path):
    bad = tmp_path / "p.json"
    bad.write_text(json.dumps({"input": 3}))
    with pytest.raises(PriceError, match="at least input and output"):
        read_prices(bad)
    bad.write_text(json.dumps({"input": 3, "output": 1, "cached": 1}))
    with pytest.raises(PriceError, match="unknown price key"):
        read_prices(bad)
