"""Task files: every supported format loads; every bad input is one clear line."""

import importlib.util
import json

import pytest

from webfovea.eval.taskfile import TaskFileError, load_task_file

GOOD = [
    {
        "task_id": 1,
        "task_index": 0,
        "task": "Find the GDP of Viet Nam",
        "website": "https://stats.example.org/",
        "answer": "409.5",
    },
    {"task_id": "t2", "task_index": 1, "task": "Find the date", "website": "http://127.0.0.1:8000/x"},
]


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_webretriever_json_list(tmp_path):
    tasks = load_task_file(write(tmp_path, "tasks.json", json.dumps(GOOD)))
    assert [t.task_id for t in tasks] == ["1", "t2"]  # numeric ids become strings (folder names)
    assert tasks[0].answer == "409.5" and tasks[1].answer is None
    assert tasks[0].website == "https://stats.example.org/"
    assert tasks[1].task_index == 1


def test_jsonl(tmp_path):
    text = "\n".join(json.dumps(t) for t in GOOD) + "\n\n"
    tasks = load_task_file(write(tmp_path, "tasks.jsonl", text))
    assert [t.task for t in tasks] == ["Find the GDP of Viet Nam", "Find the date"]


def test_proving_ground_fields_and_known_site(tmp_path):
    item = dict(GOOD[0], site="stats", category="form interaction", failure_classes=["select"])
    tasks = load_task_file(write(tmp_path, "t.json", json.dumps([item])), known_sites=["stats", "gate"])
    assert tasks[0].site == "stats" and tasks[0].failure_classes == ["select"]


@pytest.mark.skipif(importlib.util.find_spec("yaml") is not None, reason="PyYAML installed")
def test_yaml_without_pyyaml_says_what_to_do(tmp_path):
    with pytest.raises(TaskFileError) as e:
        load_task_file(write(tmp_path, "t.yaml", "- task_id: a\n"))
    assert "PyYAML" in str(e.value) and "\n" not in str(e.value)


@pytest.mark.skipif(importlib.util.find_spec("yaml") is None, reason="PyYAML not installed")
def test_yaml(tmp_path):
    text = "- task_id: a\n  task: Find it\n  website: https://a.example/\n  answer: 3\n"
    tasks = load_task_file(write(tmp_path, "t.yml", text))
    assert tasks[0].task_id == "a" and tasks[0].answer == 3


BAD = [
    ("bad.json", '[{"task_id": "a", "task": "x",\n  "website": }]', ["invalid JSON", "line 2", "column 14"]),
    ("bad.jsonl", json.dumps(GOOD[0]) + "\n{oops\n", ["invalid JSON on line 2"]),
    ("obj.json", json.dumps({"tasks": GOOD}), ["expected a list of tasks", "dict"]),
    ("empty.json", "[]", ["task list is empty"]),
    ("str.json", json.dumps(["just text"]), ["task #0", "str"]),
    (
        "nofield.json",
        json.dumps([GOOD[0], {"task_id": "b", "task": "x"}]),
        ["task #1", "'b'", "missing field 'website'"],
    ),
    (
        "noid.json",
        json.dumps([{"task": "x", "website": "http://a/"}]),
        ["task #0", "missing field 'task_id'"],
    ),
    ("blank.json", json.dumps([dict(GOOD[1], task="")]), ["task #0", "missing field 'task'"]),
    ("dup.json", json.dumps([GOOD[1], GOOD[1]]), ["task #1", "duplicate task_id 't2'", "task #0"]),
    (
        "id.json",
        json.dumps([dict(GOOD[1], task_id="../etc")]),
        ["task #0", "'../etc'", "cannot be a folder name"],
    ),
    (
        "url.json",
        json.dumps([dict(GOOD[1], website="stats.example.org")]),
        ["task #0", "'stats.example.org'", "not an http(s) URL"],
    ),
    ("ftp.json", json.dumps([dict(GOOD[1], website="ftp://files.example/")]), ["not an http(s) URL"]),
    (
        "site.json",
        json.dumps([dict(GOOD[1], site="nowhere")]),
        ["task #0", "unknown site 'nowhere'", "known sites: gate, stats"],
    ),
    ("type.json", json.dumps([dict(GOOD[1], failure_classes="select")]), ["task #0", "'failure_classes'"]),
]


@pytest.mark.parametrize("name,text,parts", BAD, ids=[b[0] for b in BAD])
def test_bad_task_files_give_one_line(tmp_path, name, text, parts):
    p = write(tmp_path, name, text)
    with pytest.raises(TaskFileError) as e:
        load_task_file(p, known_sites=["stats", "gate"])
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(str(p)), msg
    for part in parts:
        assert part in msg, (part, msg)


def test_missing_file(tmp_path):
    with pytest.raises(TaskFileError, match="no such task file"):
        load_task_file(tmp_path / "nope.json")


def test_site_not_checked_without_known_sites(tmp_path):
    tasks = load_task_file(write(tmp_path, "t.json", json.dumps([dict(GOOD[1], site="anything")])))
    assert tasks[0].site == "anything"
