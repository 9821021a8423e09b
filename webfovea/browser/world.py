"""The harness's own JavaScript world in every frame, out of the page's reach.

Everything the harness asks a page (what is under a point, which frame a point reaches, a
field's value, the text near a label) runs in an *isolated world* created over CDP
(`Page.createIsolatedWorld`, then `Runtime.callFunctionOn(executionContextId=…)`), one per
frame document, in OOPIF sessions too. An isolated world shares the DOM with the page but
none of its JavaScript: a page that redefines `innerWidth`, `document.elementsFromPoint`,
`getComputedStyle`, `requestAnimationFrame`, `Date.now` or `Array.prototype` changes nothing
here. (Pristine references saved by an init script would be one override away — a
prototype method the helpers call, `Function.prototype.call` itself — and init scripts do
not reach every frame before its scripts; `DOM.getNodeForLocation` gives only the topmost
node, not the stack the overlay logic needs.) This is the same mechanism Playwright uses
for its own utility world.

Every call is bounded: a page whose main thread never yields (an endless loop, a dialog
storm) raises `PageUnresponsive` instead of hanging the step.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from dataclasses import dataclass
from typing import Any

from playwright.async_api import CDPSession, Frame, Page

WORLD_NAME = "webfovea"
CALL_TIMEOUT_S = 10.0
_GONE = (
    "Cannot find context",
    "context with specified id",
    "Execution context was destroyed",
    "Cannot find default execution context",
    "No frame for given id",
    "Frame with the given id",
)


class PageUnresponsive(RuntimeError):
    """The page's JavaScript did not answer within the bound (a frozen main thread)."""


class JSError(RuntimeError):
    """A harness function threw inside the page's isolated world."""


@dataclass(frozen=True)
class FrameRef:
    """A frame as CDP knows it: the session that owns its document and its frame id."""

    session: CDPSession
    frame_id: str


@dataclass(frozen=True)
class Remote:
    """An object (usually an element) living in a frame's isolated world."""

    ref: FrameRef
    object_id: str


def _gone(e: BaseException) -> bool:
    return any(m in str(e) for m in _GONE)


class Worlds:
    """The isolated worlds of one page (all its frames, in-process and out-of-process)."""

    def __init__(self, page: Page, timeout_s: float = CALL_TIMEOUT_S) -> None:
        self.page = page
        self.timeout_s = timeout_s
        self._main: FrameRef | None = None
        self._contexts: dict[tuple[int, str], int] = {}
        self._oopif: dict[str, CDPSession] = {}  # frame id -> the session of that out-of-process frame
        self._root_of: weakref.WeakKeyDictionary[Frame, str] = weakref.WeakKeyDictionary()
        self._probed: weakref.WeakSet[Frame] = weakref.WeakSet()
        self._refs: weakref.WeakKeyDictionary[Frame, FrameRef] = weakref.WeakKeyDictionary()

    async def send(
        self,
        session: CDPSession,
        method: str,
        params: dict[str, Any] | None = None,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        try:
            return await asyncio.wait_for(session.send(method, params or {}), timeout or self.timeout_s)
        except TimeoutError:
            raise PageUnresponsive(
                f"the page did not answer {method} within {timeout or self.timeout_s:g} s"
            ) from None

    async def main(self) -> FrameRef:
        if self._main is None:
            session = await self.page.context.new_cdp_session(self.page)
            tree = await self.send(session, "Page.getFrameTree")
            self._main = FrameRef(session, tree["frameTree"]["frame"]["id"])
        return self._main

    async def _context(self, ref: FrameRef, fresh: bool = False) -> int:
        key = (id(ref.session), ref.frame_id)
        if fresh:
            self._contexts.pop(key, None)
        ctx = self._contexts.get(key)
        if ctx is None:
            res = await self.send(
                ref.session, "Page.createIsolatedWorld", {"frameId": ref.frame_id, "worldName": WORLD_NAME}
            )
            ctx = self._contexts[key] = int(res["executionContextId"])
        return ctx

    @staticmethod
    def _arg(value: Any) -> dict[str, Any]:
        return {"objectId": value.object_id} if isinstance(value, Remote) else {"value": value}

    async def _call(
        self, ref: FrameRef, fn: str, args: tuple[Any, ...], by_value: bool, timeout: float | None
    ) -> dict[str, Any]:
        params: dict[str, Any] = {
            "functionDeclaration": fn,
            "arguments": [self._arg(a) for a in args],
            "returnByValue": by_value,
            "awaitPromise": True,
        }
        for attempt in range(2):
            params["executionContextId"] = await self._context(ref, fresh=attempt > 0)
            try:
                res = await self.send(ref.session, "Runtime.callFunctionOn", params, timeout)
            except PageUnresponsive:
                raise
            except Exception as e:
                if attempt == 0 and _gone(e) and not any(isinstance(a, Remote) for a in args):
                    continue  # the frame navigated: a new document needs a new world
                raise
            if "exceptionDetails" in res:
                d = res["exceptionDetails"]
                raise JSError(
                    (d.get("exception") or {}).get("description") or d.get("text") or "script error"
                )
            result: dict[str, Any] = res["result"]
            return result
        raise AssertionError("unreachable")

    async def call(self, ref: FrameRef, fn: str, *args: Any, timeout: float | None = None) -> Any:
        """fn(*args) in the frame's isolated world; the JSON value it returns (promises awaited)."""
        return (await self._call(ref, fn, args, True, timeout)).get("value")

    async def handle(self, ref: FrameRef, fn: str, *args: Any) -> Remote | None:
        """fn(*args) kept as an object in the isolated world (None for null/undefined/primitives)."""
        res = await self._call(ref, fn, args, False, None)
        oid = res.get("objectId")
        return Remote(ref, oid) if oid and res.get("subtype") != "null" else None

    async def handles(self, ref: FrameRef, fn: str, *args: Any) -> list[Remote]:
        """fn(*args) returning an array of objects: one Remote per element."""
        arr = await self.handle(ref, fn, *args)
        if arr is None:
            return []
        try:
            props = await self.send(
                ref.session, "Runtime.getProperties", {"objectId": arr.object_id, "ownProperties": True}
            )
        finally:
            await self.release(arr)
        items = [
            (int(p["name"]), p["value"]["objectId"])
            for p in props.get("result", [])
            if p.get("name", "").isdigit() and (p.get("value") or {}).get("objectId")
        ]
        return [Remote(ref, oid) for _, oid in sorted(items)]

    async def call_on(self, remote: Remote, fn: str, *args: Any, timeout: float | None = None) -> Any:
        """fn(remote, *args) in the remote's world; the JSON value it returns."""
        return await self.call(remote.ref, fn, remote, *args, timeout=timeout)

    async def release(self, *remotes: Remote | None) -> None:
        for r in remotes:
            if r is None:
                continue
            try:
                await asyncio.wait_for(
                    r.ref.session.send("Runtime.releaseObject", {"objectId": r.object_id}), 2
                )
            except Exception:
                pass

    async def frame_of(self, iframe: Remote) -> FrameRef | None:
        """The frame an <iframe>/<frame> element shows (its own session if out-of-process)."""
        node = (await self.send(iframe.ref.session, "DOM.describeNode", {"objectId": iframe.object_id}))[
            "node"
        ]
        frame_id = node.get("frameId")
        if not frame_id:
            return None
        ref = FrameRef(iframe.ref.session, frame_id)
        try:
            await self._context(ref)
            return ref
        except PageUnresponsive:
            raise
        except Exception as e:
            if not _gone(e):
                raise
        session = await self._oopif_session(frame_id)
        if session is None:
            return None
        ref = FrameRef(session, frame_id)
        await self._context(ref)
        return ref

    async def _oopif_session(self, frame_id: str) -> CDPSession | None:
        if frame_id in self._oopif:
            return self._oopif[frame_id]
        for frame in self.page.frames:
            if frame is self.page.main_frame or frame in self._probed:
                continue
            self._probed.add(frame)
            try:
                session = await asyncio.wait_for(self.page.context.new_cdp_session(frame), self.timeout_s)
            except Exception:
                continue  # an in-process frame: it has no session of its own
            tree = await self.send(session, "Page.getFrameTree")
            root = tree["frameTree"]["frame"]["id"]
            self._oopif[root] = session
            self._root_of[frame] = root
        return self._oopif.get(frame_id)

    async def ref_of(self, frame: Frame, fresh: bool = False) -> FrameRef:
        """The CDP frame behind a Playwright Frame (its own session if out-of-process): the
        frame's place among its parent's children, matched by URL and name as `to_playwright`
        does the other way. `fresh` forgets what was found before (the frame changed process)."""
        parent = frame.parent_frame
        if parent is None:
            return await self.main()
        if fresh:  # probe it again: it may have moved into or out of its own process
            self._refs.pop(frame, None)
            self._root_of.pop(frame, None)
            self._probed.discard(frame)
        known = self._refs.get(frame)
        if known is not None:
            return known
        # An out-of-process frame is the root of its own session (its parent's tree omits it).
        await self._oopif_session("")
        root = self._root_of.get(frame)
        if root is not None:
            ref = self._refs[frame] = FrameRef(self._oopif[root], root)
            return ref
        up = await self.ref_of(parent, fresh)
        tree = (await self.send(up.session, "Page.getFrameTree"))["frameTree"]
        kids = [k["frame"] for k in _children_of(tree, up.frame_id)]
        mine = [c for c in parent.child_frames if not c.is_detached() and c not in self._root_of]
        key = (frame.url.split("#", 1)[0], frame.name)
        same = [c for c in mine if (c.url.split("#", 1)[0], c.name) == key]
        cands = [k for k in kids if (k["url"], k.get("name", "")) == key]
        if frame in same and len(same) == len(cands):
            node = cands[same.index(frame)]
        elif len(mine) == len(kids) and frame in mine:
            node = kids[mine.index(frame)]  # mid-navigation: the URLs disagree, the order does not
        else:
            raise JSError("frame not found in the frame tree")
        ref = FrameRef(up.session, node["id"])
        try:
            await self._context(ref, fresh=True)
        except PageUnresponsive:
            raise
        except Exception as e:
            if not _gone(e):
                raise
            session = await self._oopif_session(node["id"])
            if session is None:
                raise
            ref = FrameRef(session, node["id"])
        self._refs[frame] = ref
        return ref

    async def url(self, ref: FrameRef) -> str:
        return str(await self.call(ref, "() => document.location.href") or "")

    async def to_playwright(self, ref: FrameRef, parent: Frame) -> Frame | None:
        """The Playwright Frame for `ref`, a child of `parent` (for code that works on Frames)."""
        kids = [c for c in parent.child_frames if not c.is_detached()]
        for kid in kids:
            if self._root_of.get(kid) == ref.frame_id:
                return kid
        tree = (await self.send(ref.session, "Page.getFrameTree"))["frameTree"]
        found = _find_with_siblings(tree, ref.frame_id)
        if found is None:
            return None
        node, siblings = found
        key = (node["url"], node.get("name", ""))
        same = [s for s in siblings if (s["url"], s.get("name", "")) == key]
        cands = [c for c in kids if (c.url.split("#", 1)[0], c.name) == key]
        index = same.index(node) if node in same else 0
        return cands[index] if index < len(cands) else (cands[0] if cands else None)

    async def alive(self, timeout: float) -> bool:
        """A round trip through the page's main thread within `timeout` seconds. A page that
        answers with errors (mid-navigation, closed) is not frozen: True, and the caller's next
        step meets the real trouble."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                answer = await self.call(
                    await self.main(), "() => 1", timeout=max(0.2, deadline - time.monotonic())
                )
                return bool(answer == 1)
            except PageUnresponsive:
                return False
            except Exception:
                if self.page.is_closed() or time.monotonic() >= deadline:
                    return True
                await asyncio.sleep(0.1)

    async def animation_frames(self, n: int = 2, timeout: float = 1.0) -> bool:
        """Wait for `n` rendering frames (the harness's own requestAnimationFrame), bounded."""
        fn = (
            "(n) => new Promise((r) => { const step = (k) => k ? requestAnimationFrame(() => step(k - 1)) : r(true);"
            " step(n); })"
        )
        try:
            return bool(await self.call(await self.main(), fn, n, timeout=timeout))
        except (PageUnresponsive, JSError):
            return False


def _find_with_siblings(
    tree: dict[str, Any], frame_id: str
) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    stack = [tree]
    while stack:
        node = stack.pop()
        kids = node.get("childFrames") or []
        for kid in kids:
            if kid["frame"]["id"] == frame_id:
                return kid["frame"], [k["frame"] for k in kids]
            stack.append(kid)
    return None


def _children_of(tree: dict[str, Any], frame_id: str) -> list[dict[str, Any]]:
    stack = [tree]
    while stack:
        node = stack.pop()
        if node["frame"]["id"] == frame_id:
            return list(node.get("childFrames") or [])
        stack.extend(node.get("childFrames") or [])
    return []


_WORLDS: weakref.WeakKeyDictionary[Page, Worlds] = weakref.WeakKeyDictionary()


def _forget(closed: Page) -> None:
    _WORLDS.pop(closed, None)


def worlds(page: Page) -> Worlds:
    """The page's isolated worlds (one Worlds per page, made on first use)."""
    w = _WORLDS.get(page)
    if w is None:
        w = _WORLDS[page] = Worlds(page)
        # The value holds the page, so the weak key alone never lets go of a closed one.
        page.once("close", _forget)
    return w
