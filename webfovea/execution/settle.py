"""Adaptive settle wait: return as soon as the page has answered the action, bounded.

The wait knows what a page waits for:
- requests (fetch/XHR/documents) started since the action, in every frame (Playwright events);
- WebSocket replies: after the action sent a frame, the first frame received back (bounded);
- DOM mutations in every frame, out-of-process ones included, then two animation frames;
  elements that were changing on their own before the action (clocks, tickers) do not count;
- short timers the action's own handlers scheduled (hover delays, debounces) and finite CSS
  transitions/animations still running.

State lives where the page cannot reach it: Python-side bookkeeping of network events and
clocks, and the page-side recorder (`browser/recorder.py`) whose closure the page can neither
read nor replace. The page can lengthen the wait only up to its bound: every wait is bounded
by Python's own clock, and a frame that does not answer a probe is given up on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from playwright.async_api import Frame, Page, Request, Response, WebSocket

from webfovea.browser import recorder
from webfovea.browser.recorder import Poll
from webfovea.config import Component, HarnessConfig
from webfovea.execution.animations import AnimationClock
from webfovea.execution.context import Shown

# Long-lived requests (event streams, websockets, beacons) would keep a page "busy" forever.
T = TypeVar("T")
# The next observation's capture, and whether the after-fingerprints were taken beside it.
Grabbed = tuple[Shown, bool]
# What the page looked like to the watcher (navigations, open requests, frames, per frame its
# mutation batches, inner scrolls, scroll): equal epochs, nothing happened in between.
Epoch = tuple[int, int, int, tuple[tuple[int, int, str], ...]]
# The same without open requests, with the action window's counts (the early capture's check).
Marks = tuple[int, int, tuple[int, ...], tuple[tuple[int, str], ...]]

_IGNORED_TYPES = {"websocket", "eventsource", "manifest", "ping", "media"}
_LEAVING_MS = 1500  # how long an unloading document may hold the wait for its successor
# A request whose response is in counts as finished this long after it, body read or not: a
# page that never reads a body (a fetch used for its status) holds the body back and Chromium
# never reports the request finished. Long enough for a body that is read to arrive and be used.
_BODY_GRACE_S = 0.25
_POLL_S = 0.012
_PROBE_TIMEOUT_S = 1.0
_TIMER_CAP_MS = 700  # the longest page timer / animation one probe makes us wait for


@dataclass
class _Socket:
    sent_at: float = -1.0  # last frame the page sent
    reply_at: float = -1.0  # first frame received after it


@dataclass
class SettleReport:
    """What the last wait saw: for the feedback note and the records."""

    seconds: float = 0.0
    timed_out: bool = False
    # 'request', 'websocket', 'timer', 'animation', 'busy', 'dom'; 'minimum' when settle_min_ms held it
    waited_for: list[str] = field(default_factory=list)
    ambient_batches: int = 0  # changes of elements that were changing on their own
    held_by: str = ""  # what the wait was last held by (of waited_for): why a timed-out wait ran out


class SettleWatcher:
    def __init__(self, page: Page, config: HarnessConfig) -> None:
        self.page = page
        self.config = config
        self.pending: dict[Request, float] = {}
        self.answered: dict[Request, float] = {}  # pending requests whose response is in: when
        self.last_activity = time.monotonic()
        self.navigations = 0
        self.timed_out = 0
        self.sockets: dict[WebSocket, _Socket] = {}
        self.last: SettleReport = SettleReport()
        self.grabbed: tuple[Grabbed, Epoch] | None = None
        self._grab: Callable[[], Awaitable[Grabbed]] | None = None
        self._early: _Early | None = None
        self.fresh_document = False  # the last poll came from a document the action did not arm
        self.animations = AnimationClock()
        self.early_grabs = [0, 0]  # early captures kept, dropped (the page changed while they were taken)
        page.on("request", self._on_request)
        page.on("response", self._on_response)
        page.on("requestfinished", self._on_done)
        page.on("requestfailed", self._on_done)
        page.on("framenavigated", self._on_nav)
        page.on("websocket", self._on_socket)

    async def install(self) -> None:
        await recorder.install(self.page)
        if self.config.on(Component.settle_aware):
            await self.animations.install(self.page)

    # -- Python-side bookkeeping -----------------------------------------------------------
    def _on_request(self, req: Request) -> None:
        if req.resource_type in _IGNORED_TYPES:
            return
        self.pending[req] = time.monotonic()
        self.last_activity = time.monotonic()

    def _on_done(self, req: Request) -> None:
        self.pending.pop(req, None)
        self.answered.pop(req, None)
        self.last_activity = time.monotonic()

    def _on_response(self, resp: Response) -> None:
        if resp.request in self.pending:
            self.answered[resp.request] = time.monotonic()
            self.last_activity = time.monotonic()

    def _on_nav(self, frame: Frame) -> None:
        if frame is self.page.main_frame:
            self.navigations += 1
            self.last_activity = time.monotonic()

    def _on_socket(self, ws: WebSocket) -> None:
        sock = self.sockets.setdefault(ws, _Socket())

        def sent(_payload: bytes | str) -> None:
            sock.sent_at = time.monotonic()
            sock.reply_at = -1.0

        def received(_payload: bytes | str) -> None:
            if sock.sent_at >= 0 and sock.reply_at < 0:
                sock.reply_at = time.monotonic()
                self.last_activity = sock.reply_at

        def closed(_ws: WebSocket) -> None:
            self.sockets.pop(ws, None)

        ws.on("framesent", sent)
        ws.on("framereceived", received)
        ws.on("close", closed)

    def requests_since(self, t: float) -> int:
        """Requests started since `t` that are still open (answered ones only for a short grace)."""
        now = time.monotonic()
        done = [r for r, at in self.answered.items() if now - at >= _BODY_GRACE_S]
        for r in done:  # the body may never be read: the request is over for the wait
            self.pending.pop(r, None)
            self.answered.pop(r, None)
        return sum(1 for started in self.pending.values() if started >= t)

    def awaiting_reply(self, since: float, bound_s: float) -> bool:
        now = time.monotonic()
        return any(
            s.sent_at >= since and s.reply_at < 0 and now - s.sent_at < bound_s for s in self.sockets.values()
        )

    # -- page-side probes ------------------------------------------------------------------
    def frames(self) -> list[Frame]:
        return [f for f in self.page.frames if not f.is_detached()]

    async def arm(self, since_obs_s: float | None, skip: tuple[Frame, ...] = ()) -> None:
        """Open the action window in every frame (frames fingerprinted elsewhere arm there)."""
        since = -1 if since_obs_s is None else since_obs_s * 1000
        await asyncio.gather(
            *(
                recorder.try_call(f, "arm", since, timeout=_PROBE_TIMEOUT_S)
                for f in self.frames()
                if f not in skip
            )
        )

    async def disarm(self, skip: tuple[Frame, ...] = ()) -> None:
        await asyncio.gather(
            *(
                recorder.try_call(f, "disarm", timeout=_PROBE_TIMEOUT_S)
                for f in self.frames()
                if f not in skip
            )
        )

    async def polls(self, op: str = "poll", everywhere: bool = True) -> list[Poll]:
        frames = self.frames() if everywhere else [self.page.main_frame]
        res = await asyncio.gather(*(recorder.try_call(f, op, timeout=_PROBE_TIMEOUT_S) for f in frames))
        return [cast(Poll, r) for r in res if isinstance(r, dict)]  # None: the frame did not answer

    async def epoch(self) -> Epoch:
        """A token that changes when anything on the page may have changed (DOM, scroll, network)."""
        return self._epoch_of(await self.polls())

    def _epoch_of(self, polls: list[Poll]) -> Epoch:
        return (
            self.navigations,
            len(self.pending),
            len(self.page.frames),
            tuple((p["batches"], p["inner"], p["scroll"]) for p in polls),
        )

    # -- the wait ----------------------------------------------------------------------------
    async def wait(
        self,
        *,
        navigated: bool = False,
        nav_mark: int | None = None,
        started: float | None = None,
        grab: Callable[[], Awaitable[Grabbed]] | None = None,
    ) -> float:
        """Wait until the page answered the action. Returns the seconds waited; never raises.

        `grab` (the next observation's capture) is taken during the final quiet check, side by
        side with the two animation frames; it is kept in `self.grabbed` with the page's epoch
        only when nothing changed while it was taken.
        """
        t0 = time.monotonic()
        started = t0 if started is None else started
        cfg = self.config
        report = SettleReport()
        self.last = report
        self.grabbed = None
        self._grab = grab
        self._early = None
        self.fresh_document = False
        if not cfg.on(Component.adaptive_settle):
            await asyncio.sleep(cfg.fixed_wait_ms / 1000)
            report.seconds = time.monotonic() - t0
            return report.seconds
        if nav_mark is not None and self.navigations > nav_mark:
            navigated = True
        bound = (cfg.settle_max_ms if navigated else min(cfg.settle_max_ms, 3000)) / 1000
        # With the page's own work known (timers, sockets, animations), two animation frames
        # after the last change replace the blind quiet window.
        quiet_s = 0.02 if cfg.on(Component.settle_aware) else cfg.settle_quiet_ms / 1000
        if navigated:
            await self._load(t0, bound)
        first = True
        while True:
            now = time.monotonic()
            if now - t0 >= bound:
                self.timed_out += 1
                report.timed_out = True
                break
            if nav_mark is not None and self.navigations > nav_mark and not navigated:
                navigated, bound = True, cfg.settle_max_ms / 1000
                await self._load(t0, bound)
                continue
            busy = await self._busy(started, navigated, bound, quiet_s, report, first)
            first = False
            if busy is None:
                break
            await asyncio.sleep(busy)
        self._drop_early()
        if not navigated and nav_mark is not None and self.fresh_document:
            navigated = True  # a new document answered before Playwright reported it
            await self._load(t0, cfg.settle_max_ms / 1000)
        if navigated:
            # The paper's wait after a navigation lasts 1 to 8 s (seed 000 §4.6): a page that looks
            # settled at once (a shell whose data comes later) still gets the minimum.
            rest = cfg.settle_min_ms / 1000 - (time.monotonic() - t0)
            if rest > 0:
                await asyncio.sleep(rest)
                report.waited_for.append("minimum")
                self.grabbed = None  # the next capture is taken after the minimum, not before it
        report.seconds = time.monotonic() - t0
        return report.seconds

    async def hover_pause(self, bound_s: float = 0.8) -> float:
        """After the pointer arrived, before it presses: wait for what the arrival set off (hover
        handlers' mutations, their short timers such as hover-intent delays, transitions), at most
        `bound_s`. One probe round when nothing happened."""
        t0 = time.monotonic()
        while time.monotonic() - t0 < bound_s:
            polls = await self.polls(everywhere=True)
            wait_ms = 0.0
            for p in polls:
                if p.get("armed") and 0 <= p["age"] < 20:
                    wait_ms = max(wait_ms, 20 - p["age"])
                wait_ms = max(wait_ms, min(p["timers"], _TIMER_CAP_MS), min(p["anims"], _TIMER_CAP_MS))
            if wait_ms <= 0:
                if time.monotonic() - t0 > 0.005:  # something happened: let it paint once
                    await recorder.try_call(self.page.main_frame, "frames", 60, timeout=_PROBE_TIMEOUT_S)
                break
            await asyncio.sleep(min(wait_ms / 1000 + 0.003, 0.1))
        return time.monotonic() - t0

    async def _load(self, t0: float, bound: float) -> None:
        try:
            await self.page.wait_for_load_state(
                "domcontentloaded", timeout=max(1.0, (bound - (time.monotonic() - t0))) * 1000
            )
        except Exception:
            pass

    async def _busy(
        self, started: float, navigated: bool, bound: float, quiet_s: float, report: SettleReport, first: bool
    ) -> float | None:
        """None when settled, else how long to sleep before looking again."""
        now = time.monotonic()
        since = 0.0 if navigated else started
        if self.requests_since(since):
            _note(report, "request")
            return _POLL_S
        aware = self.config.on(Component.settle_aware)
        if aware and self.awaiting_reply(started, bound):
            _note(report, "websocket")
            return _POLL_S
        if aware and (left := self.animations.left_s(started)) > 0:
            _note(report, "animation")  # shadow roots too, which the recorder cannot see
            return min(left, _TIMER_CAP_MS / 1000, 0.1) + 0.005
        if now - self.last_activity < quiet_s:
            return max(0.005, quiet_s - (now - self.last_activity))
        polls = await self.polls("dispatched" if first else "poll", everywhere=aware)
        # The main frame was armed before the action; a document that says it is not armed is
        # its successor. The recorder answers over its own CDP session, so this can be known
        # before Playwright's framenavigated event arrives.
        self.fresh_document = bool(polls) and polls[0].get("armed") is False
        wait_ms = 0.0
        only_dom = True  # nothing but the quiet window after a mutation is left to wait for
        if not navigated and any(0 <= p.get("leaving", -1) < _LEAVING_MS for p in polls[:1]):
            # The document is unloading: its successor is not here yet (a download never comes).
            _note(report, "navigation")
            return _POLL_S
        for p in polls:
            armed = p.get("armed") and not navigated
            age = p["age"] if armed else p["any_age"]
            report.ambient_batches = max(report.ambient_batches, int(p.get("amb") or 0))
            if 0 <= age < quiet_s * 1000:
                _note(report, "dom")
                wait_ms = max(wait_ms, quiet_s * 1000 - age)
            if not aware:
                continue
            if p["timers"] > 0:
                _note(report, "timer")
                wait_ms = max(wait_ms, min(p["timers"], _TIMER_CAP_MS) + 5)
                only_dom = False
            if p["anims"] > 0:
                _note(report, "animation")
                wait_ms = max(wait_ms, min(p["anims"], _TIMER_CAP_MS) + 5)
                only_dom = False
            if p.get("busy"):
                # A spinner, a progress bar, aria-busy, "Loading…", a control disabled since the
                # action: the page says its answer is not here yet. Bounded like every wait.
                _note(report, "busy")
                wait_ms = max(wait_ms, 50)
                only_dom = False
        if wait_ms > 0:
            if only_dom:
                self._start_early(polls, navigated)
            return min(wait_ms / 1000, 0.1)
        # Quiet now: let two animation frames pass (rAF-driven re-renders), then look once more.
        before = _counts(polls, navigated)
        grab_at = time.monotonic()  # when the capture kept below began
        early = self._take_early(polls, navigated)
        if early is not None:
            grab_at = early.at
            # its two frames were counted from when it started: after the last mutation too
            _, shot = await asyncio.gather(early.frames, early.task)
        else:
            frames = recorder.try_call(self.page.main_frame, "frames", 100, timeout=_PROBE_TIMEOUT_S)
            grab = _quietly(self._grab()) if self._grab is not None else _nothing()
            _, shot = await asyncio.gather(frames, grab)
        again, _ = await asyncio.gather(
            self.polls(everywhere=True), self.animations.sync() if aware else _nothing()
        )
        mine = again if aware else again[:1]
        # What moved while the capture was taken: a wait that runs out now says that, so a
        # spinner on a loaded machine is still "busy", not a page that kept changing.
        moved = (
            ("dom", _counts(mine, navigated) != before),
            ("busy", aware and any(p.get("busy") for p in mine)),
            ("timer", aware and any(p["timers"] > 0 for p in mine)),
            ("animation", aware and self.animations.ran_since(started, grab_at)),
            ("request", bool(self.requests_since(since))),
            ("websocket", aware and self.awaiting_reply(started, bound)),
            ("dom", time.monotonic() - self.last_activity < quiet_s),
        )
        held = next((what for what, yes in moved if yes), None)
        if held is not None:
            report.held_by = held
            return 0.0
        if shot is not None:
            self.grabbed = (shot, self._epoch_of(again))
        return None

    # -- the early capture ------------------------------------------------------------------
    # When all that is left is the quiet window after the action's last mutation, the next
    # capture starts at once instead of after it: it is kept only if, once the page is quiet,
    # nothing at all happened since it started (same mutation counts, scrolls, frames, no
    # request or socket reply), and then the final check's own "again" poll confirms it.
    def _marks(self, polls: list[Poll], navigated: bool) -> Marks:
        return (
            self.navigations,
            len(self.page.frames),
            _counts(polls, navigated),
            tuple((p["inner"], p["scroll"]) for p in polls),
        )

    def _start_early(self, polls: list[Poll], navigated: bool) -> None:
        if self._grab is None or self._early is not None or len(polls) != len(self.frames()):
            return
        task = asyncio.ensure_future(_quietly(self._grab()))
        frames = asyncio.ensure_future(
            recorder.try_call(self.page.main_frame, "frames", 100, timeout=_PROBE_TIMEOUT_S)
        )
        self._early = _Early(task, frames, self._marks(polls, navigated), time.monotonic())

    def _take_early(self, polls: list[Poll], navigated: bool) -> _Early | None:
        """The early capture if nothing happened since it started, else None (it is dropped)."""
        early, self._early = self._early, None
        if early is None:
            return None
        if (
            early.marks == self._marks(polls, navigated)
            and self.last_activity <= early.at
            and len(polls) == len(self.frames())
        ):
            self.early_grabs[0] += 1
            return early
        self._early = early
        self._drop_early()
        return None

    def _drop_early(self) -> None:
        if self._early is not None:
            self.early_grabs[1] += 1
            self._early.task.cancel()
            self._early.frames.cancel()
            self._early = None


@dataclass
class _Early:
    task: asyncio.Future[Grabbed | None]  # the capture (and after-fingerprints); None: it failed
    frames: asyncio.Future[Any]  # two animation frames, counted from when it started
    marks: Marks
    at: float


async def _nothing() -> None:
    return None


async def _quietly(coro: Awaitable[T]) -> T | None:
    try:
        return await coro
    except Exception:
        return None


def _counts(polls: list[Poll], navigated: bool = False) -> tuple[int, ...]:
    return tuple(int(p["batches"] if navigated or not p.get("armed") else p["rel"]) for p in polls)


def _note(report: SettleReport, what: str) -> None:
    report.held_by = what
    if what not in report.waited_for:
        report.waited_for.append(what)
