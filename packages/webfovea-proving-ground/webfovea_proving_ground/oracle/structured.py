"""The oracle in structured and hybrid modes: targets by the ref of the line it was given.

Held by `OracleModel` as `refs`. When the prompt's pointer actions take `ref=` the oracle names its
target by the ref printed on the element's line (webfovea_proving_ground/oracle/refs.py); when the line is not in
the text (truncated away) it searches with `find`; values the snapshot cannot show
(custom-font digits, text not in the snapshot) are brought into view with `hover(ref=…)` and
read with `look`, like a model would; a target with no line (a canvas, a chart's bar) is named
with `locate` and acted on at the point it returns (webfovea_proving_ground/oracle/locate.py). Hybrid mode falls
back to points when no line is found.

Quirks of a real model using refs, seeded and logged (recorded in run.json through the
quirk log): reusing the previous step's ref, inventing a ref, odd spellings of a ref.
"""

from __future__ import annotations

import random
from typing import Any

from webfovea_proving_ground.oracle.grounding import Located, locate, read_value
from webfovea_proving_ground.oracle.host import Emit, Host, View
from webfovea_proving_ground.oracle.locate import Locating, Reached
from webfovea_proving_ground.oracle.moves import Moves
from webfovea_proving_ground.oracle.refs import identify, main_prefix, norm, ref_in, row_ref
from webfovea_proving_ground.oracle.speech import call, thought
from webfovea_proving_ground.plan import Locator

REF_QUIRK_KNOBS: dict[str, float] = {"reuse_ref_rate": 0.0, "invent_ref_rate": 0.0, "odd_ref_rate": 0.0}
ODD_SPELLINGS = ("[ref={ref}]", "ref={ref}", "'[ref={ref}]'", "{ref}")


class Refs:
    """Naming targets by ref (and speaking them, quirks included), answering from the text."""

    def __init__(self, host: Host, moves: Moves, locating: Locating) -> None:
        self.host = host
        self.moves = moves
        self.locating = locating
        self.last_ref: str | None = None  # the ref named last, kept across steps (`reuse_ref`)

    def used(self, view: View) -> bool:
        """The prompt's pointer actions take `ref=`: targets are named by ref."""
        return view.prompt.takes("click", "ref")

    def only(self, view: View) -> bool:
        """Refs and no points (structured mode; hybrid also takes points)."""
        return self.used(view) and not view.prompt.takes("click", "start_box")

    async def reach_target(self, target: Locator, view: View, label: str | None = None) -> Reached:
        """(located, ref) when the target can be named now; else the emit that gets there (or None)."""
        state = self.host.state
        if self.used(view):
            loc = await locate(self.host.page, target)
            if loc is not None:
                ident = await identify(loc)
                ref = ref_in([view.snapshot or "", view.feedback or ""], ident, main_prefix(view.snapshot))
                if ref is not None:
                    return loc, ref
                if not view.has_image:
                    text = ident.name or ident.row
                    if text and view.prompt.offers("find") and state.finds < 2:
                        state.finds += 1
                        return Emit(
                            thought("find_text", view.rng, text=text), call("find", text=text), main=False
                        )
                    # No line shows it (a chart, a closed shadow root): locate it on the screenshot.
                    if view.prompt.offers("locate"):
                        return await self.locating.via_locate(target, view, label)
                    # Without locate: look, then point at what it saw.
                    if view.prompt.offers("look") and state.looks < 3:
                        state.looks += 1
                        return Emit(
                            "The snapshot does not list it; I'll look at the page.",
                            call("look", question=f"Where is {label or 'the element I need'}?"),
                            main=False,
                        )
                    return None
        got = await self.moves.reach(target, view, label=label)
        return (got, None) if isinstance(got, Located) else got

    def target_args(self, loc: Located, ref: str | None, view: View, index: int) -> dict[str, Any]:
        if ref is None:
            located = self.locating.take_located()
            if located is not None:  # the point the harness's locate returned
                return {"start_box": located}
            return {"start_box": self.moves.point(loc, view)}
        ref = self._ref_quirks(ref, index)
        self.last_ref = ref
        return {"ref": ref}

    def _ref_quirks(self, ref: str, index: int) -> str:
        knobs, quirks = self.host.knobs, self.host.reply_quirks
        rng = random.Random(f"oracle-ref:{knobs['seed']}:{quirks.task_id}:{index}")
        draws = [rng.random() for _ in range(3)]  # drawn every time: one knob never shifts another
        last = self.last_ref
        if last and last != ref and draws[0] < float(knobs["reuse_ref_rate"]):
            quirks.log.append({"call": index, "quirk": "reuse_ref", "ref": last, "meant": ref})
            return last
        if draws[1] < float(knobs["invent_ref_rate"]):
            invented = f"e{90000 + rng.randint(0, 9999)}"
            quirks.log.append({"call": index, "quirk": "invent_ref", "ref": invented, "meant": ref})
            return invented
        if draws[2] < float(knobs["odd_ref_rate"]):
            spelling = rng.choice(ODD_SPELLINGS)
            quirks.log.append({"call": index, "quirk": "odd_ref", "spelling": spelling})
            return "\x00" + spelling.format(ref=ref)  # written raw by `speak`
        return ref

    def speak(self, name: str, **args: Any) -> str:
        """`call()`, except an odd ref spelling is written as it is, unquoted."""
        raw = args.get("ref")
        if isinstance(raw, str) and raw.startswith("\x00"):
            args = {k: v for k, v in args.items() if k != "ref"}
            rest = call(name, **args)
            inner = rest[len(name) + 1 : -1]
            return f"{name}({raw[1:]}{', ' + inner if inner else ''})"
        return call(name, **args)

    async def answer(self, source: dict[str, Any], view: View, index: int) -> Emit | None:
        """Answer from what the text shows; else find/snapshot the row, or bring it into view and look."""
        host, state = self.host, self.host.state
        value = await read_value(host.page, source)
        texts = [view.snapshot or "", view.feedback or ""]
        # Custom-font digits are never in the text; a vision model's answer to look reads them.
        seen = texts if not source.get("decode") else [t for t in texts[1:] if t.startswith("look (")]
        if value and any(norm(value) in norm(t) for t in seen):
            return host.finish(view, index, value)
        if not self.only(view) or view.has_image:
            return None  # hybrid, or a look just answered: read it from the screenshot as vision does
        loc = await locate(host.page, source["target"])
        if loc is None:
            return host.finish(view, index, "", giveup=True)
        ident = await identify(loc)
        truncated = "omitted (" in (view.snapshot or "")
        if state.phase == 0 and truncated and ident.row and view.prompt.offers("find"):
            state.phase = 1
            return Emit(
                thought("find_text", view.rng, text=ident.row), call("find", text=ident.row), main=False
            )
        if state.phase == 1:
            state.phase = 2
            row = row_ref(view.feedback, ident.row)
            if row and view.prompt.offers("snapshot"):
                return Emit("I'll open that row of the table.", self.speak("snapshot", ref=row), main=False)
        if state.phase <= 2 and view.prompt.offers("look"):
            ref = ref_in(texts, ident, main_prefix(view.snapshot))
            state.phase = 3
            if ref is not None and view.prompt.offers("hover"):
                return Emit(
                    thought("hover", view.rng, label="the value"), self.speak("hover", ref=ref), main=False
                )
        if state.phase >= 3 and view.prompt.offers("look") and state.looks < 3:
            state.looks += 1
            return Emit(
                "The snapshot does not show this value; I'll look at the page.",
                call("look", question="What value is shown there?"),
                main=False,
            )
        return host.finish(view, index, "", giveup=True)
