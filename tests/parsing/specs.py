"""The action specs the parser tests use: the paper's Table 3, plus a reference-agent subset.

Local to the tests on purpose, so the parser is checked against the grammar itself and
not against whatever the action registry currently offers.
"""

from __future__ import annotations

from webfovea.types import ParamSpec

BOX = ParamSpec("start_box", "point")

PAPER_SPECS: dict[str, list[ParamSpec]] = {
    "click": [BOX],
    "left_double": [BOX],
    "right_single": [BOX],
    "hover": [BOX],
    "drag": [BOX, ParamSpec("end_box", "point")],
    "scroll": [ParamSpec("start_box", "point", optional=True), ParamSpec("direction", "direction")],
    "wait": [],
    "select": [BOX, ParamSpec("option", "text")],
    "fill": [BOX, ParamSpec("content", "text")],
    "type": [ParamSpec("content", "text")],
    "hotkey": [ParamSpec("key", "key")],
    "find_text": [ParamSpec("text", "text")],
    "read_text": [ParamSpec("near", "text")],
    "back": [],
    "reload": [],
    "click_many": [ParamSpec("points", "points")],
    "finished": [ParamSpec("content", "answer", optional=True)],
}

# What the reference agent offered: basic mouse and keyboard actions only.
REFERENCE_SPECS: dict[str, list[ParamSpec]] = {
    name: PAPER_SPECS[name]
    for name in (
        "click",
        "left_double",
        "right_single",
        "drag",
        "scroll",
        "wait",
        "type",
        "hotkey",
        "finished",
    )
}

SPEC_SETS: dict[str, dict[str, list[ParamSpec]]] = {"paper": PAPER_SPECS, "reference": REFERENCE_SPECS}
