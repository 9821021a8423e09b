"""The page-side recorder: DOM mutations, short timers, inner scrolls and the fingerprint.

`js/recorder.js` (with `js/recorder_fp.js` spliced in) runs in every frame as an init script,
before the page's own scripts, and keeps its state in a closure. Python reaches it through a
non-writable window property and a secret drawn per process, so a page can neither read the
state nor replace the functions, and the natives it relies on (clocks, timers, observers,
DOM getters) are the ones captured before the page could override them.
"""

from __future__ import annotations

import asyncio
import secrets
from functools import cache
from typing import Any

from playwright.async_api import Frame, Page

from webfovea.browser.frames import _JS_DIR

KEY = "__wf" + secrets.token_hex(5)
TOKEN = secrets.token_hex(16)
_MISSING = "__wf_missing__"
_CALL = (
    "([k, t, op, a]) => { const r = Object.getOwnPropertyDescriptor(window, k);"
    f" return r ? r.value(t, op, a) : '{_MISSING}'; }}"
)


@cache
def source() -> str:
    body = (_JS_DIR / "recorder.js").read_text()
    fp = (_JS_DIR / "recorder_fp.js").read_text()
    return body.replace("/*__WF_FP__*/", fp).replace("__WF_KEY__", KEY).replace("__WF_TOKEN__", TOKEN)


async def install(page: Page) -> None:
    """Into every future document of the page (init script) and every frame already loaded."""
    await page.add_init_script(source())
    await asyncio.gather(*(_install_frame(f) for f in page.frames), return_exceptions=True)


async def _install_frame(frame: Frame) -> None:
    try:
        await frame.evaluate(source())
    except Exception:
        pass


async def call(frame: Frame, op: str, arg: Any = None, *, timeout: float = 2.0) -> Any:
    """Run one recorder op in a frame; installs the recorder there first if it is missing
    (a document loaded before the harness attached). Raises on a detached or hung frame."""

    async def go() -> Any:
        res = await frame.evaluate(_CALL, [KEY, TOKEN, op, arg])
        if res == _MISSING:
            await frame.evaluate(source())
            res = await frame.evaluate(_CALL, [KEY, TOKEN, op, arg])
        return None if res == _MISSING else res

    return await asyncio.wait_for(go(), timeout)


async def try_call(frame: Frame, op: str, arg: Any = None, *, timeout: float = 2.0) -> Any:
    """`call`, or None when the frame cannot answer (navigating, detached, hung)."""
    try:
        return await call(frame, op, arg, timeout=timeout)
    except Exception:
        return None
