"""Which variants a run pairs with each base task, and the catalogue of what there is.

Two pairings (`webfovea bench breakingweb --pairing …`):
- `official` — the seed's design (seed 003 §3: "We pair every base task with one official
  intervention variant with one primary primitive"): the official environments' base tasks
  chosen by selection.py (per-environment quotas summing to 519, spread over the five tiers),
  each paired with one family, chosen deterministically by seed among the families that apply
  to it with primitive purity (purity.py: the family's primitive is not one the task already
  exercises). First each family, the one that fits the fewest tasks first, gets one task it
  applies to (so no family is crowded out); then the other tasks, in a seeded order
  (sha256(task|seed|order), so the environments' tasks interleave), each get among the families
  that apply to it the one used least so far (ties: the one that fits fewer tasks, then
  sha256(task|seed|family)), so the families spread evenly over the tasks;
- `sweep` — every applicable family on every task (`--paired`, the first design here).

Both take the official families (the seed's catalogue; `--families all` adds this project's
extensions) and, unless apps are named (`--apps`), the official environments registered
(environments.py); sweep without `--apps` keeps every registered app, as before.

`catalogue(seed)` reads the registries (apps, tasks, families), so an app or family added to
them appears in `--list` without a change here.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from typing import Any

from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.environments import (
    OFFICIAL_ENVIRONMENTS,
    QUOTAS,
    chosen_apps,
    extensions,
    missing_official,
    present_official,
)
from webfovea_breakingweb.interventions import FAMILIES, LAYERS, Family, official_families
from webfovea_breakingweb.purity import pure
from webfovea_breakingweb.selection import select, shortfall
from webfovea_breakingweb.tasks import stateful_tasks

PAIRINGS = ("official", "sweep")
DEFAULT_SEED = 42  # seed 003 §3: "runs use the public seed s=42"
DEFAULT_MAX_STEPS = 40  # seed 003 §3: "a fixed 40-action cap"


def applicable(task: StatefulTask, families: list[Family]) -> list[Family]:
    return [f for f in families if f.refusal(task, APPS[task.app]) is None]


def _tie(task_id: str, seed: int, name: str) -> str:
    return hashlib.sha256(f"{task_id}|{seed}|official|{name}".encode()).hexdigest()


def official(
    seed: int, families: list[Family] | None = None, apps: Sequence[str] | None = None
) -> dict[str, Family]:
    """{base task id: its one official family} over the official selection of `apps` (default:
    the official environments registered)."""
    chosen = official_families() if families is None else families
    tasks = stateful_tasks(seed)
    covered = set(chosen_apps(apps))
    fits = {
        tid: [f for f in applicable(t, chosen) if pure(f, t)]
        for tid, t in sorted(tasks.items())
        if t.app in covered
    }
    fits = {tid: fits[tid] for tid in select(tasks, {tid for tid, fams in fits.items() if fams}, seed)}
    used: Counter[str] = Counter()
    out: dict[str, Family] = {}
    # First every family gets one task, the rarest first, so a family that fits only a few tasks
    # is not crowded out of them by the broad ones (it would then never be measured).
    reach = Counter(f.name for fams in fits.values() for f in fams)
    for fam in sorted(chosen, key=lambda f: (reach[f.name], f.name)):
        free = [tid for tid, fams in fits.items() if tid not in out and fam in fams]
        if free:
            tid = min(free, key=lambda t: _tie(t, seed, fam.name))
            out[tid] = fam
            used[fam.name] += 1
    # The rest in a seeded order, not by id: in id order an app's tasks come in one run, and a
    # family that fits only some apps (the seed's decoys and aliases) would fall behind there.
    for tid in sorted(fits, key=lambda t: _tie(t, seed, "order")):
        fams = fits[tid]
        if tid in out or not fams:
            continue
        # Equally used: the family that fits fewer tasks first (it has fewer chances left).
        pick = min(fams, key=lambda f: (used[f.name], reach[f.name], _tie(tid, seed, f.name)))
        used[pick.name] += 1
        out[tid] = pick
    return dict(sorted(out.items()))


def variants(
    seed: int, pairing: str, families: list[Family] | None = None, apps: Sequence[str] | None = None
) -> dict[str, list[Family]]:
    """{base task id: the families it runs under} for a pairing (sweep: over `apps`, default
    every registered app)."""
    if pairing not in PAIRINGS:
        raise ValueError(f"unknown pairing {pairing!r}; use {' or '.join(PAIRINGS)}")
    if pairing == "official":
        return {tid: [f] for tid, f in official(seed, families, apps).items()}
    chosen = official_families() if families is None else families
    covered = set(chosen_apps(apps)) if apps else set(APPS)
    return {tid: applicable(t, chosen) for tid, t in stateful_tasks(seed).items() if t.app in covered}


def _family_row(fam: Family, apps: list[str], tasks: int, official_tasks: int) -> dict[str, Any]:
    return {
        "name": fam.name,
        "layer": fam.layer,
        "primitive": fam.primitive,
        "summary": fam.summary,
        "cue": fam.cue,
        "recovery": fam.recovery,
        "counterpart": fam.counterpart,
        "detect": fam.detect,
        "belief": fam.belief,
        "own": fam.own,
        "official": fam.official,
        "apps": apps,
        "tasks": tasks,
        "official_tasks": official_tasks,
    }


def catalogue_fingerprint() -> str:
    """A short hash of what the catalogue holds — every family (name, layer, primitive, belief)
    and every base task (id, app) — recorded in a paired run's meta so that runs of different
    catalogue versions are not reported together (report/runs.py)."""
    fams = sorted(f"{f.name}|{f.layer}|{f.primitive}|{f.belief}" for f in FAMILIES.values())
    tasks = sorted(f"{t.task_id}|{t.app}" for t in stateful_tasks(DEFAULT_SEED).values())
    return hashlib.sha256("\n".join([*fams, "", *tasks]).encode()).hexdigest()[:12]


def catalogue(seed: int = DEFAULT_SEED) -> dict[str, Any]:
    """Apps, base tasks, families (per layer), pairs, the official environments (present and
    missing), the composition tables and the panels, as `--list --json` prints them."""
    from webfovea_breakingweb.composition import composition
    from webfovea_breakingweb.panels import human_140

    tasks = stateful_tasks(seed)
    sweep = variants(seed, "sweep", list(FAMILIES.values()))
    off = official(seed)
    panel = human_140(off, tasks, seed)
    per_app: dict[str, dict[str, int]] = {}
    for t in tasks.values():
        row = per_app.setdefault(t.app, {"tasks": 0, "state_changing": 0, "retrieval": 0})
        row["tasks"] += 1
        row["state_changing" if t.state_changing else "retrieval"] += 1
    families = []
    for fam in FAMILIES.values():
        on = [tid for tid, fams in sweep.items() if fam in fams]
        apps = sorted({tasks[tid].app for tid in on})
        families.append(_family_row(fam, apps, len(on), sum(f is fam for f in off.values())))
    official_fams = official_families()
    return {
        "seed": seed,
        "environments": {
            "official": list(OFFICIAL_ENVIRONMENTS),
            "present": present_official(),
            "missing": missing_official(),
            "extensions": extensions(),
            "quotas": dict(QUOTAS),
            "short_of_quota": shortfall(list(off), tasks),
        },
        "counts": {
            "apps": len(APPS),
            "base_tasks": len(tasks),
            "official_base_tasks": len(off),
            "families": len(FAMILIES),
            "official_families": len(official_fams),
            "families_per_layer": {layer: sum(f.layer == layer for f in official_fams) for layer in LAYERS},
            "pairs": {"official": len(off), "sweep": sum(len(v) for v in sweep.values())},
        },
        "apps": [
            {
                "name": a.name,
                "title": a.title,
                "path": a.path,
                "official": a.name in OFFICIAL_ENVIRONMENTS,
                **per_app.get(a.name, {"tasks": 0}),
            }
            for a in APPS.values()
        ],
        "tasks": [
            {
                "id": t.task_id,
                "app": t.app,
                "tier": t.targets.get("tier"),
                "state_changing": t.state_changing,
                "families": len(sweep[t.task_id]),
                "official": off[t.task_id].name if t.task_id in off else None,
            }
            for t in tasks.values()
        ],
        "families": families,
        "composition": composition(off, tasks, sum(len(v) for v in panel.values())),
        "panels": {"human-140": panel},
    }


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def families_markdown() -> str:
    """The catalogue table of docs/breakingweb.md, generated from the registry (a test checks the
    doc holds exactly this; `python -m webfovea_breakingweb.pairing` prints it)."""
    lines = [
        "| family | layer | primitive | mechanism | cue (detected by) | recovery | real-world counterpart |",
        "|---|---|---|---|---|---|---|",
    ]
    for f in FAMILIES.values():
        name = f"`{f.name}`" + (" (belief)" if f.belief else "") + (" *" if f.own else "")
        lines.append(
            f"| {name} | {f.layer} | {f.primitive} | {_cell(f.summary)} | {_cell(f.cue)} ({f.detect}) "
            f"| {_cell(f.recovery)} | {_cell(f.counterpart)} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":  # the families table; with `composition`: the composition tables
    import sys

    if sys.argv[1:] == ["composition"]:
        from webfovea_breakingweb.composition import composition_markdown

        print(composition_markdown(catalogue(DEFAULT_SEED)["composition"]))
    else:
        print(families_markdown())
