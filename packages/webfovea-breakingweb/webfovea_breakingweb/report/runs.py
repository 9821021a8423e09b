"""The runs a report spans: each finished paired BreakingWeb run folder read from its
summary.json (and run.json for the observation), its pairs labelled with family, layer and
primitive, and the check that the runs can be compared at all (same catalogue, seed, pairing
and pairs) — a report over runs that drew different pairs would compare different tasks.

A people's run (`--harness human`, people/) is two runs here: `<label>-cold` and `<label>-warm`,
their rows read from each task's human_attempts.json (time and raw events kept on the rows);
its pairs (the Human-140 panel) need only be among the agents' pairs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from webfovea.record import TaskRow, read_summary_file
from webfovea_breakingweb.paired import Pair

VARIANT_SEP = "--"  # suite.py: a variant's id is <task>--<family short name>


class ReportError(ValueError):
    """Runs that cannot be reported together; the message says which and why."""


@dataclass
class Run:
    label: str
    folder: Path
    model: str
    harness: str  # webfovea | text | gui
    observation: str | None  # webfovea's own harness: vision | structured | hybrid
    meta: dict[str, Any]
    pairs: list[Pair]
    ids: list[str]  # each pair's intervention task id, <task>--<family short name>, as `pairs`
    attempt: str | None = None  # a people's run: cold | warm; None for an agent's

    @property
    def human(self) -> bool:
        return self.attempt is not None

    @property
    def variants(self) -> set[str]:
        return set(self.ids)

    @property
    def bases(self) -> list[str]:
        """Each pair's base task id, as `pairs`."""
        return [i.partition(VARIANT_SEP)[0] for i in self.ids]

    @property
    def gui_only(self) -> bool:
        """Seed 003's GUI-only agents see only screenshots: its gui harness, or ours in vision."""
        return self.harness == "gui" or (self.harness == "webfovea" and self.observation == "vision")


def _families(block: dict[str, Any]) -> dict[str, tuple[str, str, str]]:
    """{short name: (family, layer, primitive)}: the registry, then the run's own per_family
    block (a family the run knew that this checkout does not)."""
    from webfovea_breakingweb.interventions import FAMILIES

    out = {}
    for name, fam in (block.get("per_family") or {}).items():
        short = name.split("/", 1)[-1]
        out[short] = (name, str(fam.get("layer", "")), str(fam.get("primitive", "")))
    for fam in FAMILIES.values():
        out[fam.short] = (fam.name, fam.layer, fam.primitive)
    return out


def run_pairs(rows: dict[str, TaskRow], block: dict[str, Any]) -> dict[str, Pair]:
    """{variant id: its Pair} for every variant whose clean run is in the rows (a family this
    checkout does not know and the run did not describe: layer and primitive `?`)."""
    known = _families(block)
    out = {}
    for tid, row in sorted(rows.items()):
        base, sep, short = tid.partition(VARIANT_SEP)
        if sep and base in rows:
            name, layer, prim = known.get(short, (short, "?", "?"))
            out[tid] = Pair(name, layer, prim, rows[base], row)
    return out


def _observation(folder: Path) -> str | None:
    try:
        cfg = json.loads((folder / "run.json").read_text(encoding="utf-8")).get("config") or {}
    except (OSError, ValueError):
        return None
    obs = cfg.get("observation")
    return str(obs) if obs else None


def _attempt_rows(folder: Path, rows: dict[str, TaskRow], which: str) -> dict[str, TaskRow]:
    """Each task's `which` attempt as a summary row (time and raw events kept on it)."""
    from webfovea_breakingweb.people.attempts import read_attempts

    out = {}
    for tid in rows:
        rec = read_attempts(folder / tid)
        a = rec.get(which) if rec is not None else None
        if a is None:
            raise ReportError(f"{folder / tid}: no {which} attempt in human_attempts.json")
        out[tid] = TaskRow(
            status=a.status,
            answer=a.answer,
            score=a.score,
            passed=a.passed,
            seconds=a.seconds,
            events=a.events.total,
            ending=a.ending,
        )
    return out


def load_spec(spec: str) -> list[Run]:
    """An agent's run, or a people's run as its cold and warm runs."""
    run = load_run(spec)
    if run.harness != "human":
        return [run]
    label = spec.partition("=")[2] or "human"
    found = read_summary_file(run.folder)
    assert found is not None
    summary = found[0]
    block = (summary.extensions or {}).get("breakingweb") or {}
    out = []
    for which in ("cold", "warm"):
        pairs = run_pairs(_attempt_rows(run.folder, dict(summary.per_task), which), block)
        out.append(
            Run(
                f"{label}-{which}",
                run.folder,
                "human",
                "human",
                None,
                run.meta,
                list(pairs.values()),
                list(pairs),
                which,
            )
        )
    return out


def load_run(spec: str) -> Run:
    """`RUN` or `RUN=LABEL`: a finished paired BreakingWeb run folder."""
    folder, _, label = spec.partition("=")
    path = Path(folder)
    found = read_summary_file(path)
    if found is None:
        raise ReportError(f"{path}: no summary.json (is it a finished `webfovea bench` run?)")
    summary = found[0]
    meta = summary.meta.model_dump() if summary.meta else {}
    if meta.get("suite") != "breakingweb" or not meta.get("paired"):
        raise ReportError(f"{path}: not a paired BreakingWeb run (`bench breakingweb --pairing official`)")
    block = (summary.extensions or {}).get("breakingweb") or {}
    pairs = run_pairs(dict(summary.per_task), block)
    if not pairs:
        raise ReportError(f"{path}: no clean/intervention pair with both runs")
    harness = str(meta.get("harness") or "webfovea")
    obs = _observation(path) if harness == "webfovea" else None
    if harness == "webfovea":
        obs = obs or "vision"  # config.py's default
    run = Run(
        label, path, str(meta.get("model") or "?"), harness, obs, meta, list(pairs.values()), list(pairs)
    )
    if not label:
        run.label = ("v-" if run.gui_only else "") + run.model
    return run


def incomparable(runs: list[Run]) -> list[str]:
    """Why these runs cannot be reported together (empty: they can): the catalogue version,
    seed and pairing their summaries record, and the pairs they ran."""
    agents = [r for r in runs if not r.human]
    ref = agents[0] if agents else runs[0]
    why = []
    for key, what in (("catalogue", "catalogue version"), ("seed", "seed"), ("pairing", "pairing")):
        seen: dict[str, list[str]] = {}
        for r in runs:
            value = r.meta.get(key)
            if value is None and key == "catalogue":
                continue  # a run from before the fingerprint was recorded: the pairs decide
            seen.setdefault(str(value), []).append(str(r.folder))
        if len(seen) > 1:
            parts = "; ".join(f"{k}: {', '.join(v)}" for k, v in seen.items())
            why.append(f"different {what} ({parts})")
    ref_pairs = ref.variants
    for r in runs:
        mine = r.variants
        if r is ref or (r.human and mine <= ref_pairs):  # a people's panel: a subset of the pairs
            continue
        if mine != ref_pairs:
            only_ref, only_mine = sorted(ref_pairs - mine), sorted(mine - ref_pairs)
            why.append(
                f"different pairs: {r.folder} lacks {len(only_ref)} of {ref.folder}'s "
                f"({', '.join(only_ref[:3]) or '-'}) and has {len(only_mine)} it lacks "
                f"({', '.join(only_mine[:3]) or '-'})"
            )
    return why


def load_runs(specs: list[str]) -> list[Run]:
    if not specs:
        raise ReportError("give at least one run folder")
    runs = [r for s in specs for r in load_spec(s)]
    why = incomparable(runs)
    if why:
        raise ReportError("these runs cannot be compared: " + " | ".join(why))
    labels: dict[str, int] = {}
    for r in runs:
        labels[r.label] = labels.get(r.label, 0) + 1
    dup = sorted(k for k, n in labels.items() if n > 1)
    if dup:
        raise ReportError(f"two runs share the label {', '.join(dup)}: name them with RUN=LABEL")
    return runs
