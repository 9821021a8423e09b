"""What the React environments' task templates share (apps/<env>/common.py wraps these with its
page, its sign-in line and its defaults): the obligations a change makes, the targets of a task
whose main write is one POST sent by the plan's last step, and one instance of a template as a
state task ending in "done"."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from webfovea_breakingweb.engine.spec import StatefulTask
from webfovea_breakingweb.tiers import actions, five_tier
from webfovea_proving_ground.plan import Step


def update(entity: str, rid: str, **fields: Any) -> dict[str, Any]:
    return {"entity": entity, "op": "update", "id": rid, "fields": fields}


def create(entity: str, **fields: Any) -> dict[str, Any]:
    return {"entity": entity, "op": "create", "count": 1, "fields": fields}


def write_targets(  # noqa: PLR0913 - the environment wrappers add only their page
    page: str, route: str, plan: list[Step], submit: str, readback: dict[str, Any], verify: str, *,
    listing: str | None = None, redo_from: int = 0, form: bool = False,
) -> dict[str, Any]:  # fmt: skip
    """The targets of a task whose main write is `route`, sent by the plan's last step; `listing`
    is the read that re-reads the collection (default: the route's parent)."""
    out: dict[str, Any] = {
        "main": ["POST", route], "write": ["POST", route], "list": ["GET", listing or route.rsplit("/", 1)[0]],
        "submit": submit, "submit_step": len(plan) - 1, "readback": readback,
        "verify_path": f"{page}?view={verify}", "redo_from": redo_from,
    }  # fmt: skip
    if form:
        out["form"] = True
    return out


def input_classes(plan: list[Step]) -> set[str]:
    """The failure classes a plan's own inputs make (fill, select)."""
    return {s["op"] for s in plan if s["op"] in ("fill", "select")}


def state_task(  # noqa: PLR0913 - the environment wrappers add only their app
    app: str, template: str, n: int, instruction: str, plan: list[Step], obligations: list[dict[str, Any]],
    targets: dict[str, Any], *, failure_classes: Iterable[str] | None = None, noise: Iterable[Any] = (),
) -> StatefulTask:  # fmt: skip
    """Instance `n` of `template` (id `<app>-<template>-NN`): a state task whose plan ends in "done"."""
    done = [*plan, {"op": "answer", "value": "done"}]
    return StatefulTask(
        task_id=f"{app}-{template}-{n:02d}", app=app, instruction=instruction,
        failure_classes=list(failure_classes) if failure_classes else sorted(input_classes(plan)),
        obligations=obligations, plan=done, noise=list(noise),
        targets={"template": template, "tier": five_tier(actions(plan)), **targets},
    )  # fmt: skip


# What a retrieval template is written for: the seed and server families that move or restate
# what it reads. The network and client families stay on the state tasks, whose plans and
# recovery plans they were built around.
READ_FAMILIES = ("seed/planted_answer", "seed/split_information", "server/scrambled_timestamps")


def read_task(  # noqa: PLR0913 - the environment wrappers add only their app
    app: str, template: str, n: int, instruction: str, plan: list[Step], answer: str, read: str,
    targets: dict[str, Any],
) -> StatefulTask:  # fmt: skip
    """Instance `n` of `template`: a retrieval task whose plan ends in an answer step; its one
    obligation is that the page fetched `read` (where the answer lives), so an answer guessed
    without looking fails. The seed and server families' targets (`figure`, `unit`,
    `order_sensitive`) come in `targets`, with `main` defaulting to that read."""
    return StatefulTask(
        task_id=f"{app}-{template}-{n:02d}", app=app, instruction=instruction,
        category="complete data retrieval", state_changing=False, answer=answer, plan=plan,
        obligations=[{"request": {"path": read, "method": "GET", "which": "any", "status": {"lt": 400},
                                  "label": "the page read where the answer is"}}],
        targets={"template": template, "tier": five_tier(actions(plan)), "main": ["GET", read], **targets},
        families=list(READ_FAMILIES),
    )  # fmt: skip


@dataclass(frozen=True)
class TaskKit:
    """One environment's `write_targets` and `make`: its app name, page, sign-in line, default
    re-read route (None: the write route's parent) and noise, given once."""

    app: str
    page: str
    sign_in: str
    listing: str | None = None
    noise: tuple[Any, ...] = ()  # what the canonical diff may change besides (email: "last")

    def write_targets(  # noqa: PLR0913 - the templates' own call shape
        self, route: str, plan: list[Step], submit: str, readback: dict[str, Any], verify: str, *,
        redo_from: int = 0, listing: str | None = None, form: bool = False,
    ) -> dict[str, Any]:  # fmt: skip
        """The targets of a task whose main write is `route`, sent by the plan's last step."""
        return write_targets(
            self.page, route, plan, submit, readback, verify,
            listing=listing or self.listing, redo_from=redo_from, form=form,
        )  # fmt: skip

    def read(  # noqa: PLR0913 - the templates' own call shape
        self, template: str, n: int, instruction: str, plan: list[Step], answer: str, read: str,
        targets: dict[str, Any],
    ) -> StatefulTask:  # fmt: skip
        """Instance `n` of a retrieval template (the sign-in line appended), reading `read`."""
        return read_task(self.app, template, n, instruction + self.sign_in, plan, answer, read, targets)

    def make(  # noqa: PLR0913 - the templates' own call shape
        self, template: str, n: int, instruction: str, plan: list[Step], obligations: list[dict[str, Any]],
        targets: dict[str, Any], failure_classes: list[str] | None = None,
    ) -> StatefulTask:  # fmt: skip
        """Instance `n` of `template`: a state task ending in "done", the sign-in line appended."""
        return state_task(
            self.app, template, n, instruction + self.sign_in, plan, obligations, targets,
            failure_classes=failure_classes, noise=self.noise,
        )  # fmt: skip
