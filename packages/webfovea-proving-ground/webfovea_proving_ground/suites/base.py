"""What every built-in task builder shares: the seeded world, the task constructor (`add`) and
the lookups that compute answers from the data the pages render."""

from __future__ import annotations

from typing import Any, TypedDict, Unpack

from webfovea.task import Task
from webfovea_proving_ground.plan import (
    DASH,
    L,
    Step,
    any_fetch,
    click,
    last_document,
    text_has,
    with_pointer_class,
)
from webfovea_proving_ground.sites.data import BY_CODE, World, world
from webfovea_proving_ground.sites.stats import DEFAULTS, table_data

TOKEN_QUIRK = {"contaminate_from_step": 1}
TABLE = "/stats/api/table"
COMPARE = "/stats/api/compare"
# The human check passed: the data page was loaded after a verify call.
GATE_TRUTH = [
    any_fetch("/gate/verify", label="the human check was submitted"),
    last_document("/gate/data", label="the customs data page was reached"),
]


class TaskExtras(TypedDict, total=False):
    """What some tasks add: the oracle's `quirks`, and the `truth` of their navigation —
    predicates over their session's server-side request log (webfovea/predicates.py); tasks
    whose navigation the server cannot see declare none."""

    quirks: dict
    truth: list[dict]


class SuiteBase:
    def __init__(self, handle: Any, seed: int) -> None:
        self.handle = handle
        self.seed = seed
        self.w: World = world(seed)
        self.tasks: list[Task] = []

    def frame_origins(self) -> list[str]:
        """The proving ground's frame host belongs to every task's site (its documents open there)."""
        frame = getattr(self.handle, "frame_url", None)
        return [frame] if frame else []

    def add(
        self,
        tid: str,
        site: str,
        path: str,
        text: str,
        ans: str,
        category: str,
        classes: list[str],
        plan: list[Step],
        **extras: Unpack[TaskExtras],
    ) -> None:
        truth = extras.get("truth")
        extra = {"nav_truth": truth} if truth else {}
        quirks = extras.get("quirks")
        self.tasks.append(
            Task(
                task_id=tid,
                task_index=len(self.tasks),
                task=text,
                website=self.handle.url(path),
                answer=ans,
                category=category,
                failure_classes=with_pointer_class(classes, plan),
                plan=plan,
                site=site,
                quirks=dict(quirks or {}),
                allow_origins=self.frame_origins(),
                **extra,
            )
        )

    # -- statistics portal ------------------------------------------------------------------
    def cell(self, code: str, ind: str, period: str, freq: str = "M") -> str:
        rows = dict(table_data(self.w, code, ind, freq, DEFAULTS["from"], DEFAULTS["to"])["rows"])
        return rows[period]

    def period_differing(
        self, code: str, ind: str, candidates: list[str], freq: str = "M", other: str = DEFAULTS["country"]
    ) -> str:
        """The first period whose value differs from `other`'s (the default country: a failed select shows)."""
        for p in candidates:
            if self.cell(code, ind, p, freq) != self.cell(other, ind, p, freq):
                return p
        raise ValueError(f"no distinguishing period for {code}/{ind}")

    @staticmethod
    def code_of(option: object) -> str:
        return next(c.code for c in BY_CODE.values() if c.option == option)

    def row(self, period: str) -> dict:
        return L(f'#results tr[data-period="{period}"] td.value')

    # -- trade dashboard (cross-origin iframe) -------------------------------------------------
    def trade(self, code: str, key: str) -> str:
        t = self.w.trade[code]
        i = 5  # 2024 in DASH_YEARS
        if key == "partner":
            return str(t["partner"])
        if key == "balance":
            return f"{t['exports'][i] - t['imports'][i]:.1f}"  # type: ignore[index]
        return f"{t[key][i]:.1f}"  # type: ignore[index]

    def pick_country(self, code: str) -> list[Step]:
        c = BY_CODE[code]
        return [
            click(
                L(f'#country-list li[data-code="{code}"]', DASH),
                expect=text_has(L("#detail h3", DASH), c.option),
            )
        ]
