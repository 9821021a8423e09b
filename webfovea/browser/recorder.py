"""The page-side recorder: DOM mutations, short timers, inner scrolls and the fingerprint.

`js/recorder.js` (with `js/recorder_fp.js` spliced in) runs in the harness's isolated world of
every frame (`browser/world.py`), installed with `Page.addScriptToEvaluateOnNewDocument`
before the page's own scripts, and is called there over CDP. The page shares the DOM with it
but none of its JavaScript: it cannot see the recorder, call it, replace it or poison the
natives it uses, and what the recorder returns is serialised by the browser, not by any code
the page could have touched. The one part in the page's world, `js/recorder_timers.js`, only
tells the recorder which short timers the page set (a synchronous event of a per-process
type); the harness never calls it.
"""

from __future__ import annotations

import asyncio
import secrets
import weakref
from functools import cache
from typing import Any, TypedDict

from playwright.async_api import CDPSession, Frame, Page

from webfovea.browser.frames import _JS_DIR
from webfovea.browser.world import WORLD_NAME, PageUnresponsive, worlds

KEY = "__wf" + secrets.token_hex(5)
EVENT = "wf" + secrets.token_hex(8)
_MISSING = "__wf_missing__"


class Poll(TypedDict):
    """One frame's answer to `poll`, `arm` and `dispatched` (js/recorder.js `poll`). Times are
    milliseconds, -1 for never."""

    batches: int  # mutation batches since the document started
    rel: int  # batches in the action window on elements the action changed
    amb: int  # batches in the window on elements changing on their own (ambient)
    age: float  # since the last relevant batch
    any_age: float  # since the last batch of any kind
    timers: float  # left on the short timers the action's handlers set
    anims: float  # left on the finite CSS animations and transitions running
    armed: bool  # an action window is open in this frame
    inner: int  # scrolls of inner elements
    scroll: str  # the window's scroll offset, "x,y"
    leaving: float  # since the document began to unload
    busy: int  # busy signs the action raised that are still shown


_CALL = f"(op, a) => {{ const r = window['{KEY}']; return r ? r(op, a) : '{_MISSING}'; }}"
# CDP sessions (the page's own, one per out-of-process frame) that run the recorder at every
# document start.
_PRIMED: weakref.WeakSet[CDPSession] = weakref.WeakSet()


@cache
def source() -> str:
    body = (_JS_DIR / "recorder.js").read_text()
    fp = (_JS_DIR / "recorder_fp.js").read_text()
    return body.replace("/*__WF_FP__*/", fp).replace("__WF_KEY__", KEY).replace("__WF_EV__", EVENT)


@cache
def timer_source() -> str:
    return (_JS_DIR / "recorder_timers.js").read_text().replace("__WF_EV__", EVENT)


async def _prime(session: CDPSession) -> None:
    if session in _PRIMED:
        return
    _PRIMED.add(session)
    await asyncio.wait_for(
        session.send(
            "Page.addScriptToEvaluateOnNewDocument",
            {"source": source(), "worldName": WORLD_NAME, "runImmediately": True},
        ),
        5,
    )


async def install(page: Page) -> None:
    """Into every future document of the page and every frame already loaded: the recorder in
    the isolated world, the timer shim in the page's world."""
    await page.add_init_script(timer_source())
    await _prime((await worlds(page).main()).session)
    await asyncio.gather(*(_install_frame(f) for f in page.frames), return_exceptions=True)


async def _install_frame(frame: Frame) -> None:
    try:
        await frame.evaluate(timer_source())
    except Exception:
        pass
    try:
        await call(frame, "poll")
    except Exception:
        pass


async def call(frame: Frame, op: str, arg: Any = None, *, timeout: float = 2.0) -> Any:
    """Run one recorder op in a frame's isolated world; installs the recorder there first if it
    is missing (a document loaded before the harness attached, or an out-of-process frame seen
    for the first time). Raises on a detached or hung frame."""
    w = worlds(frame.page)

    async def go(fresh: bool) -> Any:
        ref = await w.ref_of(frame, fresh)
        res = await w.call(ref, _CALL, op, arg, timeout=timeout)
        if res == _MISSING:
            await _prime(ref.session)
            await w.call(ref, f"() => {{ {source()} }}", timeout=timeout)
            res = await w.call(ref, _CALL, op, arg, timeout=timeout)
        return None if res == _MISSING else res

    async def both() -> Any:
        try:
            return await go(False)
        except PageUnresponsive:
            raise
        except Exception:
            if frame.is_detached():
                raise
            return await go(True)  # the frame moved to another process, or its world went away

    return await asyncio.wait_for(both(), timeout)


async def try_call(frame: Frame, op: str, arg: Any = None, *, timeout: float = 2.0) -> Any:
    """`call`, or None when the frame cannot answer (navigating, detached, hung)."""
    try:
        return await call(frame, op, arg, timeout=timeout)
    except Exception:
        return None
