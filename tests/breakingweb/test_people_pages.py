"""The parts of a people's run that need no browser: the refusal without a display, the task
window's page (the instruction escaped, the condition never shown) and what a resumed run
takes again."""

from __future__ import annotations

from pathlib import Path

import pytest

from webfovea.task import Task
from webfovea_breakingweb.people.attempts import Attempt, TaskAttempts, write_attempts
from webfovea_breakingweb.people.browser import HeadedBrowser, NoDisplay
from webfovea_breakingweb.people.pages import task_window
from webfovea_breakingweb.people.runner import run_people


def test_without_a_display_the_run_is_refused_before_a_window_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with pytest.raises(NoDisplay, match="no display"):
        HeadedBrowser.launch(tmp_path / "run")
    assert not (tmp_path / "run" / "human_browser.json").exists()


def test_the_task_window_escapes_the_instruction_and_hides_the_condition() -> None:
    page = task_window('Pay <b>"Bob"</b> & log out', "warm", 2, 4)
    assert "Pay &lt;b&gt;&quot;Bob&quot;&lt;/b&gt; &amp; log out" in page and "<b>" not in page
    assert "Task 2 of 4, second attempt (the app was reset)" in page
    assert "&quot;index&quot;: 2" in page and 'id="done"' in page and 'id="infeasible"' in page


def _taken_task(run: Path, tid: str, endings: tuple[str, ...]) -> Task:
    from webfovea.record import write_result
    from webfovea.record.schema import TaskResult

    (run / tid).mkdir(parents=True)
    write_result(run / tid, TaskResult(task_id=tid, status="finished", profile="harness-human"))
    attempts = [
        Attempt(attempt=w, ending=e, status="finished")  # type: ignore[arg-type]
        for w, e in zip(("cold", "warm"), endings, strict=False)
    ]
    write_attempts(run / tid, TaskAttempts(task_id=tid, attempts=attempts))
    return Task(task_id=tid, task="do it", website="http://x/")


def test_a_resumed_run_takes_again_only_the_tasks_left_unfinished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    run = tmp_path / "run"
    done = _taken_task(run, "a", ("done", "infeasible"))
    # every task taken: nothing to show, so no window is asked for
    assert run_people([done], run, {"handle": object(), "seed": 42}, time_cap_s=60) is True
    # the browser closed during b's cold attempt: b is taken again (and needs a window)
    left = _taken_task(run, "b", ("closed",))
    with pytest.raises(NoDisplay):
        run_people([done, left], run, {"handle": object(), "seed": 42}, time_cap_s=60)
