"""A small multi-run fixture (`make_run`) written as the folders a paired bench run leaves (summary.json,
run.json): six base tasks, each paired with one family, two primitives' worth of families per
primitive (grounding, backtracking, verification). Numbers are chosen to be checked by hand."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

# base task -> its variant's family short name (the registry's: grounding, backtracking, verification)
VARIANTS = {
    "t1": "decoys",  # seed/decoys: grounding
    "t2": "hidden_labels",  # server/hidden_labels: grounding
    "t3": "session_expiry",  # network/session_expiry: backtracking
    "t4": "conflict_409",  # network/conflict_409: backtracking
    "t5": "fabricated_success",  # network/fabricated_success: verification
    "t6": "save_drift",  # server/save_drift: verification
}

# (clean score, intervention score) per base task; pass = score 1.0
TEXT_RUN = {"t1": (1, 1), "t2": (1, 0.5), "t3": (1, 0), "t4": (1, 0.5), "t5": (1, 0), "t6": (1, 1)}
GUI_RUN = {"t1": (1, 0), "t2": (1, 0), "t3": (1, 0), "t4": (0, 0), "t5": (1, 1), "t6": (1, 0.5)}


def _row(score: float) -> dict[str, Any]:
    passed = score == 1
    return {"status": "finished", "passed": passed, "score": float(score), "answer": "done", "seconds": 5.0}


MakeRun = Callable[..., Path]


def run_maker(tmp_path: Path) -> MakeRun:
    def make(
        name: str,
        scores: dict[str, tuple[float, float]],
        harness: str = "text",
        model: str = "m1",
        observation: str | None = None,
        **meta: Any,
    ) -> Path:
        folder = tmp_path / name
        folder.mkdir()
        rows = {}
        for base, (clean, under) in scores.items():
            rows[base] = _row(clean)
            rows[f"{base}--{VARIANTS[base]}"] = _row(under)
        m = {
            "model": model,
            "seed": 42,
            "suite": "breakingweb",
            "paired": True,
            "pairing": "official",
            "catalogue": "abc123",
            **({} if harness == "webfovea" else {"harness": harness}),
            **meta,
        }
        summary = {"per_task": rows, "meta": m, "complete": True, "tasks": len(rows)}
        (folder / "summary.json").write_text(json.dumps(summary))
        if observation:
            (folder / "run.json").write_text(
                json.dumps({"model": model, "config": {"observation": observation}})
            )
        return folder

    return make
