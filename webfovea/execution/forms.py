"""Element-level `select` and `fill` at a point, inside frames and under overlays."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Page

from webfovea.browser.frames import FrameHit, frame_at_point, js, short_error
from webfovea.browser.world import PageUnresponsive, Remote, worlds
from webfovea.execution.context import SecretTyping
from webfovea.execution.dates import to_input_value
from webfovea.feedback.element import Point, describe_at

_PICK = js("pick")
_FORMS = js("forms")
_LIST_MAX = 40  # options named in an error, so a 250-country list stays readable


@dataclass
class SelectOutcome:
    ok: bool
    chosen: str = ""  # the option text now selected
    value: str = ""
    how: str = ""  # 'exact' | 'normalised' | 'substring'
    options: list[str] = field(default_factory=list)
    element: str = ""
    error: str = ""


@dataclass
class FillOutcome:
    ok: bool
    value: str = ""  # read back from the element
    element: str = ""
    matches: bool = False  # the read-back equals what was asked for (modulo spacing)
    error: str = ""


def normalise(text: str) -> str:
    """Case, accents, spaces and punctuation folded away: 'Viet Nam' -> 'vietnam'."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "".join(c for c in bare.casefold() if c.isalnum())


def match_option(options: list[dict[str, Any]], wanted: str) -> tuple[int | None, str, str]:
    """(index, how, error): exact text/value, then normalised, then a unique substring."""
    usable = [(i, o) for i, o in enumerate(options) if not o.get("disabled")]
    w = wanted.strip()
    w_space = " ".join(w.split())
    if not w:
        return None, "", "select needs the option to choose (it was empty)"
    for i, o in usable:
        if o["text"] == w_space or o["value"] == w:
            return i, "exact", ""
    nw = normalise(w)
    if not nw:
        return None, "", f"the option {wanted!r} has no letters or digits to match"
    for i, o in usable:
        if normalise(o["text"]) == nw or normalise(o["value"]) == nw:
            return i, "normalised", ""
    subs = [(i, o) for i, o in usable if nw in normalise(o["text"])]
    if len(subs) == 1:
        return subs[0][0], "substring", ""
    if len(subs) > 1:
        names = ", ".join(repr(o["text"]) for _, o in subs[:_LIST_MAX])
        return None, "", f"the option {wanted!r} is ambiguous; it matches {len(subs)} options: {names}"
    return None, "", f"no option matches {wanted!r}"


async def _element_at(page: Page, x: float, y: float, op: str) -> tuple[FrameHit, Remote | None, str]:
    """The element pick.js finds for `op` at the point, as an object of the harness's isolated world."""
    hit = await frame_at_point(page, x, y)
    if hit.ref is None:
        return hit, None, "the page could not be inspected"
    try:
        el = await worlds(page).handle(hit.ref, _PICK, {"op": op, "x": hit.local_x, "y": hit.local_y})
    except PageUnresponsive:
        raise
    except Exception as e:
        return hit, None, short_error(e)
    return hit, el, ""


async def _dispose(page: Page, handle: Remote | None) -> None:
    await worlds(page).release(handle)


async def _op(page: Page, el: Remote, op: str, **arg: Any) -> Any:
    return await worlds(page).call_on(el, _FORMS, {"op": op, **arg})


async def set_files_at(page: Page, x: float, y: float, paths: list[str]) -> str:
    """Give `paths` to the file input at (x, y) (or the one its label controls), from the
    harness's isolated world; '' when done, else what went wrong."""
    hit, el, err = await _element_at(page, x, y, "file")
    if el is None or hit.ref is None:
        return err or "there is no file field at that point"
    try:
        await worlds(page).send(
            hit.ref.session, "DOM.setFileInputFiles", {"files": paths, "objectId": el.object_id}
        )
    except PageUnresponsive:
        raise
    except Exception as e:
        return short_error(e)
    finally:
        await _dispose(page, el)
    return ""


async def select_at(page: Page, x: float, y: float, option: str, shown: Point | None = None) -> SelectOutcome:
    """Choose `option` in the native <select> at (x, y) (or whose label/wrapper is there).

    Fires the page's input and change listeners and reads the selection back. `shown` is the
    point in the model's image coordinates, for the sentence that names what is there instead.
    """
    hit, el, err = await _element_at(page, x, y, "select")
    if el is None:
        if err:
            return SelectOutcome(False, error=f"could not inspect the point: {err}")
        where = (await describe_at(page, x, y)).sentence(shown)
        return SelectOutcome(
            False,
            error=f"{where} There is no dropdown (<select>) there; select works only on "
            "native dropdowns, so click a custom dropdown open instead",
        )
    try:
        info = await _op(page, el, "options")
        visible = [o["text"] for o in info["options"] if not o["hidden"]]
        if info["disabled"]:
            return SelectOutcome(
                False, options=visible, element=info["element"], error="the dropdown is disabled"
            )
        index, how, why = match_option(info["options"], option)
        if index is None:
            # The caller lists .options for the model; the error says only what went wrong.
            return SelectOutcome(False, options=visible, element=info["element"], error=why)
        done = await _op(page, el, "choose", index=index)
    except Exception as e:
        return SelectOutcome(False, error=f"the dropdown could not be set: {short_error(e)}")
    finally:
        await _dispose(page, el)
    if not done["selected"]:
        return SelectOutcome(
            False,
            chosen=done["text"],
            value=done["value"],
            options=visible,
            element=info["element"],
            error=f"the page did not keep the choice; the dropdown shows {done['text']!r}",
        )
    return SelectOutcome(
        True, chosen=done["text"], value=done["value"], how=how, options=visible, element=info["element"]
    )


_DATE_TYPES = {"date", "datetime-local", "month", "time", "week"}


def _same_text(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


async def fill_at(
    page: Page,
    x: float,
    y: float,
    content: str,
    *,
    delay_ms: float = 5,
    shown: Point | None = None,
    typist: SecretTyping | None = None,
) -> FillOutcome:
    """Focus the editable element at (x, y), clear it, type `content` as real keystrokes.

    Looks through overlays (the first input/textarea/contenteditable under the point).
    Native date/time inputs get the ISO value through the native setter instead.
    A trailing newline is left to the caller (the executor presses Enter).
    `typist`: the content names secrets; they go into this element only (execution/secrets.py),
    and the field is never read back (its value is told as written, placeholders and all).
    """
    text = content[:-1] if content.endswith("\n") else content
    text = text[:-1] if text.endswith("\r") else text
    hit, el, err = await _element_at(page, x, y, "editable")
    if el is None:
        if err:
            return FillOutcome(False, error=f"could not inspect the point: {err}")
        where = (await describe_at(page, x, y)).sentence(shown)
        return FillOutcome(False, error=f"{where} There is no text field there to fill")
    try:
        info = await _op(page, el, "info")
        if info["disabled"] or info["readonly"]:
            state = "disabled" if info["disabled"] else "read-only"
            return FillOutcome(
                False, element=info["element"], error=f"the field <{info['element']}> is {state}"
            )
        if info["type"] in _DATE_TYPES and typist is None:
            return await _fill_native_date(page, el, info, text)
        return await _type_into(page, hit, el, info, text, delay_ms, typist)
    except Exception as e:
        return FillOutcome(False, error=f"the field could not be filled: {short_error(e)}")
    finally:
        await _dispose(page, el)


async def _fill_native_date(page: Page, el: Remote, info: dict[str, Any], text: str) -> FillOutcome:
    iso = to_input_value(text, info["type"])
    if iso is None:
        example = {
            "date": "2023-05-01",
            "datetime-local": "2023-05-01T14:30",
            "month": "2023-05",
            "time": "14:30",
            "week": "2023-W18",
        }[info["type"]]
        return FillOutcome(
            False,
            element=info["element"],
            error=f"{text!r} is not a recognisable {info['type']}; write it like {example!r}",
        )
    value = await _op(page, el, "set_value", value=iso)
    if value != iso:
        return FillOutcome(
            False,
            value=value,
            element=info["element"],
            error=f"the {info['type']} field did not accept {iso!r} (it holds {value!r})",
        )
    return FillOutcome(True, value=value, element=info["element"], matches=True)


async def _type_into(
    page: Page,
    hit: FrameHit,
    el: Remote,
    info: dict[str, Any],
    text: str,
    delay_ms: float,
    typist: SecretTyping | None = None,
) -> FillOutcome:
    focused = await _op(page, el, "focus")
    if not focused:
        # Script focus can be refused (e.g. a cross-origin frame without user activation);
        # a real click on the element gives the frame and field focus.
        c = await _op(page, el, "center")
        await page.mouse.click(c["x"] + hit.origin[0], c["y"] + hit.origin[1])
        await _op(page, el, "focus")
    await _op(page, el, "select_all")
    await page.keyboard.press("Delete")
    if await _op(page, el, "value"):
        await page.keyboard.press("ControlOrMeta+a")
        await page.keyboard.press("Delete")
    if typist is not None and hit.ref is not None:
        stopped = await typist.type_into(hit.ref, el, text, delay_ms)
        if stopped:
            return FillOutcome(False, element=info["element"], error=stopped)
        return FillOutcome(True, value=typist.shown(text), element=info["element"], matches=True)
    if text:
        await page.keyboard.type(text, delay=delay_ms)
    value = await _op(page, el, "value")
    if not value and text:
        return FillOutcome(
            False,
            value=value,
            element=info["element"],
            error="the keystrokes did not reach the field (it is still empty)",
        )
    return FillOutcome(True, value=value, element=info["element"], matches=_same_text(value, text))
