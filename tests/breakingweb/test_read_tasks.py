"""The React environments' retrieval templates (apps/<env>/reads.py): they are what the three
official families that stress what a task reads — seed/planted_answer, seed/split_information,
server/scrambled_timestamps — apply to there, so the official catalogue uses every official
family (before them these three were used 0 times in the 519 pairs)."""

from __future__ import annotations

from collections import Counter

from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.engine.task_kit import READ_FAMILIES
from webfovea_breakingweb.environments import OFFICIAL_ENVIRONMENTS, OFFICIAL_PAIRS, QUOTAS
from webfovea_breakingweb.interventions import FAMILIES, official_families
from webfovea_breakingweb.pairing import official
from webfovea_breakingweb.tasks import stateful_tasks

SEED = 42


def test_every_official_family_is_used_in_the_official_catalogue_and_the_quotas_hold() -> None:
    pairs = official(SEED)
    used = Counter(f.name for f in pairs.values())
    assert sorted(f.name for f in official_families() if used[f.name] == 0) == []
    assert len(pairs) == OFFICIAL_PAIRS
    tasks = stateful_tasks(SEED)
    assert Counter(tasks[t].app for t in pairs) == Counter(QUOTAS)


def test_each_read_family_fits_read_tasks_of_several_environments() -> None:
    tasks = [
        t for t in stateful_tasks(SEED).values() if t.app in OFFICIAL_ENVIRONMENTS and not t.state_changing
    ]
    for name in READ_FAMILIES:
        fam = FAMILIES[name]
        envs = {t.app for t in tasks if fam.refusal(t, APPS[t.app]) is None}
        assert len(envs) >= 3, (name, sorted(envs))
    # Every environment's reads carry the families' targets, and a tier the purity rule lets them have.
    for env in OFFICIAL_ENVIRONMENTS:
        reads = [t for t in tasks if t.app == env]
        assert reads, env
        for t in reads:
            assert t.answer and t.plan[-1]["op"] == "answer" and t.families == list(READ_FAMILIES)
            assert {"figure", "unit", "order_sensitive"} & set(t.targets), t.task_id
            assert t.targets["tier"] in ("T1", "T2", "T3"), t.task_id  # planning stays pure


def test_a_unit_task_names_a_code_the_legend_holds_and_its_answer_is_the_name() -> None:
    for t in stateful_tasks(SEED).values():
        if t.app in OFFICIAL_ENVIRONMENTS and "unit" in t.targets:
            units = {u["id"]: u["name"] for u in APPS[t.app].initial(t.task_id, SEED).units}  # type: ignore[attr-defined]
            assert units[t.targets["unit"]] == t.answer, t.task_id
