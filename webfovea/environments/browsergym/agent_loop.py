"""One event loop on a thread of its own, for webfovea's asynchronous code called from
BrowserGym's synchronous world (the AgentLab agent, agentlab.py).

BrowserGym's environment drives Playwright's sync API, which keeps an asyncio loop marked as
running on the calling thread for as long as its Playwright is alive (it runs on greenlets).
So the thread that calls `Agent.get_action` cannot run a loop of its own: `run_until_complete`
fails with "Cannot run the event loop while another loop is running". The model clients and
everything else webfovea awaits run on this loop instead, and the caller waits for the result.

One loop per process, started on first use and shared by every agent of the process (AgentLab
makes a new agent for every episode): model clients that hold connections keep their loop.
The thread is a daemon: AgentLab's and BrowserGym's loops never close an agent, so an agent's
model is closed here when the agent is dropped (`close_soon`, from any thread, GC's included).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_thread: threading.Thread | None = None


def agent_loop() -> asyncio.AbstractEventLoop:
    """The process's agent loop, started on its thread the first time it is asked for."""
    global _loop, _thread
    with _lock:
        if _loop is None or _loop.is_closed() or _thread is None or not _thread.is_alive():
            loop = asyncio.new_event_loop()
            ready = threading.Event()

            def serve() -> None:
                asyncio.set_event_loop(loop)
                loop.call_soon(ready.set)
                loop.run_forever()

            _thread = threading.Thread(target=serve, name="webfovea-agent-loop", daemon=True)
            _thread.start()
            ready.wait()
            _loop = loop
        return _loop


def run_on_agent_loop(coro: Coroutine[Any, Any, T], timeout_s: float | None = None) -> T:
    """Run `coro` on the agent loop and wait for its result (its exception is raised here).
    From the loop's own thread this would wait for itself forever: refused."""
    loop = agent_loop()
    if threading.current_thread() is _thread:
        coro.close()
        raise RuntimeError("run_on_agent_loop was called on the agent loop's own thread; await instead")
    return asyncio.run_coroutine_threadsafe(coro, loop).result(timeout_s)


def close_soon(model: object) -> None:
    """Schedule `model.aclose()` on the agent loop without waiting (safe from any thread, the
    loop's own included: a garbage-collected agent's finalizer runs wherever GC runs)."""
    aclose = getattr(model, "aclose", None)
    if aclose is None:
        return
    loop = agent_loop()
    loop.call_soon_threadsafe(lambda: loop.create_task(aclose()))
