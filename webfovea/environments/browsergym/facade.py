"""Playwright's synchronous API over the harness's asynchronous objects, for code written
against `playwright.sync_api` (BrowserGym's tasks) that must act on the harness's own page.

BrowserGym's `setup` and `validate` take a `playwright.sync_api.Page`. The harness drives its
page with the async API on its event loop, and the sync API cannot run inside an event loop.
So the task runs in a worker thread and is handed a facade: every attribute it reads and every
method it calls is run on the harness's loop and waited for; awaitables are awaited there;
Playwright objects in what comes back (frames, locators, the context) are wrapped the same way.
The task acts on the very page the model sees, with no second browser connection.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable
from typing import Any

CALL_TIMEOUT_S = 120.0  # one call of the task's (a navigation, a wait_for_function) at most


def _is_playwright(obj: Any) -> bool:
    return type(obj).__module__.startswith("playwright.async_api")


class SyncFacade:
    """`target` (an async Playwright object) as its sync counterpart, used from another thread.

    Attributes the task sets on it (BrowserGym marks the page with `_bgym_scale_factor`) stay
    on the facade; equality is the facade's own, so `page != self.page` holds as the task means."""

    def __init__(self, target: Any, loop: asyncio.AbstractEventLoop) -> None:
        object.__setattr__(self, "_target", target)
        object.__setattr__(self, "_loop", loop)

    def _run(self, fn: Callable[[], Any]) -> Any:
        async def on_loop() -> Any:
            value = fn()
            if inspect.isawaitable(value):
                value = await value
            return value

        if _running_loop() is self._loop:
            raise RuntimeError("a sync facade cannot be used on its own event loop's thread")
        value = asyncio.run_coroutine_threadsafe(on_loop(), self._loop).result(CALL_TIMEOUT_S)
        return self._wrap(value)

    def _wrap(self, value: Any) -> Any:
        if _is_playwright(value):
            return SyncFacade(value, self._loop)
        if isinstance(value, list):
            return [self._wrap(v) for v in value]
        if isinstance(value, tuple):
            return tuple(self._wrap(v) for v in value)
        return value

    def __getattr__(self, name: str) -> Any:
        target = self._target
        static = inspect.getattr_static(type(target), name, None)
        if callable(static) and not isinstance(static, property):  # a method: call it on the loop
            # A facade passed back in (`context.new_cdp_session(page)`) is the object it stands for.
            return lambda *args, **kwargs: self._run(
                lambda: getattr(target, name)(
                    *map(_unwrap, args), **{k: _unwrap(v) for k, v in kwargs.items()}
                )
            )
        return self._run(lambda: getattr(target, name))

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        return f"SyncFacade({type(self._target).__name__})"


def _unwrap(value: Any) -> Any:
    return object.__getattribute__(value, "_target") if isinstance(value, SyncFacade) else value


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
