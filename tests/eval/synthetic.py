"""Synthetic run folders in the layout of webfovea/record/schema.py, written the way the harness does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from webfovea.record import StepRecord, TaskResult, append_step, write_result, write_run_tasks
from webfovea.task import Task


def task(
    tid: str, answer: Any, *, category: str = "document extraction", classes: tuple[str, ...] = ("select",)
) -> Task:
    return Task(
        task_id=tid,
        task=f"Find the value for {tid}",
        website=f"http://127.0.0.1:9/{tid}",
        answer=answer,
        category=category,
        failure_classes=list(classes),
    )


def write_task(
    run: Path,
    t: Task,
    *,
    answer: str | None,
    status: str = "finished",
    steps: list[dict[str, Any]] | None = None,
    profile: str = "webfovea",
    disabled: tuple[str, ...] = (),
    seconds: float = 12.5,
) -> Path:
    """One task folder: result.json, trajectory.jsonl and a 1440x810 screenshot pair per step."""
    d = run / t.task_id
    d.mkdir(parents=True, exist_ok=True)
    steps = steps or []
    (d / "trajectory.jsonl").write_text("", encoding="utf-8")
    for i, s in enumerate(steps):
        shot, marked = f"step_{i:03d}.png", f"step_{i:03d}_marked.png"
        im = Image.new("RGB", (1440, 810), (240, 240, 250))
        im.save(d / shot)
        point = s.get("point", [700.0, 400.0])
        draw = ImageDraw.Draw(im)
        draw.ellipse(
            [point[0] * 0.75 - 12, point[1] * 0.75 - 12, point[0] * 0.75 + 12, point[1] * 0.75 + 12],
            outline=(255, 0, 0),
            width=4,
        )
        im.save(d / marked)
        rec = StepRecord(
            step=i,
            raw_reply=s.get("raw", f"Thought: {s['thought']}\nAction: {s['action_text']}"),
            cleaned_reply=s.get("raw", ""),
            thought=s["thought"],
            action=s["action"],
            executed_point=point,
            feedback=s.get("feedback", ""),
            changed=True,
            screenshot=shot,
            screenshot_marked=marked,
            image_size=[1440, 810],
            seconds=1.5,
        )
        append_step(d, rec)
    result = TaskResult(
        task_id=t.task_id,
        status=status,
        answer=answer,
        steps=len(steps),
        seconds=seconds,
        task=t.task,
        website=t.website,
        model="oracle",
        profile=profile,
        disabled=list(disabled),
        started_at="2026-01-01T10:00:00",
        ended_at="2026-01-01T10:05:00",
    )
    write_result(d, result)
    return d


def write_tasks_json(run: Path, tasks: list[Task]) -> None:
    run.mkdir(parents=True, exist_ok=True)
    write_run_tasks(run, tasks)
