"""What the fingerprints say after an action, in the model's words: "No detectable change"
naming the element under the point, what changed (and where), what changed on its own and
what was still changing when the harness stopped waiting. feedback/notes.py puts these
sentences after an action's own result.
"""

from __future__ import annotations

from typing import Any

from webfovea.feedback.element import ElementInfo, Where
from webfovea.feedback.fingerprint import Change
from webfovea.feedback.quote import page_text

Point = tuple[float, float]
_SQ = "'"  # names and values are single-quoted in notes


def no_change(action: str, element: ElementInfo | None, shown: Point | None = None) -> str:
    where = element.sentence(shown) if element is not None else ""
    return f"No detectable change on the page after {action}. {where}".strip()


_STILL_WAITING = {
    "request": "a request the action started was still open after the {s:.1f} s the harness waits at most",
    "websocket": "the page's WebSocket had not answered after the {s:.1f} s the harness waits at most",
    "busy": (
        "the page still showed a busy sign (a spinner, a progress bar, a 'Loading' text) after the "
        "{s:.1f} s the harness waits at most: its answer may still come, so look again before relying on what is shown"
    ),
    "navigation": "the next page had not arrived after the {s:.1f} s the harness waits at most",
}


def kept_changing(seconds: float, held_by: str = "dom") -> str:
    """Why a wait ran out: only a page that really kept changing "never went quiet"."""
    if held_by in _STILL_WAITING:
        return "The wait ended unfinished: " + _STILL_WAITING[held_by].format(s=seconds) + "."
    return f"The page never went quiet: it kept changing for the {seconds:.1f} s the harness waits at most."


_KINDS = {
    "tabpanel": "tab panel",
    "listbox": "list box",
    "spinbutton": "spin box",
    "progressbar": "progress bar",
    "menuitem": "menu item",
    "menuitemcheckbox": "menu item",
    "alertdialog": "dialog",
    "tablist": "tab list",
    "radiogroup": "radio group",
    "treeitem": "tree item",
    "gridcell": "cell",
    "columnheader": "column header",
    "searchbox": "search box",
    "textbox": "text box",
    "combobox": "combo box",
    "a": "link",
    "td": "cell",
    "th": "column header",
    "tr": "table row",
    "li": "list item",
    "div": "area",
    "span": "text",
    "p": "paragraph",
}
_INPUTS = {
    "checkbox": "checkbox",
    "radio": "radio button",
    "range": "slider",
    "number": "number box",
    "date": "date field",
    "color": "colour picker",
}


def _kind(d: dict[str, Any]) -> str:
    if d.get("tag") == "input" and not d.get("role"):
        return _INPUTS.get(str(d.get("type")), "text box")
    kind = str(d.get("role") or d.get("kind") or d.get("tag") or "element")
    return _KINDS.get(
        kind, {"select": "dropdown", "textarea": "text box", "details": "disclosure"}.get(kind, kind)
    )


def named_element(d: dict[str, Any]) -> str:
    """How the notes name an element ({tag, role, name, type} of a fingerprint's target or a
    changed region): "the button 'Apply'", "the checkbox 'Email alerts'", "the link"."""
    return _named(d)


def _named(d: dict[str, Any]) -> str:
    name = str(d.get("name") or "").strip()
    return f"the {_kind(d)} {page_text(name, 80, _SQ)}" if name else f"the {_kind(d)}"


def _target(data: dict[str, Any]) -> str:
    who = _named(data["target"])
    said = []
    for key, (old, new) in data["moved"].items():
        if key == "size":
            said.append(f"changed size from {old} to {new}")
        elif key == "value":
            said.append(f"now has the value {page_text(new, 80, _SQ)}")
        elif key == "expanded":
            said.append("is now expanded" if new else "is now collapsed")
        elif new == "mixed":
            said.append(f"is now partly {key}")
        else:
            said.append(f"is now {key}" if new else f"is no longer {key}")
    return f"{who} {' and '.join(said)}"


def _regions(c: Change, what: str) -> str:
    regions = c.data.get("regions") or []
    names = [_named(r) for r in regions[:2]]
    if not names:
        return ""
    ordered = any(
        r.get("kind") in ("list", "listbox", "table", "grid", "tbody", "ul", "ol") for r in regions[:2]
    )
    if what == "text" and ordered:
        what = "content or order"
    return f"the {what} of {' and '.join(names)} changed"


def _change(c: Change) -> str:
    k = c.kind
    if k == "target":
        return _target(c.data)
    if k == "text":
        return _regions(c, "text") or "the text on the page changed"
    if k == "state":
        return _regions(c, "state") or "an element's state (selected, expanded, checked or hidden) changed"
    if k == "nodes":
        return _regions(c, "content") or "elements were added or removed"
    if k == "form":
        return "a form field's value changed"
    if k == "selection":
        text = c.data.get("text")
        return (
            f"the text {page_text(text, 80, _SQ)} is now selected" if text else "the text selection changed"
        )
    if k == "layout":
        return "the position or size of elements around the point changed"
    if k == "focus":
        return f"the keyboard focus moved to <{c.data.get('focus')}>"
    if k == "inner_scroll":
        return "a scrollable area moved"
    if k == "title":
        return f"the page title is now {page_text(c.data.get('title'), 120, _SQ)}"
    if k == "url":
        return (
            f"the address {'of the embedded frame ' if c.frame == 'child' else ''}is now {c.data.get('url')}"
        )
    if k == "look":
        return (
            "the look of the page around the point changed (not its text or state)"
            if c.data.get("near") and not c.data.get("unread")
            else "the look of the page around the point changed"
            if c.data.get("near")
            else "the look of the page changed"
        )
    if k == "scroll":
        return "the page scrolled"
    return ""


_OBVIOUS = {"url", "scroll", "frame"}
SAID_BY_ACTION = {"form", "target", "focus", "selection", "layout"}
_ORDER = (
    "target",
    "selection",
    "text",
    "form",
    "state",
    "layout",
    "nodes",
    "inner_scroll",
    "look",
    "focus",
    "title",
)


def what_changed(changes: list[Change], limit: int = 2) -> str:
    """'The page changed: the checkbox 'Email alerts' is now checked.' ('' when it is obvious:
    the page navigated or scrolled, which the next screenshot shows)."""
    if any(c.kind in _OBVIOUS and c.frame == "main" for c in changes):
        return ""
    kinds = {c.kind for c in changes}
    if "target" in kinds:
        kinds -= {"form", "state", "layout"}  # the target's own sentence says it
    said: list[str] = []
    for kind in _ORDER:
        for c in changes:
            if c.kind == kind and kind in kinds and (text := _change(c)) and text not in said:
                said.append(text)
    if not said:
        return ""
    return "The page changed: " + "; ".join(said[:limit]) + "."


def on_its_own(changes: list[Change], where: Where | None = None) -> str:
    """The changes that were not the action's: elements that kept changing by themselves
    (a place is named in the model's image coordinates when `where` can map it)."""
    named: list[str] = []
    for c in changes:
        for r in c.data.get("regions") or []:
            if (n := _named(r)) not in named:
                named.append(n)
    if not named and any(c.kind == "look" for c in changes):
        box = next(c.data.get("box") for c in changes if c.kind == "look")
        around = ""
        if box:
            centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            cx, cy = where.shown(centre) if where is not None else centre
            around = f" around ({round(cx)}, {round(cy)})"
        return f"Elsewhere the picture changed{around}, away from the point: not an effect of this action."
    if not named:
        return ""
    return (
        f"Elsewhere {' and '.join(named[:2])} changed on {'its' if len(named) == 1 else 'their'} own "
        "(it was changing before the action too): not an effect of this action."
    )
