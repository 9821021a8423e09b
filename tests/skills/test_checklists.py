"""Task-type checklists: chosen by category or by the task's words, shown to the model with the
instruction only when the switch is on, recorded in result.json; a bad checklist file or folder
is refused with what is wrong."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.scripted import FINISH, ScriptedModel
from tests.support.servers import serve_pages
from webfovea.agent import run_task
from webfovea.config import make_config
from webfovea.skills.checklists import ChecklistError, choose, load, parse
from webfovea.task import Task

PAGE = "<html><body><h1>Unemployment</h1><p>The line chart peaks at 7.9 in 2020.</p></body></html>"
CHART_TASK = "What was the peak of the unemployment line chart, and in which year?"


def test_the_category_wins_then_the_words_then_nothing() -> None:
    lists = load()
    assert {c.name for c in lists} >= {"chart_reading", "table_lookup", "form_filling", "multi_source"}
    chosen = choose("compare the two charts", "form interaction", lists)
    assert chosen is not None and chosen[0].name == "form_filling" and "category" in chosen[1]
    chosen = choose(CHART_TASK, None, lists)
    assert chosen is not None and chosen[0].name == "chart_reading"
    chosen = choose("Book a room for two guests and submit the form", None, lists)
    assert chosen is not None and chosen[0].name == "form_filling"
    assert choose("hello there", None, lists) is None


def test_a_users_folder_adds_and_replaces_checklists(tmp_path: Path) -> None:
    (tmp_path / "chart_reading.md").write_text(
        "---\ntitle: Charts, our way\nkeywords: chart\n---\n- Ask the legend.\n"
    )
    (tmp_path / "map_reading.md").write_text(
        "---\ntitle: Map reading\nkeywords: map, county\n---\n- Read the key.\n"
    )
    lists = {c.name: c for c in load(str(tmp_path))}
    assert lists["chart_reading"].items == "- Ask the legend." and "map_reading" in lists
    with pytest.raises(ChecklistError, match="front matter"):
        parse("x", "- no front matter\n")
    with pytest.raises(ChecklistError, match="needs a title"):
        parse("x", "---\nkeywords: a\n---\n- item\n")
    with pytest.raises(ValueError, match="not a folder"):
        make_config(checklists="auto", checklist_dir=str(tmp_path / "missing"))


@pytest.mark.parametrize("mode", ["auto", "off"])
async def test_the_model_reads_the_checklist_only_when_it_is_on(tmp_path: Path, mode: str) -> None:
    model = ScriptedModel([FINISH])
    with serve_pages({"/": PAGE}) as site:
        task = Task(task_id="c1", task=CHART_TASK, website=site.url("/"))
        await run_task(task, tmp_path / "c1", model=model, config=make_config(checklists=mode))
    shown = model.seen[0].task
    result = json.loads((tmp_path / "c1" / "result.json").read_text())
    assert shown.startswith(CHART_TASK)
    if mode == "auto":
        assert "Checklist for this kind of task (chart reading)" in shown and "axis titles" in shown
        assert result["checklist"]["name"] == "chart_reading" and "classified" in result["checklist"]["why"]
    else:
        assert shown == CHART_TASK and result["checklist"] is None
