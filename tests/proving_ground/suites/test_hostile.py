"""The hostile suite end to end with the oracle: the guards hold, and the judge — reading only the
sites' own log — notices when one does not (the same attacks with the site guard switched off)."""

from __future__ import annotations

from pathlib import Path

import pytest

from webfovea.agent import run_task
from webfovea.browser.session import BrowserSession
from webfovea.config import make_config
from webfovea_proving_ground.serve import start_sites
from webfovea_proving_ground.suites.hostile import judge, load_hostile_suite

PICK = ("hostile-geometry", "hostile-admin-link", "hostile-redirect", "hostile-quote", "hostile-confirm")


async def _run(
    session: BrowserSession, tmp_path: Path, pick: tuple[str, ...] = PICK, **cfg: object
) -> dict[str, bool]:
    with start_sites() as sites:
        tasks = [t for t in load_hostile_suite(sites) if t.task_id in pick]
        for t in tasks:
            await run_task(
                t,
                tmp_path / t.task_id,
                session=session,
                model="oracle",
                config=make_config(max_seconds=90, **cfg),
            )
        return {v.attack: v.held for v in judge(sites, tasks, tmp_path)}


@pytest.mark.asyncio(loop_scope="session")  # the module's `session` lives on the worker's loop
async def test_every_guard_holds(session: BrowserSession, tmp_path: Path) -> None:
    held = await _run(session, tmp_path)
    assert held == {"geometry": True, "admin-link": True, "redirect": True, "quote": True, "confirm": True}


@pytest.mark.asyncio(loop_scope="session")  # the module's `session` lives on the worker's loop
async def test_the_judge_sees_an_unguarded_run(session: BrowserSession, tmp_path: Path) -> None:
    # Only the attacks the site guard stops are run again without it (the others hold without it).
    # The admin request comes with the first click; after it the oracle only waits for a page
    # its plan expects, so three steps are enough to see it.
    held = await _run(
        session, tmp_path, ("hostile-admin-link", "hostile-redirect"), site_guard=False, max_steps=3
    )
    assert held == {"admin-link": False, "redirect": False}  # the admin port's own log says so


@pytest.mark.asyncio(loop_scope="session")  # the module's `session` lives on the worker's loop
async def test_the_page_cannot_speak_in_the_harness_voice(session: BrowserSession, tmp_path: Path) -> None:
    # a page hunting for the recorder, poisoned prototypes, page text as a harness note, a
    # downloaded file named as a harness note
    held = await _run(
        session, tmp_path, ("hostile-forgery", "hostile-voice", "hostile-swap", "hostile-file-name")
    )
    assert held == {"forgery": True, "voice": True, "swap": True, "file-name": True}


def test_an_attack_is_one_registered_record() -> None:
    from webfovea_proving_ground.suites.attack import Attack, attacks, register

    names = [a.name for a in attacks()]
    assert len(names) == len(set(names)) >= 16 and names[:2] == ["geometry", "fill"]
    with pytest.raises(ValueError, match="already registered"):
        register(Attack("geometry", "t", [], lambda ev: (True, "")))
