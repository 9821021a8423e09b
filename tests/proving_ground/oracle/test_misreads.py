"""The oracle's misreadings (webfovea_proving_ground/oracle/misreads.py) on real Chromium against the stateful apps:
forced on (rate 1), each one fires only where its cue is shown — the variant's page fails the
task (judged by the server's state and the answer scorer), the clean page does not fire it and
passes — and every firing is in the step record's notes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from webfovea.agent import run_task
from webfovea.browser.binding import SECRET_ENV
from webfovea.browser.session import BrowserSession
from webfovea.config import ALL_COMPONENTS, Component, HarnessConfig
from webfovea.eval.scoring import score_answer
from webfovea.feedback.notes import VERIFIER_OPENING
from webfovea_breakingweb.obligations import score_state
from webfovea_breakingweb.suite import load_breakingweb_suite
from webfovea_proving_ground.oracle.misreads import MISREAD_KNOBS
from webfovea_proving_ground.serve import SitesHandle

pytestmark = pytest.mark.asyncio(loop_scope="session")

# (quirk, family, the task it misleads)
CASES = [
    ("key_figures_rate", "seed/planted_answer", "req-lookup-01"),
    ("first_lookalike_rate", "seed/decoys", "req-lookup-01"),
    ("first_lookalike_rate", "seed/decoys", "case-resolve-01"),  # the decoy is a case: a wrong click
    ("assume_sorted_rate", "server/scrambled_timestamps", "req-latest-01"),
    ("skip_legend_rate", "seed/split_information", "req-unit-01"),
    ("skip_dialog_rate", "client/intercepting_overlay", "req-lookup-01"),
    ("adjacent_input_rate", "client/label_shift", "req-edit-01"),
    ("skip_detour_rate", "network/session_expiry", "req-lookup-01"),  # no sign-in after the 401
    ("take_trap_rate", "network/contradictory_update", "req-create-01"),  # submits again: a duplicate
]


async def test_every_misread_has_a_case() -> None:
    assert {c[0] for c in CASES} == set(MISREAD_KNOBS)


def _notes(folder: Path) -> list[dict]:
    out = []
    for line in (folder / "trajectory.jsonl").read_text().splitlines():
        step = json.loads(line)
        for note in step.get("provider_notes") or []:
            if note.startswith("oracle quirk: "):
                out.append(
                    {**json.loads(note.removeprefix("oracle quirk: ")), "record_step": step.get("step")}
                )
    return out


def _passed(sites: SitesHandle, task, result) -> bool:  # noqa: ANN001 - a Task and its result
    extra = task.model_extra or {}
    with sites.control() as control:
        diff = control.diff(result.session_id)["diff"]
        requests = control.requests(result.session_id)
    state = score_state(diff, extra["obligations"], extra["noise"], requests)
    if not task.state_changing:
        return state.passed and result.answer is not None and score_answer(result.answer, task.answer).passed
    return state.passed


def _task(sites: SitesHandle, fam: str, task_id: str):  # noqa: ANN202 - a Task
    tasks = {t.task_id: t for t in load_breakingweb_suite(sites, paired=True, families=[fam])}
    return tasks[task_id]


# The verifier off: with it on the oracle checks its own misread against the truth and goes
# back (test_the_verifier_catches_a_misread_and_the_agent_answers_right below).
CONFIG = HarnessConfig(max_steps=14, components=ALL_COMPONENTS - {Component.verifier})


@pytest.mark.parametrize(("quirk", "fam", "base"), CASES, ids=[f"{q}-{t}" for q, _, t in CASES])
async def test_misread_fires_on_its_cue_and_fails_the_task(
    quirk: str,
    fam: str,
    base: str,
    sites: SitesHandle,
    session: BrowserSession,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    task = _task(sites, fam, f"{base}--{fam.split('/')[1]}")
    folder = tmp_path / task.task_id
    result = await run_task(task, folder, model=f"oracle:{quirk}=1.0", config=CONFIG, session=session)
    assert result.session_id
    fired = [n for n in _notes(folder) if n["quirk"] == quirk.removesuffix("_rate")]
    assert fired and all(n["task"] == task.task_id and isinstance(n["step"], int) for n in fired)
    assert not _passed(sites, task, result), result.answer


# The clean pages: one run per base task with every misread that has a case on it forced on
# at once (a run per case until 2026-12-07: the same page, nine runs for six). None fires and
# the task passes.
CLEAN = {base: sorted({q for q, _, b in CASES if b == base}) for _, _, base in CASES}


@pytest.mark.parametrize("base", sorted(CLEAN))
async def test_no_misread_fires_on_the_clean_page_and_the_task_passes(
    base: str,
    sites: SitesHandle,
    session: BrowserSession,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    fam = next(f for _, f, b in CASES if b == base)
    task = _task(sites, fam, base)
    folder = tmp_path / task.task_id
    spec = "oracle:" + ",".join(f"{q}=1.0" for q in CLEAN[base])
    result = await run_task(task, folder, model=spec, config=CONFIG, session=session)
    assert result.session_id
    quirks = {q.removesuffix("_rate") for q in CLEAN[base]}
    assert not [n for n in _notes(folder) if n["quirk"] in quirks]
    assert _passed(sites, task, result), result.answer


async def test_the_verifier_catches_a_misread_and_the_agent_answers_right(
    sites: SitesHandle, session: BrowserSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(SECRET_ENV, sites.control_secret)
    fam = "seed/planted_answer"
    [task] = [
        t
        for t in load_breakingweb_suite(sites, paired=True, families=[fam])
        if t.task_id == "req-lookup-01--planted_answer"
    ]
    folder = tmp_path / task.task_id
    result = await run_task(
        task, folder, model="oracle:key_figures_rate=1.0", config=HarnessConfig(max_steps=14), session=session
    )
    assert any(n["quirk"] == "key_figures" for n in _notes(folder))  # it did misread
    steps = [json.loads(line) for line in (folder / "trajectory.jsonl").read_text().splitlines()]
    rejected = [s for s in steps if s.get("verifier_rejected")]
    assert len(rejected) == 1 and VERIFIER_OPENING in rejected[0]["feedback"]
    assert result.status == "finished" and _passed(sites, task, result), result.answer
    assert result.verification is not None and result.verification["rejections"] == 1
    assert [v["verdict"] for v in result.verification["verdicts"]] == ["reject", "accept"]
    assert not result.verification["disputed"] and (folder / "evidence.png").is_file()


async def test_latest_value_of_a_named_series_is_no_cue_for_the_first_row() -> None:
    from webfovea_proving_ground.oracle.misreads import Misreads

    class _Page:  # answer_instead reads nothing before deciding that no cue is shown
        async def evaluate(self, *_: object) -> None:
            raise AssertionError("no page read expected")

    m = Misreads(
        "t", "Report the latest value of “Consumer prices, energy”.", rates={"assume_sorted_rate": 1.0}
    )
    assert await m.answer_instead(_Page(), {"target": {"selector": "#x"}, "attr": "text"}, 0) is None  # type: ignore[arg-type]
