"""The workflow cache's rules that need no browser: what a task's key is, an entry that cannot
be read, when two URLs are the same page, and the spellings a cached answer is looked for in."""

from __future__ import annotations

from pathlib import Path

from webfovea.cache.store import CachedStep, Entry, entry_path, load, save, task_key
from webfovea.cache.targets import url_matches
from webfovea.cache.workflow import answer_forms
from webfovea.task import Task


def _task(**kw: object) -> Task:
    base: dict[str, object] = {
        "task_id": "a",
        "task": "Find the price",
        "website": "http://127.0.0.1:8000/shop",
    }
    return Task.model_validate({**base, **kw})


def test_the_key_is_the_task_and_its_start_url_not_its_id() -> None:
    key = task_key(_task())
    assert task_key(_task(task_id="other")) == key
    assert task_key(_task(task="Find the prices")) != key
    assert task_key(_task(website="http://127.0.0.1:8001/shop")) != key
    assert task_key(_task(answer_schema={"type": "number"})) != key  # the model is told the schema too


def test_an_entry_round_trips_and_a_damaged_one_is_absent(tmp_path: Path) -> None:
    key = task_key(_task())
    step = CachedStep(
        "click", {"start_box": {"point": [10.0, 20.0], "target": None}}, "http://x/", None, [10.0, 20.0]
    )
    save(tmp_path, Entry(key, "Find the price", "http://x/", "vision", [step]))
    got = load(tmp_path, key)
    assert got is not None and got.steps == [step] and got.written_at
    entry_path(tmp_path, key).write_text('{"version": 1, "key": "' + key + '", "steps": [{"act')
    assert load(tmp_path, key) is None
    assert load(tmp_path, "0" * 64) is None


def test_the_same_page_allows_ids_and_query_values_to_differ() -> None:
    assert url_matches("http://h/order/1234/edit?tab=a", "http://h/order/98/edit?tab=b#top")
    assert url_matches("http://h/doc/3f9a0c1e7b", "http://h/doc/aa00bb11cc")
    assert not url_matches("http://h/order/1234/edit", "http://h/order/1234/view")
    assert not url_matches("http://h/list?page=2", "http://h/list?sort=name")
    assert not url_matches("http://h/a", "http://other/a")
    assert not url_matches("http://h/a", "http://h/a/b")


def test_a_cached_answer_is_looked_for_value_by_value_in_its_spellings() -> None:
    assert answer_forms("  RC-0451 ") == [["RC-0451"]]
    assert answer_forms('{"receipt": "RC-0451", "total": 12345.5}') == [
        ["RC-0451"],
        ["12345.5", "12,345.5", "12 345.5"],
    ]
    assert answer_forms('{"ok": true, "none": null, "list": [1, "a  b"]}') == [["1"], ["a b"]]
    assert answer_forms("") == []
