"""Runner safety (resume): the resume check covers the model, the configuration and every
task's field. A changed run is refused naming what changed; `fresh` sets the earlier run aside
and starts again. The proving ground's per-start ports are not a change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.runner.fake_agent import PAGE, make_tasks, run_task, starts
from tests.support.servers import serve_pages
from webfovea.config import make_config
from webfovea.runner.api import RunError, RunOptions, run_tasks
from webfovea.runner.identity import differences, run_identity
from webfovea.runner.supervisor import Policy
from webfovea_proving_ground.serve import start_sites
from webfovea_proving_ground.suites.builtin import load_builtin_suite

FAST = Policy(stall_s=6.0, launch_s=60.0, task_grace_s=20.0, poll_s=0.2, stop_grace_s=10.0)


def _opts(model: str = "fake", **kw: object) -> RunOptions:
    config = kw.pop("config", make_config())
    return RunOptions(
        model=model,
        config=config,
        task_timeout_s=20.0,
        show_progress=False,  # type: ignore[arg-type]
        policy=FAST,
        task_fn=run_task,
        **kw,
    )  # type: ignore[arg-type]


def test_a_changed_run_is_refused_naming_the_change_and_fresh_starts_again(tmp_path: Path) -> None:
    with serve_pages({"/": PAGE}) as srv:
        tasks = make_tasks(srv.url("/"), {"a": None, "b": None})
        first = run_tasks(tasks, tmp_path, _opts())
        assert first.complete
        changed_answer = [tasks[0].model_copy(update={"answer": "XX"}), tasks[1]]
        changed_site = [tasks[0], tasks[1].model_copy(update={"website": srv.url("/other")})]
        for kw, args, words in [
            ({}, ("other-model",), ['model "fake" -> "other-model"']),
            ({"config": make_config(max_steps=7)}, (), ["config max_steps 80 -> 7"]),
        ]:
            with pytest.raises(RunError) as info:
                run_tasks(tasks, tmp_path, _opts(*args, **kw))
            for w in words:
                assert w in str(info.value), str(info.value)
            assert "--fresh" in str(info.value)
        with pytest.raises(RunError, match=r"task a answer \"VN\" -> \"XX\""):
            run_tasks(changed_answer, tmp_path, _opts())
        with pytest.raises(RunError, match=r"task b website .*/other"):
            run_tasks(changed_site, tmp_path, _opts())
        assert [starts(tmp_path / t) for t in "ab"] == [1, 1]  # nothing ran in the refused resumes
        # The same run resumes (nothing to do); a fresh one sets the earlier aside and runs again.
        assert run_tasks(tasks, tmp_path, _opts()).counts["done"] == 2
        again = run_tasks(changed_answer, tmp_path, _opts("other-model", fresh=True))
    assert again.complete and again.counts == {"pending": 2, "done": 0, "lost": 0, "requeued": 0}
    earlier = tmp_path / ".earlier" / "1"
    assert json.loads((earlier / "a" / "result.json").read_text())["model"] == "fake"
    assert (earlier / "queue.sqlite").exists() and (earlier / "tasks.json").exists()
    assert json.loads((tmp_path / "a" / "result.json").read_text())["model"] == "other-model"
    assert [starts(tmp_path / t) for t in "ab"] == [1, 1]


def test_the_proving_grounds_ports_are_not_a_change() -> None:
    idents = []
    for _ in range(2):
        with start_sites(seed=0) as h:
            tasks = load_builtin_suite(h, seed=0)[:5]
            aliases = {h.main_url: "http://proving-ground", h.frame_url: "http://proving-ground-frames"}
            idents.append(
                (
                    h.main_url,
                    run_identity("m", make_config(), tasks, aliases),
                    run_identity("m", make_config(), tasks),
                )
            )
    (url1, same1, raw1), (url2, same2, raw2) = idents
    assert url1 != url2
    assert differences(same1, same2) == []
    assert differences(raw1, raw2)  # without the aliases the ports would differ
