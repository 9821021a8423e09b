"""The oracle misreading what it is shown: five realistic, seeded quirks (off by default).

The default oracle reads a page right. These quirks make it misread a page the way the
agents of seed 003 (BreakingWeb, docs/glossary.md) did, each only when the page it sees carries the cue that
invites the misreading, so a clean page is never misread:

- `key_figures_rate` — seed 003, Table 1, backtracking: "401 session expiry, 409 conflict,
  planted wrong answer". A prominent "Key figures" box names the very series the instruction
  quotes: the oracle answers the box's number and never looks at the filtered table.
- `first_lookalike_rate` — seed 003, Table 1, grounding: "Identify the correct UI target among
  noise, decoys, and adversarial content ... decoys & aliases". When rows above the asked row
  carry the asked name plus a suffix ("… (provisional)"), it reads the first of them.
- `assume_sorted_rate` — seed 003, Table 1, planning: "scrambled timestamps". Asked which entry
  of a table is the latest / most recent (no row named in quotes), it takes the first row, as if the default order were
  newest first (on a clean page it is, so the answer does not change).
- `skip_legend_rate` — seed 003, Table 1, state tracking: "shuffled lists, contradictory
  updates, split information". The table shows a unit code and a note sends it to the Units
  page; it reports the code as shown instead (the plan's `detour: legend` step).
- `skip_dialog_rate` — seed 003 §2.2: the client layer's "overlays"; GUI-only agents' failures
  "are dominated by stalled interactions". A dialog covers the page; it does not close it and
  goes on clicking what is under it (the plan's `detour: dialog` step).
- `adjacent_input_rate` — seed 003, Table 1, grounding: "label-input misalignment". A form's
  label is drawn beside another input than its own: it types into the input beside the label.
- `skip_detour_rate` — seed 003 §4: "75% of the six agents' failures end with a declared success
  although the required change never happened". Any other recovery detour a plan marks
  (`detour: KIND` with its `cue` shown: the conflict message, the terms banner, the "More"
  menu, the confirmation dialog): it does not take it and goes on with the plan after it
  (`span`: the detour's steps).
- `take_trap_rate` — seed 003 §4, the same belief failures seen from the other side: a step a
  plan marks `trap: KIND` is what a careless agent does where its `cue` shows (submits again
  when the list still lacks its change; gives up when no row carries the exact name asked).
  The default oracle never takes it; with this quirk it does.

The rates travel in the model spec (`oracle:key_figures_rate=0.5,…`; `realistic=true` sets all
to MISREAD_REALISTIC). Each fires per (seed, task, quirk) from its own generator, so adding one
never shifts another. Every firing goes to `log` with the quirk, the step and what it did.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Page

from webfovea_proving_ground.oracle.grounding import expectation_holds

MISREAD_KNOBS = (
    "key_figures_rate",
    "first_lookalike_rate",
    "assume_sorted_rate",
    "skip_legend_rate",
    "skip_dialog_rate",
    "adjacent_input_rate",
    "skip_detour_rate",
    "take_trap_rate",
)
# Seed 003: interventions "overturn 39.6–68.0% of the tasks each agent solves cleanly"; a
# misreading that half the runs make sits in that band.
MISREAD_REALISTIC: dict[str, float] = dict.fromkeys(MISREAD_KNOBS, 0.5)

_QUOTED = re.compile(r"[“\"]([^”\"]{3,80})[”\"]")
_VALUE_ASKED = re.compile(r"\b(value|figure|number)\b", re.IGNORECASE)  # a box of numbers answers these only
_LATEST = re.compile(r"\b(latest|most recent(?:ly)?|newest|last released)\b", re.IGNORECASE)

# The key-figures box entry whose name is one of `names` (visible), with its value.
_KEY_FIGURE_JS = """
(names) => {
  const box = document.querySelector('#key-figures');
  if (!box || !box.offsetParent) return null;
  for (const kf of box.querySelectorAll('.kf')) {
    const name = (kf.querySelector('.name') || {}).innerText || '';
    if (names.includes(name.trim())) return {name: name.trim(), value: ((kf.querySelector('.value') || {}).innerText || '').trim()};
  }
  return null;
}
"""

# For the element at `sel` inside a table row: the same cell of another row — the first row
# that also shows a name the instruction quotes (`names`; a look-alike above the asked row), or
# the first data row (`names` null). `id` is that row's data-id.
_OTHER_ROW_JS = """
([sel, names]) => {
  const el = document.querySelector(sel);
  if (!el) return null;
  const tr = el.closest('tr'), table = el.closest('table');
  if (!tr || !table) return null;
  const at = Array.from(tr.children).indexOf(el.closest('td,th'));
  const rows = Array.from(table.querySelectorAll('tbody tr'));
  let pick = null;
  if (!names) pick = rows[0];
  else {
    const shown = names.filter((n) => tr.innerText.includes(n));
    if (shown.length) pick = rows.find((r) => shown.every((n) => r.innerText.includes(n)));
  }
  if (!pick || pick === tr || !pick.children[at]) return null;
  return {row: pick.dataset.id || '', own: tr.dataset.id || '', value: pick.children[at].innerText.trim()};
}
"""

# Whether what is drawn at the centre of `sel` is something else (a dialog left open over it).
_COVERED_JS = """
(sel) => {
  const el = document.querySelector(sel);
  if (!el) return false;
  const r = el.getBoundingClientRect();
  const top = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return !!top && top !== el && !el.contains(top) && !top.contains(el);
}
"""

# A form input whose label is drawn beside another input: that other input's id.
_ADJACENT_JS = """
(sel) => {
  const el = document.querySelector(sel);
  if (!el || !el.labels || !el.labels[0]) return null;
  const mid = (r) => (r.top + r.bottom) / 2;
  const lr = el.labels[0].getBoundingClientRect(), er = el.getBoundingClientRect();
  if (Math.abs(mid(lr) - mid(er)) < er.height / 2) return null;  // drawn beside its own input
  const form = el.closest('.fields') || document;
  let best = null, dist = Infinity;
  for (const o of form.querySelectorAll('input, select, textarea')) {
    const d = Math.abs(mid(o.getBoundingClientRect()) - mid(lr));
    if (d < dist) { dist = d; best = o; }
  }
  return best && best !== el && best.id && dist < er.height / 2 ? {id: best.id, label: el.labels[0].innerText.trim()} : null;
}
"""


@dataclass
class Misreads:
    task_id: str
    instruction: str
    seed: int = 0
    rates: dict[str, float] = field(default_factory=dict)
    log: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.fires: dict[str, bool] = {}
        for name in MISREAD_KNOBS:
            rate = float(self.rates.get(name, 0.0))
            if not 0.0 <= rate <= 1.0:
                raise ValueError(f"{name} must be between 0 and 1, got {rate!r}")
            draw = random.Random(f"oracle-misread:{self.seed}:{self.task_id}:{name}").random()
            self.fires[name] = draw < rate
        self.dialog_left_open = False  # it skipped closing a dialog: what lies under it stays hidden
        self.at = 0  # the plan step the oracle is on (set by the model)
        self.first_at: int | None = None  # the plan step of the first misreading

    def stop(self) -> int | None:
        """No more misreading (told to look again); the plan step of the first one, if any."""
        self.fires = dict.fromkeys(self.fires, False)
        self.dialog_left_open = False
        return self.first_at

    @classmethod
    def from_knobs(cls, task_id: str, instruction: str, seed: int, knobs: dict[str, Any]) -> Misreads:
        rates = dict(MISREAD_REALISTIC) if knobs.get("realistic") else {}
        rates.update({k: float(knobs[k]) for k in MISREAD_KNOBS if knobs.get(k) is not None})
        return cls(task_id=task_id, instruction=instruction, seed=seed, rates=rates)

    @property
    def any(self) -> bool:
        return any(self.fires.values())

    def _fired(self, knob: str, step: int, **data: Any) -> None:
        if self.first_at is None:
            self.first_at = self.at
        entry = {"quirk": knob.removesuffix("_rate"), "task": self.task_id, "step": step, **data}
        same = {k: v for k, v in entry.items() if k != "step"}
        if self.log and {k: v for k, v in self.log[-1].items() if k != "step"} == same:
            return  # a retry of the same misreading: one firing
        self.log.append(entry)

    # -- the answer ---------------------------------------------------------------------------

    async def answer_instead(self, page: Page, source: dict[str, Any], step: int) -> str | None:
        """The value a misreading oracle reports instead of the one at `source` (None: none;
        "" when the value is hidden under the dialog it left open: it cannot read it)."""
        sel = (source.get("target") or {}).get("selector")
        if self.dialog_left_open and sel and await page.evaluate(_COVERED_JS, sel):
            self._fired("skip_dialog_rate", step, covered=sel)
            return ""
        names = _QUOTED.findall(self.instruction)
        if self.fires["key_figures_rate"] and names and _VALUE_ASKED.search(self.instruction):
            got = await page.evaluate(_KEY_FIGURE_JS, names)
            if got:
                self._fired("key_figures_rate", step, series=got["name"], value=got["value"])
                return str(got["value"])
        if not sel or source.get("attr", "text") != "text" or (source.get("target") or {}).get("frame"):
            return None
        if self.fires["first_lookalike_rate"] and names:
            got = await page.evaluate(_OTHER_ROW_JS, [sel, names])
            if got:
                self._fired("first_lookalike_rate", step, row=got["row"], value=got["value"])
                return str(got["value"])
        # Only a question for the latest entry itself (no named row: "the latest value of “X”"
        # asks for X's row, which no one reads off the first row).
        if self.fires["assume_sorted_rate"] and not names and _LATEST.search(self.instruction):
            got = await page.evaluate(_OTHER_ROW_JS, [sel, None])
            if got:
                self._fired("assume_sorted_rate", step, row=got["row"], value=got["value"])
                return str(got["value"])
        return None

    async def lookalike_target(self, page: Page, target: dict[str, Any], step: int) -> dict[str, Any]:
        """A click or select in a table row: the same control in the first row that also shows
        the name the instruction quotes (a look-alike above the asked row), when there is one."""
        names = _QUOTED.findall(self.instruction)
        sel = target.get("selector")
        if not self.fires["first_lookalike_rate"] or not names or not sel or target.get("frame"):
            return target
        try:
            got = await page.evaluate(_OTHER_ROW_JS, [sel, names])
        except Exception:  # noqa: BLE001 - an unusual selector: read it as it is
            return target
        if not got or f'data-id="{got["own"]}"' not in sel:
            return target
        self._fired("first_lookalike_rate", step, row=got["row"], instead_of=got["own"])
        return {**target, "selector": sel.replace(f'data-id="{got["own"]}"', f'data-id="{got["row"]}"')}

    # -- detours --------------------------------------------------------------------------------

    async def skips_detour(self, page: Page, plan_step: dict[str, Any], step: int) -> str | None:
        """'legend' / 'dialog' / another kind when the oracle does not take the plan's detour
        here: the step is marked `detour` and its `cue` (the dialog, the note pointing to the
        Units page, an error message) is shown."""
        kind = plan_step.get("detour")
        knob = {"legend": "skip_legend_rate", "dialog": "skip_dialog_rate"}.get(
            str(kind), "skip_detour_rate" if kind else None
        )
        if knob is None or not self.fires[knob]:
            return None
        if not await expectation_holds(page, plan_step.get("cue")):
            return None
        self._fired(knob, step)
        self.dialog_left_open = self.dialog_left_open or kind == "dialog"
        return str(kind)

    async def takes_trap(self, page: Page, plan_step: dict[str, Any], step: int) -> bool:
        """True when the oracle takes the plan's `trap` step here (its cue shown, or none given)."""
        if not plan_step.get("trap") or not self.fires["take_trap_rate"]:
            return False
        if plan_step.get("cue") and not await expectation_holds(page, plan_step.get("cue")):
            return False
        self._fired("take_trap_rate", step, trap=str(plan_step["trap"]))
        return True

    # -- forms ------------------------------------------------------------------------------

    async def adjacent_target(self, page: Page, target: dict[str, Any], step: int) -> dict[str, Any]:
        """The input beside the target's label when the label is drawn beside another one."""
        if not self.fires["adjacent_input_rate"] or target.get("frame") or not target.get("selector"):
            return target
        try:
            got = await page.evaluate(_ADJACENT_JS, target["selector"])
        except Exception:  # noqa: BLE001 - an unusual selector: read it as it is
            return target
        if not got:
            return target
        self._fired("adjacent_input_rate", step, label=got["label"], typed_into=got["id"])
        return {**target, "selector": f"#{got['id']}"}
