"""The `breakingweb` suite: the stateful apps' tasks, clean and under intervention families.

Each task carries what only the proving ground and the scorer read (Task keeps unknown fields):
`plan` (the oracle's), `obligations` + `noise` (webfovea_breakingweb/obligations.py), `state_changing` (the
`verify` switch asks for a re-read on these), `readback` (an expectation that holds only when
the backend holds the change, as the page shows it), and for a variant `family`, `layer`,
`primitive`, `pair_of` (the clean task's id) and `recovery_plan` (what a careful agent does).

A variant's oracle plan: for `belief` families (forged success, save drift, planted answer)
the task's own plan — the oracle trusts what it sees, as a model would; the recovery plan is
what a verifying agent does. For the others (the degradation is in plain sight: an overlay, a
sign-in form, a 429 message, unit codes) the recovery plan, as a careful model would act.
"""

from __future__ import annotations

from typing import Any

from webfovea.task import SessionSpec, Task
from webfovea_breakingweb.apps import APPS
from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.environments import chosen_apps
from webfovea_breakingweb.interventions import FAMILIES, Family, family, official_families
from webfovea_breakingweb.pairing import DEFAULT_MAX_STEPS, DEFAULT_SEED, catalogue, variants
from webfovea_breakingweb.panels import check_panel, panel_ids
from webfovea_breakingweb.selection import tier_of
from webfovea_breakingweb.tasks import find_task, stateful_tasks
from webfovea_breakingweb.tiers import VALID
from webfovea_proving_ground.plan import check_suite, with_pointer_class


def _task(st: StatefulTask, handle: Any, seed: int, index: int, fam: Family | None) -> Task:
    app = APPS[st.app]
    tid = st.task_id if fam is None else f"{st.task_id}--{fam.short}"
    control_url = getattr(handle, "control_url", None)
    extra: dict[str, Any] = {
        "plan": st.plan,
        "obligations": st.obligations,
        "noise": st.noise,
        "state_changing": st.state_changing,
        # The verify gate re-reads here: the app's page opens on the list of saved records.
        "verify_url": handle.url(st.targets.get("verify_path", app.path)) if st.state_changing else None,
        "readback": st.targets.get("readback"),
        "stateful_app": st.app,
        "family": None,
    }
    if fam is not None:
        recovery = fam.recovery_plan(st)
        extra.update(
            family=fam.name,
            layer=fam.layer,
            primitive=fam.primitive,
            pair_of=st.task_id,
            recovery_plan=recovery,
            plan=st.plan if fam.belief else recovery,
        )
    if st.state_changing and "readback" in st.targets:
        extra["plan"] = _with_verify(extra["plan"], st, fam)
    return Task(
        task_id=tid,
        task_index=index,
        task=st.instruction,
        website=handle.url(app.path),
        answer=st.answer,
        category=st.category,
        failure_classes=with_pointer_class(st.failure_classes, extra["plan"]),
        site=st.app,
        session=SessionSpec(control_url=control_url, seed=seed, variant=None if fam is None else fam.name)
        if control_url
        else None,
        **extra,
    )


def _with_verify(plan: list[dict[str, Any]], st: StatefulTask, fam: Family | None) -> list[dict[str, Any]]:
    """The answer step's `verify` spec (docs/contracts.md §1), used only when the harness's
    verify gate asks: on the reloaded list, the readback must hold; else redo the task from its
    start — or, when the save stored an altered field, open the record and fix that field."""
    spec: dict[str, Any] = {"state": st.targets["readback"], "redo_from": int(st.targets.get("redo_from", 0))}
    drift = st.targets.get("drift")
    if fam is not None and fam.name == "server/save_drift" and drift and "edit_row" in drift:
        from webfovea_proving_ground.plan import L, click, fill

        submit = st.plan[int(st.targets["submit_step"])]["target"]
        spec = {
            "state": st.targets["readback"],
            "redo": [
                click(L(drift["edit_row"]), expect={"target": L(drift["input"]), "visible": True}),
                fill(L(drift["input"]), str(drift["value"])),
                click(submit, expect=st.targets["readback"]),
            ],
        }
    return [*plan[:-1], {**plan[-1], "verify": spec}]


__all__ = [
    "DEFAULT_MAX_STEPS",
    "DEFAULT_SEED",
    "breakingweb_task",
    "catalogue",
    "load_breakingweb_suite",
    "base_tasks",
    "select_families",
    "select_tiers",
]


def breakingweb_task(handle: Any, seed: int, task_id: str, family_name: str | None = None) -> Task:
    """One task as the suite builds it (clean, or its copy under `family_name`, full or short
    name), for outside runners such as the BrowserGym registration; KeyError for an unknown task,
    ValueError for an unknown family or one that does not apply to the task."""
    st = find_task(seed, task_id)
    if st is None or st.task_id != task_id:
        raise KeyError(f"no BreakingWeb task {task_id!r} at seed {seed}")
    fam = family(family_name) if family_name else None
    if fam is not None and (why := fam.refusal(st, APPS[st.app])):
        raise ValueError(why)
    return _task(st, handle, seed, 0, fam)


def select_families(names: list[str] | None) -> list[Family]:
    """The families named (full or short names; `all`: every registered family, this project's
    extensions too), or the official ones; ValueError names an unknown one."""
    if not names:
        return official_families()
    if "all" in names:
        return list(FAMILIES.values())
    return [family(n) for n in names]


def select_tiers(names: list[str] | None) -> list[str] | None:
    """The tiers named, checked (None: every tier); ValueError lists the valid ones."""
    if not names:
        return None
    unknown = [n for n in names if n not in VALID]
    if unknown:
        raise ValueError(f"unknown tier {', '.join(map(repr, unknown))}; tiers: {', '.join(VALID)}")
    return list(names)


def base_tasks(
    seed: int,
    pairing: str | None,
    runs: dict[str, list[Family]],
    *,
    apps: list[str] | None = None,
    tiers: list[str] | None = None,
    panel: str | None = None,
) -> list[StatefulTask]:
    """The base tasks a run covers, in the catalogue's order: the official selection for the
    official pairing (its panel's, with `panel`), else every task of the apps named (default:
    every registered app); only the tiers named, when named."""
    tasks = stateful_tasks(seed)
    if pairing == "official":
        ids = set(runs)
        if panel:
            ids = set(panel_ids(panel, runs, tasks, seed))
    else:
        covered = set(chosen_apps(apps)) if apps else set(APPS)
        ids = {tid for tid, t in tasks.items() if t.app in covered}
    wanted = set(select_tiers(tiers) or ())
    return [t for tid, t in tasks.items() if tid in ids and (not wanted or tier_of(t) in wanted)]


def load_breakingweb_suite(
    handle: Any,
    seed: int | None = None,
    *,
    paired: bool = False,
    families: list[str] | None = None,
    pairing: str | None = None,
    apps: list[str] | None = None,
    tiers: list[str] | None = None,
    panel: str | None = None,
) -> list[Task]:
    """Clean tasks; with a `pairing` (`official`: the official base tasks, each with its one
    variant; `sweep`, or `paired`: every applicable family) each followed by its variants; with
    `families` and no pairing, only those families' variants. `apps` (default: the official
    environments for the official pairing, every app otherwise), `tiers` and `panel` (a panel of
    the official pairing, panels.py) narrow the base tasks."""
    seed = getattr(handle, "seed", 0) if seed is None else seed
    pairing = pairing or ("sweep" if paired else None)
    if panel:
        check_panel(panel)
        if pairing not in (None, "official"):
            raise ValueError(f"a panel is drawn from the official pairing, not from {pairing!r}")
        pairing = "official"
    chosen = select_families(families)
    runs = variants(seed, pairing or "sweep", chosen, apps)
    out: list[Task] = []
    for st in base_tasks(seed, pairing, runs, apps=apps, tiers=tiers, panel=panel):
        if pairing or not families:
            out.append(_task(st, handle, seed, len(out), None))
        if pairing or families:
            for fam in runs.get(st.task_id, []):
                out.append(_task(st, handle, seed, len(out), fam))
    check_suite(out)
    return out
