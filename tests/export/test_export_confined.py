"""The export reads a run folder someone else wrote through the confined reader (no link out of
the run, no FIFO that never ends) and writes its output whole or not at all."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tests.judge import folders
from webfovea.export import webretriever
from webfovea.export.webretriever import export_webretriever


def _run(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    folders.ours(run / "t-1", steps=2)
    folders.ours(run / "t-2", steps=2)
    return run


def test_links_out_and_fifos_are_not_read(tmp_path: Path) -> None:
    run = _run(tmp_path)
    private = tmp_path / "private.json"
    private.write_text('{"requests": [{"url": "https://secret.example/token"}]}')
    (run / "t-1" / "capture.json").unlink()
    (run / "t-1" / "capture.json").symlink_to(private)
    (run / "t-2" / "capture.json").unlink()
    os.mkfifo(run / "t-2" / "capture.json")
    done = threading.Event()
    result: dict[str, object] = {}

    def go() -> None:
        result["summary"] = export_webretriever(run, tmp_path / "out")
        done.set()

    threading.Thread(target=go, daemon=True).start()
    assert done.wait(60), "the export blocked on a FIFO"
    out = tmp_path / "out"
    texts = "".join(p.read_text() for p in out.rglob("capture.json"))
    assert "secret.example" not in texts
    summary = result["summary"]
    assert summary.problems == {"t-1": ["no capture.json"], "t-2": ["no capture.json"]}  # type: ignore[attr-defined]


def test_an_interrupted_export_leaves_nothing_and_a_rerun_succeeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = _run(tmp_path)
    real = webretriever._export_task
    calls = []

    def fail_on_second(*args: object, **kw: object) -> object:
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(webretriever, "_export_task", fail_on_second)
    with pytest.raises(KeyboardInterrupt):
        export_webretriever(run, tmp_path / "out")
    assert not (tmp_path / "out").exists() and list(tmp_path.glob(".out.partial-*")) == []
    monkeypatch.setattr(webretriever, "_export_task", real)
    summary = export_webretriever(run, tmp_path / "out")
    assert summary.tasks == 2 and sorted(os.listdir(tmp_path / "out")) == ["0_t-1", "1_t-2"]
    assert len(os.listdir(tmp_path / "out" / "0_t-1" / "trajectory")) == 2
