"""The parts of a people's run that need no browser: the refusal without a display and the task
window's page (the instruction escaped, the condition never shown)."""

from __future__ import annotations

from pathlib import Path

import pytest

from webfovea_breakingweb.people.browser import HeadedBrowser, NoDisplay
from webfovea_breakingweb.people.pages import task_window


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
