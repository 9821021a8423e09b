"""The official catalogue (seed 003: 519 pairs over seven environments, five tiers, one family
per base task with primitive purity) and its Human-140 panel, without a browser: exactly 519
pairs at seed 42 over the seven environments, 140 panel tasks, and an official environment
that is not registered named as missing."""

from __future__ import annotations

from collections import Counter

import pytest

from webfovea_breakingweb import environments
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.environments import (
    OFFICIAL_ENVIRONMENTS,
    OFFICIAL_PAIRS,
    QUOTAS,
    UnknownApp,
    chosen_apps,
    missing_official,
)
from webfovea_breakingweb.interventions import FAMILIES, official_families
from webfovea_breakingweb.pairing import catalogue, official, variants
from webfovea_breakingweb.panels import PER_CELL, human_140
from webfovea_breakingweb.purity import base_primitives, pure
from webfovea_breakingweb.selection import spread, tier_of
from webfovea_breakingweb.suite import load_breakingweb_suite
from webfovea_breakingweb.tasks import stateful_tasks
from webfovea_breakingweb.tiers import TIERS

SEED = 42


class _Handle:
    seed = SEED
    control_url = None

    def url(self, path: str) -> str:
        return "http://proving-ground" + path


def test_the_quotas_are_the_papers_519_over_its_seven_environments() -> None:
    assert OFFICIAL_ENVIRONMENTS == (
        "email",
        "finance",
        "ecommerce",
        "social",
        "healthcare",
        "education",
        "travel",
    )
    assert sum(QUOTAS.values()) == OFFICIAL_PAIRS == 519 and set(QUOTAS.values()) == {74, 75}


def test_spread_fills_short_tiers_from_the_others() -> None:
    assert spread(74, dict.fromkeys(TIERS, 100)) == {"T1": 15, "T2": 15, "T3": 15, "T4": 15, "T5": 14}
    assert spread(74, {"T1": 22, "T2": 36, "T3": 24, "T4": 12, "T5": 12}) == {
        "T1": 17, "T2": 17, "T3": 16, "T4": 12, "T5": 12,
    }  # fmt: skip
    assert spread(10, {"T1": 3, "T2": 2}) == {"T1": 3, "T2": 2}  # fewer than the quota: all


def test_official_is_519_pairs_over_the_seven_with_their_quota_tiers_and_purity() -> None:
    tasks = stateful_tasks(SEED)
    off = official(SEED)
    assert off == official(SEED)  # deterministic
    per_env = Counter(tasks[t].app for t in off)
    assert per_env == QUOTAS and len(off) == OFFICIAL_PAIRS == 519  # no extension app
    for env in per_env:
        tiers = Counter(tier_of(tasks[t]) for t in off if tasks[t].app == env)
        assert set(tiers) == set(TIERS) and max(tiers.values()) - min(tiers.values()) <= 5, tiers
    for tid, fam in off.items():
        assert fam.official and fam.refusal(tasks[tid], APPS[tasks[tid].app]) is None
        assert fam.primitive not in base_primitives(tasks[tid]), (tid, fam.name)
    # Families spread: every official family that can reach a selected task is used, and the
    # broad ones are within 2 of each other.
    uses = Counter(f.name for f in off.values())
    reachable = {
        f.name
        for tid in off
        for f in official_families()
        if f.refusal(tasks[tid], APPS[tasks[tid].app]) is None and pure(f, tasks[tid])
    }
    assert set(uses) == reachable
    top = max(uses.values())
    assert top - sorted(uses.values())[len(uses) // 2] <= 2


def test_a_long_task_is_never_paired_with_a_primitive_it_already_exercises() -> None:
    tasks = stateful_tasks(SEED)
    long_task = next(t for t in tasks.values() if t.targets.get("tier") == "T5")
    assert {"planning", "state tracking"} <= base_primitives(long_task)
    shuffled = FAMILIES["network/shuffled_list"]
    assert not pure(shuffled, long_task)
    declared = long_task.model_copy(update={"targets": {**long_task.targets, "primitives": ["grounding"]}})
    assert base_primitives(declared) == {"grounding"} and pure(shuffled, declared)
    with pytest.raises(ValueError, match="not among"):
        base_primitives(long_task.model_copy(update={"targets": {"primitives": ["luck"]}}))


def test_extensions_run_only_when_named() -> None:
    tasks = stateful_tasks(SEED)
    with_ext = official(SEED, apps=["social", "calendar"])
    assert {tasks[t].app for t in with_ext} == {"social", "calendar"}
    assert sum(tasks[t].app == "calendar" for t in with_ext) > QUOTAS["social"]  # an extension: all it has
    assert not any(f.own for f in official(SEED).values())  # the extension families too
    everything = list(FAMILIES.values())
    assert any(f.own for fams in variants(SEED, "sweep", everything).values() for f in fams)
    with pytest.raises(
        UnknownApp, match=r"social, healthcare, education, travel \(official\).*calendar"
    ) as e:
        chosen_apps(["social", "atlantis"])
    assert "email" in str(e.value)  # the official ones not registered yet are named too


def test_the_listing_shows_the_seven_and_names_a_missing_one(monkeypatch: pytest.MonkeyPatch) -> None:
    data = catalogue(SEED)
    envs = data["environments"]
    assert envs["present"] == list(OFFICIAL_ENVIRONMENTS) and envs["missing"] == []
    assert "calendar" in envs["extensions"]
    comp = data["composition"]
    assert comp["totals"]["pairs"] == data["counts"]["pairs"]["official"] == 519
    assert sum(comp["family"].values()) == comp["totals"]["pairs"]
    assert sum(map(sum, (r.values() for r in comp["environment_tier"].values()))) == comp["totals"]["pairs"]
    assert comp["paper"]["pairs"] == 519 and comp["paper"]["families"] == 29
    assert data["counts"]["official_families"] == len(official_families())
    # An official environment the registry lacks (a plug-in not installed) is named as missing.
    monkeypatch.setattr(environments, "OFFICIAL_ENVIRONMENTS", (*OFFICIAL_ENVIRONMENTS, "observatory"))
    assert missing_official() == ["observatory"]


def test_human_140_is_4_per_cell_and_stable_when_other_tasks_are_added() -> None:
    tasks = stateful_tasks(SEED)
    off = official(SEED)
    panel = human_140(off, tasks, SEED)
    assert len(panel) == 7 * 5 and sum(map(len, panel.values())) == 140
    assert set(panel) == {f"{env}/{tier}" for env in OFFICIAL_ENVIRONMENTS for tier in TIERS}
    assert all(len(ids) == PER_CELL for ids in panel.values())
    assert all(tasks[t].app == cell.split("/")[0] for cell, ids in panel.items() for t in ids)
    # Tasks added to other cells (the other environments') leave social's cells as they were.
    social_only = human_140([t for t in off if tasks[t].app == "social"], tasks, SEED)
    assert {c: v for c, v in social_only.items() if c.startswith("social/")} == {
        c: v for c, v in panel.items() if c.startswith("social/")
    }
    suite = load_breakingweb_suite(_Handle(), SEED, panel="human-140")
    clean = [t for t in suite if not (t.model_extra or {}).get("pair_of")]
    assert sorted(t.task_id for t in clean) == sorted(t for ids in panel.values() for t in ids)
    assert len(suite) == 2 * len(clean)  # each clean and under its official variant
