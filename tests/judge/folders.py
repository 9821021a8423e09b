"""Task folders in both layouts, written for tests: ours and WebRetriever's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PIL import Image

START = "https://www.example.co.uk/stats"


def png(path: Path, color: tuple[int, int, int]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (8, 8), color).save(path)


def ours(
    folder: Path,
    *,
    requests: list[dict[str, Any]] | None = None,
    steps: int = 3,
    navigations: list[str] | None = None,
    answer: str = "3.4",
    with_capture: bool = True,
) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "result.json").write_text(
        json.dumps(
            {
                "task_id": folder.name,
                "status": "finished",
                "answer": answer,
                "task": "Show CPI for Viet Nam",
                "website": START,
                "truth": {"nav_ok": True},
                "fault": "wrong_row",
                "session_id": "ws-secret-1",
            }
        )
    )
    lines = []
    for i in range(steps):
        png(folder / f"step_{i:03d}.png", (i * 20, 0, 0))
        png(folder / f"step_{i:03d}_marked.png", (0, 0, 255))
        action = (
            {"name": "click", "args": {"start_box": [10, 20 + i]}}
            if i < steps - 1
            else {"name": "finished", "args": {"content": answer}}
        )
        lines.append(
            json.dumps(
                {
                    "step": i,
                    "raw_reply": "Thought: I am sure it is right",
                    "thought": f"I am sure of step {i}\n\nand more",
                    "action": action,
                    "outcome": "executed",
                    "feedback": "clicked",
                }
            )
        )
    (folder / "trajectory.jsonl").write_text("\n".join(lines) + "\n")
    if with_capture:
        (folder / "capture.json").write_text(
            json.dumps(
                {
                    "requests": requests
                    if requests is not None
                    else [
                        {
                            "url": "https://api.example.co.uk/stats/api/table?country=VN&indicator=cpi",
                            "method": "GET",
                            "resource_type": "fetch",
                            "query_params": [["country", "VN"], ["indicator", "cpi"]],
                            "body_json": None,
                            "body_params": None,
                            "headers": {"user-agent": "x"},
                        }
                    ],
                    "navigations": [{"url": u} for u in (navigations or [START, START + "?country=VN"])],
                }
            )
        )
    return folder


def webretriever(folder: Path, *, steps: int = 11, requests: list[dict[str, Any]] | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "result.json").write_text(
        json.dumps(
            {
                "task": "Find flights from A to B ### key points: cheap",
                "status": "SUCCESS",
                "urls": [
                    "https://shop.example.com/",
                    "https://shop.example.com/search?q=a",
                    "https://shop.example.com/",
                ],
                "actions": [
                    {"action": "click", "thought": "secret reasoning", "element": "Search"},
                    {"action": "type", "text": "a", "reflection": "hmm"},
                ],
            }
        )
    )
    for i in range(steps):
        png(folder / "trajectory" / f"{i}.png", (0, i * 20, 0))
    (folder / "capture.json").write_text(
        json.dumps(
            {
                "all_requests": requests
                if requests is not None
                else [
                    {
                        "url": "https://api.example.com/graphql",
                        "method": "POST",
                        "resource_type": "xhr",
                        "headers": {"cookie": "a=b"},
                        "post_data": "{}",
                        "raw_post_data": "{}",
                        "json_data": {
                            "query": 'query  Search {\n  flights(from: "A") { id }\n}',
                            "variables": '{"from": "A", "token": "abc"}',
                            "userAgent": "Mozilla",
                            "empty": "",
                            "blob": "0123456789abcdef0123456789abcdef0123",
                            "next": "https%3A%2F%2Fx.com%2Fa%20b",
                        },
                    },
                    {
                        "url": "https://tracker.other.net/collect",
                        "method": "POST",
                        "resource_type": "xhr",
                        "json_data": {"a": 1},
                    },
                    {"url": "https://shop.example.com/logo.png", "method": "GET", "resource_type": "image"},
                ]
            }
        )
    )
    return folder
