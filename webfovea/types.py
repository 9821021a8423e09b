"""Plain data that flows through a step: a parsed action, a rejection, a parsed reply, parameter kinds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # x1, y1, x2, y2: a region's top-left and bottom-right corners


@dataclass
class Action:
    """A parsed action, in the model's coordinate space (before mapping to CSS pixels).

    `args` keys are the UI-TARS keyword names: start_box, end_box (Point), direction,
    content, option, key, text, near (str), points (list[Point]), region (Box).
    """

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    raw: str = ""  # the action text as it was parsed (after cleaning)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "args": self.args}

    def __str__(self) -> str:  # how the action reads in history and records
        return self.raw or f"{self.name}({', '.join(f'{k}={v!r}' for k, v in self.args.items())})"


@dataclass
class Rejection:
    """A reply the harness will not execute, with the reason the model is told."""

    reason: str
    action: Action | None = None


@dataclass
class ParsedReply:
    raw: str
    cleaned: str  # the text kept in history: first Thought/Action pair, tokens stripped
    thought: str
    action: Action | None
    rejection: Rejection | None = None
    stripped_tokens: list[str] = field(default_factory=list)
    truncated: bool = False  # an invented continuation was dropped


# Argument kinds the parser understands. Each action spec lists (name, kind) pairs in
# positional order; the parser turns text into values of these kinds.
#   point     -> (x, y) floats   from <|box_start|>(x,y)<|box_end|>, (x,y), [x1,y1,x2,y2] (centre), <point>x y</point>
#   points    -> list of (x, y)  several points in any of the forms above
#   box       -> (x1, y1, x2, y2) floats: a region from (x1,y1,x2,y2), [x1,y1,x2,y2], (x1,y1),(x2,y2),
#                <bbox>x1 y1 x2 y2</bbox> or UI-TARS <|box_start|>(x1,y1),(x2,y2)<|box_end|>; corners as written
#   direction -> "up" | "down" | "left" | "right"
#   text      -> str             quoted string; escapes \n \' \" \\ decoded
#   answer    -> str             a text whose surrounding whitespace is layout, not content
#   key       -> str             lower-cased, spaces normalised: 'ctrl c'
#   ref       -> str             a snapshot reference: e12, f3e12 (also written [ref=e12], ref=e12)
ParamKind = str


@dataclass(frozen=True)
class ParamSpec:
    name: str
    kind: ParamKind
    optional: bool = False
