"""The two harness contracts of seed 003 (Appendix A.2–A.3) as BrowserGym action grammars, and
the check every action passes before BrowserGym runs it.

- `text`: BrowserGym's `bid` subset (Table 8: click('a51'), dblclick, fill, clear, focus, hover,
  select_option, press, drag_and_drop, scroll, …); a bid must be a quoted string shown in the
  current observation (the Table 20 text below): a numeric bid (`click(51)`) or an identifier the
  observation did not show is refused, never executed.
- `gui`: BrowserGym's `coord` subset (Table 9: mouse_click(x, y), mouse_dblclick, mouse_move,
  mouse_drag_and_drop, scroll_at, keyboard_type, keyboard_press, …); a point outside the
  screenshot is refused; on a family with a 0–1000 grid (viewports.py) points are rescaled to
  pixels here, at action time.
- both: the terminal verbs send_msg_to_user, report_infeasible and noop.

Which parameters are bids or points is read from BrowserGym's own action signatures (their
parameter names), so an action BrowserGym adds to a subset is checked without a change here.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from browsergym.core.action import functions as bg_functions
from browsergym.core.action.highlevel import HighLevelActionSet
from browsergym.core.action.parsers import NamedArgument, highlevel_action_parser
from browsergym.utils.obs import IGNORED_AXTREE_ROLES, flatten_axtree_to_str

from webfovea_breakingweb.gym.viewports import TEXT_VIEWPORT, Viewport, viewport_of

HARNESSES = ("text", "gui")
SUBSETS: dict[str, list[str]] = {"text": ["bid", "chat", "infeas"], "gui": ["coord", "chat", "infeas"]}
BID_PARAMS = ("bid", "from_bid", "to_bid")
POINT_PARAMS = (("x", "y"), ("from_x", "from_y"), ("to_x", "to_y"))
# Table 6 prints StaticText, never the text boxes inside it.
TABLE20_IGNORED_ROLES = [*IGNORED_AXTREE_ROLES, "InlineTextBox"]
_BID_LINE = re.compile(r"^\s*\[([^\]\s]+)\]")


class ActionRefused(Exception):
    """The action breaks the contract's grammar; str(e) is what `last_action_error` says."""


@cache
def action_set(harness: str) -> HighLevelActionSet:
    """The contract's BrowserGym action set (one action per step), for an agent's prompt."""
    if harness not in SUBSETS:
        raise ValueError(f"unknown harness {harness!r}; one of: {', '.join(HARNESSES)}")
    return HighLevelActionSet(subsets=SUBSETS[harness], multiaction=False, strict=False)


def table20_text(obs: dict[str, Any]) -> str:
    """The flattened accessibility tree filtered to its visible subset, every addressable node
    with its bid and clickable ones marked (Table 6's body, filtered as Table 20 says)."""
    return str(
        flatten_axtree_to_str(
            obs["axtree_object"],
            extra_properties=obs["extra_element_properties"],
            with_clickable=True,
            filter_visible_only=True,
            ignored_roles=TABLE20_IGNORED_ROLES,
        )
    )


def shown_bids(tree_text: str) -> frozenset[str]:
    return frozenset(m.group(1) for line in tree_text.splitlines() if (m := _BID_LINE.match(line)))


@dataclass(frozen=True)
class Contract:
    harness: str
    viewport: Viewport
    model_family: str | None = None
    names: frozenset[str] = field(default_factory=frozenset)

    def check(self, action: str, shown: frozenset[str]) -> str:
        """The action BrowserGym should run (points rescaled), or ActionRefused."""
        calls = _parse(action)
        if len(calls) != 1:
            raise ActionRefused("empty action" if not calls else f"one action per step, got {len(calls)}")
        name, raw = calls[0]
        if name not in self.names:
            raise ActionRefused(
                f"{name}() is not in the {self.harness} contract's grammar: {', '.join(sorted(self.names))}"
            )
        args = _bind(name, raw)
        for p in BID_PARAMS:
            if p in args:
                self._check_bid(name, args[p], shown)
        for px, py in POINT_PARAMS:
            if px in args and py in args:
                args[px], args[py] = self._point(name, args[px], args[py])
        return f"{name}({', '.join(f'{k}={v!r}' for k, v in args.items())})"

    def _check_bid(self, name: str, bid: Any, shown: frozenset[str]) -> None:
        if not isinstance(bid, str):
            raise ActionRefused(
                f"{name}(): the bid {bid!r} is not a quoted string; write the bid as the "
                "observation shows it, e.g. click('a51')"
            )
        if bid not in shown:
            raise ActionRefused(f"{name}(): the bid {bid!r} is not in the current observation")

    def _point(self, name: str, x: Any, y: Any) -> tuple[float, float]:
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (x, y)):
            raise ActionRefused(f"{name}(): a point is two numbers, got ({x!r}, {y!r})")
        vp = self.viewport
        w, h = (vp.grid, vp.grid) if vp.grid else (vp.width, vp.height)
        if not (0 <= x <= w and 0 <= y <= h):
            raise ActionRefused(f"{name}(): the point ({x}, {y}) is outside the screenshot ({w} × {h})")
        return vp.to_pixels(float(x), float(y))


def contract(harness: str, model_family: str | None = None) -> Contract:
    """The contract for `harness` (`text` or `gui`); `gui` needs a Table 7 model family."""
    aset = action_set(harness)
    if harness == "gui":
        if not model_family:
            raise ValueError("the gui contract needs model_family= (its viewport, Table 7)")
        return Contract("gui", viewport_of(model_family), model_family.lower(), frozenset(aset.action_set))
    return Contract("text", TEXT_VIEWPORT, None, frozenset(aset.action_set))


def _parse(action: str) -> list[tuple[str, list[Any]]]:
    try:
        found = highlevel_action_parser.search_string(action)
    except Exception as e:  # noqa: BLE001 - pyparsing raises several kinds
        raise ActionRefused(f"unreadable action: {e}") from None
    calls: list[tuple[str, list[Any]]] = sum(found.as_list(), [])
    return calls


def _bind(name: str, raw: list[Any]) -> dict[str, Any]:
    fn = getattr(bg_functions, name)
    pos = [a for a in raw if not isinstance(a, NamedArgument)]
    named = {a.name: a.value for a in raw if isinstance(a, NamedArgument)}
    try:
        bound = inspect.signature(fn).bind(*pos, **named)
    except TypeError as e:
        raise ActionRefused(f"{name}(): {e}") from None
    return dict(bound.arguments)
