"""server/save_drift: the first save stores one field altered (a date's day and month
swapped, a number's last digit dropped); the answer says "Saved" as usual. Verification:
only reading back what was stored shows it.

Real-world counterpart: a save that stores a value other than the one typed (a locale date swap, a lossy cast).
"""

from __future__ import annotations

from typing import Any

from webfovea_breakingweb.engine.spec import AppSpec, StatefulTask
from webfovea_breakingweb.interventions.base import Family, IvContext, Step, submit_index
from webfovea_proving_ground.plan import L, click, fill
from webfovea_proving_ground.sessions import Session


def alter(kind: str, value: Any) -> Any:
    if kind == "swap_day_month":
        y, m, d = str(value).split("-")
        return f"{y}-{d}-{m}"
    if kind == "truncate":
        return int(value) // 10 or 1
    raise ValueError(f"unknown drift {kind!r}")


def _install(ctx: IvContext) -> None:
    spec = ctx.task.targets["drift"]
    state = {"fired": False}

    def hook(session: Session, app: AppSpec, rid: str | None, fields: dict[str, Any]) -> dict[str, Any]:
        name = spec["field"]
        if state["fired"] or fields.get(name) in (None, ""):
            return fields
        try:
            changed = alter(spec["kind"], fields[name])
        except (ValueError, TypeError):
            return fields
        state["fired"] = True
        session.audit.append(
            {
                "layer": "server",
                "family": FAMILY.name,
                "event": "drift",
                "field": name,
                "sent": fields[name],
                "stored": changed,
            }
        )
        return {**fields, name: changed}

    ctx.session.extra.setdefault("save_hooks", []).append(hook)


def _recover(plan: list[Step], task: StatefulTask) -> list[Step]:
    i = submit_index(task)
    spec = task.targets["drift"]
    fix: list[Step] = []
    if "edit_row" in spec:  # a new record: open it for editing first
        fix.append(click(L(spec["edit_row"]), expect={"target": L(spec["input"]), "visible": True}))
    fix += [
        fill(L(spec["input"]), str(spec["value"])),
        click(plan[i]["target"], expect=task.targets["readback"]),
    ]
    return [*plan[: i + 1], *fix, *plan[i + 1 :]]


FAMILY = Family(
    name="server/save_drift",
    layer="server",
    primitive="verification",
    summary="the first save stores one field altered (day/month swapped, a digit dropped)",
    counterpart="a save that stores a value other than the one typed (a locale date swap, a lossy cast)",
    cue="the re-read record shows another value than was typed",
    recovery="open the record, correct the field, save again",
    detect="readback",
    needs=("drift", "submit_step", "readback"),
    state_only=True,
    belief=True,
    at_create=_install,
    recover=_recover,
)
