"""The run's OCR is read by the driver: a worker's Tesseract reads go over the channel and run in
the driver's process, at most OCR_AT_ONCE at a time however many workers ask; a worker the driver
cannot serve reads the image itself."""

from __future__ import annotations

import io
import os
import shutil
import threading
import time
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from tests.runner.test_channel import TOKEN, channel  # noqa: F401 - the fixture
from webfovea.config import make_config
from webfovea.documents import ocr
from webfovea.runner.api import RunOptions, run_tasks
from webfovea.runner.client import DriverClient
from webfovea.runner.supervisor import Policy
from webfovea_proving_ground.serve import start_sites
from webfovea_proving_ground.suites.builtin import load_builtin_suite

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract is not installed")


@pytest.fixture
def shim(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A `tesseract` first on PATH that logs its parent's pid and its start and end, and takes a
    little longer than the real one (so that overlapping reads would show)."""
    log = tmp_path / "tesseract.log"
    log.write_text("")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    real = shutil.which("tesseract")
    (bin_dir / "tesseract").write_text(
        "#!/bin/sh\n"
        f'case "$1" in --version) exec {real} "$@" ;; esac\n'
        f'echo "start $PPID $(date +%s.%N)" >> {log}\n'
        f'{real} "$@"; rc=$?\nsleep 0.3\n'
        f'echo "end $PPID $(date +%s.%N)" >> {log}\nexit $rc\n'
    )
    (bin_dir / "tesseract").chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("WEBFOVEA_OCR_CACHE", "off")
    return log


def _png(text: str) -> bytes:
    im = Image.new("RGB", (500, 120), "white")
    ImageDraw.Draw(im).text((20, 30), text, fill="black", font_size=40)
    buf = io.BytesIO()
    im.save(buf, format="PNG")
    return buf.getvalue()


def test_the_driver_reads_one_image_at_a_time_for_all_workers(channel, shim, monkeypatch):  # noqa: F811
    driver, url, _ = channel
    monkeypatch.setattr(driver, "reading", threading.BoundedSemaphore(1))
    clients = [DriverClient(url, TOKEN, f"w{i}", 0) for i in range(3)]
    for i, _client in enumerate(clients):
        driver.admit(f"w{i}", 0)
    got: list[str | None] = [None] * 3

    def read(i: int) -> None:
        got[i] = clients[i].read_image(_png(f"Total {4210 + i}"), ocr.Read(11))

    threads = [threading.Thread(target=read, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert all(g is not None and f"{4210 + i}" in g for i, g in enumerate(got)), got
    lines = [line.split() for line in shim.read_text().splitlines()]
    assert {int(pid) for _, pid, _ in lines} == {os.getpid()}  # read in the driver's process
    events = sorted((float(at), kind) for kind, _, at in lines)
    assert len(lines) == 6 and [k for _, k in events] == ["start", "end"] * 3  # never two at once
    # A retired incarnation gets nothing read for it: its worker reads the image itself.
    driver.retire("w0")
    assert clients[0].read_image(_png("Total 9"), ocr.Read(11)) is None
    for c in clients:
        c.close()


def test_the_driver_enlarges_the_image_it_reads(channel, shim):  # noqa: F811
    """A worker sends its screenshot at its own size and how many times to enlarge it: the
    enlarged copy (+25-30 MiB for a 1440x810 screenshot at 2x) is made in the driver."""
    driver, url, _ = channel
    client = DriverClient(url, TOKEN, "w0", 0)
    driver.admit("w0", 0)
    png = _png("Total 4217")
    lefts = {}
    for times in (1, 2):
        tsv = client.read_image(png, ocr.Read(11, times))
        assert tsv is not None
        rows = [r.split("\t") for r in tsv.splitlines()]
        lefts[times] = next(int(r[6]) for r in rows if r[-1].strip() == "Total")
    client.close()
    assert abs(lefts[2] - 2 * lefts[1]) <= 4, lefts  # read on the enlarged image
    assert {int(line.split()[1]) for line in shim.read_text().splitlines()} == {os.getpid()}


def test_a_worker_whose_driver_cannot_read_reads_itself(shim, monkeypatch):
    ocr.read_through(lambda png, how: None)
    try:
        text = ocr.recognise(_png("Total 4217"), 1.0, psm=11)
    finally:
        ocr.read_through(None)
    assert text and any("4217" in b[4] for b in text)
    assert {int(line.split()[1]) for line in shim.read_text().splitlines()} == {os.getpid()}


def test_a_runs_answer_check_is_read_in_the_driver_not_in_the_worker(tmp_path, shim):
    started = time.time()
    with start_sites() as sites:
        tasks = [t for t in load_builtin_suite(sites) if t.task_id == "stats-select-01-vn"]
        outcome = run_tasks(
            tasks,
            tmp_path / "run",
            RunOptions(
                model="oracle",
                config=make_config(),
                workers=1,
                show_progress=False,
                policy=Policy(poll_s=0.3),
            ),
        )
    res = outcome.results["stats-select-01-vn"]
    assert res.status == "finished" and res.answer == "-1.1", (res.status, res.answer, res.error)
    lines = [line.split() for line in shim.read_text().splitlines()]
    assert lines, "the answer's digits were never read"
    assert {int(pid) for _, pid, _ in lines} == {os.getpid()}  # the driver is this process
    assert all(float(at) >= started for _, _, at in lines)
