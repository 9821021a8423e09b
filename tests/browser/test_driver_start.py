"""Playwright's driver starts with Node's compile cache in a folder of ours, unless the user's
own setting (or off) says otherwise; this process's environment is left as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from webfovea.browser.driver_start import CACHE_ENV, SWITCH_ENV, compile_cache_dir, start_playwright


def _drivers() -> set[int]:
    """This process's children running Playwright's run-driver."""
    drivers = set()
    for proc in Path("/proc").iterdir():
        try:
            stat = (proc / "stat").read_text()
            cmd = (proc / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        if (
            proc.name.isdigit()
            and int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid()
            and b"run-driver" in cmd
        ):
            drivers.add(int(proc.name))
    return drivers


async def _started() -> tuple[object, dict[str, str]]:
    """A started Playwright and the environment of its own driver process. Picked as the child
    that was not there before: the worker's shared browser keeps another driver alive, and pids
    wrap, so the highest pid is not always the newest."""
    before = _drivers()
    pw = await start_playwright()
    new = _drivers() - before
    assert len(new) == 1, f"expected one new Playwright driver among this process's children, got {new}"
    raw = Path(f"/proc/{new.pop()}/environ").read_bytes().split(b"\0")
    return pw, dict(item.decode().split("=", 1) for item in raw if b"=" in item)


async def test_the_driver_gets_the_cache_and_fills_it(tmp_path, monkeypatch):
    monkeypatch.setenv(SWITCH_ENV, str(tmp_path / "node"))
    monkeypatch.delenv(CACHE_ENV, raising=False)
    pw, env = await _started()
    try:
        assert env[CACHE_ENV] == str(tmp_path / "node")
        assert CACHE_ENV not in os.environ  # only the driver saw it
        browser = await pw.chromium.launch(executable_path=_chrome())
        await browser.close()
    finally:
        await pw.stop()
    assert any(p.is_file() for p in (tmp_path / "node").rglob("*"))  # Node wrote its compiled code


async def test_the_users_own_setting_and_off_are_kept(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "mine"))
    assert compile_cache_dir() is None
    pw, env = await _started()
    try:
        assert env[CACHE_ENV] == str(tmp_path / "mine")
    finally:
        await pw.stop()
    assert os.environ[CACHE_ENV] == str(tmp_path / "mine")
    monkeypatch.delenv(CACHE_ENV)
    monkeypatch.setenv(SWITCH_ENV, "off")
    pw, env = await _started()
    try:
        assert CACHE_ENV not in env
    finally:
        await pw.stop()


def test_an_unwritable_folder_costs_only_the_cache(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv(SWITCH_ENV, str(blocker / "node"))
    monkeypatch.delenv(CACHE_ENV, raising=False)
    assert compile_cache_dir() == blocker / "node"

    async def start_and_stop() -> None:
        pw = await start_playwright()
        await pw.stop()

    import asyncio

    asyncio.run(start_and_stop())
    assert CACHE_ENV not in os.environ


def _chrome() -> str:
    from webfovea.browser.session import find_chrome

    try:
        return find_chrome(True)
    except Exception as e:  # noqa: BLE001
        pytest.skip(str(e))
