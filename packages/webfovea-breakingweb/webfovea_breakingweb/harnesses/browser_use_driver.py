"""browser-use's own agent loop on one BreakingWeb task. Runs inside browser-use's venv, never
ours (browser-use pins anthropic<2 and httpx 0.28, webfovea needs anthropic>=2.10), and imports
nothing of webfovea:

    <browser-use venv>/bin/python browser_use_driver.py '<job JSON>'

The job: `chromium` (the executable), `url` (the app's start page), `cookie` (the task
session's: name, value, url), `task` (the instruction), `base_url` (the loopback chat server the
decision-maker answers on), `max_steps`, `viewport` ([width, height]), `time_cap_s`.

Its `Agent` runs as a user runs it — its own DOM state, prompts, action set, retries and message
history — with `ChatOpenAI` pointed at `base_url`. Only what needs a second model is off: the
judge (`use_judge`) and message compaction (each would ask the same decision-maker about itself).
Lines on stdout, one JSON object each: `{"cdp_url": ...}` once the browser is up (the
decision-maker reads the page through it, read-only), then `{"result": {...}}` at the end.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from typing import Any

os.environ.setdefault("ANONYMIZED_TELEMETRY", "false")
os.environ.setdefault("BROWSER_USE_LOGGING_LEVEL", "warning")
os.environ.setdefault("BROWSER_USE_SETUP_LOGGING", "false")

from browser_use import Agent, BrowserProfile, BrowserSession  # type: ignore[import-not-found]  # noqa: E402
from browser_use.llm.openai.chat import ChatOpenAI  # type: ignore[import-not-found]  # noqa: E402


def say(line: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(line, default=str) + "\n")
    sys.stdout.flush()


def _actions(history: Any) -> list[dict[str, Any]]:
    try:
        # the element browser-use resolved is its own object: the record keeps the action only
        return [{k: v for k, v in a.items() if k != "interacted_element"} for a in history.model_actions()]
    except Exception:  # noqa: BLE001 - the log is a record, not the verdict
        return []


async def main(job: dict[str, Any]) -> None:
    width, height = job["viewport"]
    profile = BrowserProfile(
        executable_path=job["chromium"],
        headless=True,
        chromium_sandbox=False,  # Chromium refuses its sandbox as root (how these machines run it)
        viewport={"width": width, "height": height},
        window_size={"width": width, "height": height},
        user_data_dir=None,
        keep_alive=True,
        enable_default_extensions=False,  # they are downloaded on first use; loopback runs are offline
    )
    session = BrowserSession(browser_profile=profile)
    try:
        await run_agent(session, job)
    finally:  # keep_alive leaves the browser running on any exit: it goes with this process
        try:
            await session.kill()
        except Exception:  # noqa: BLE001, S110 - nothing left to report to
            pass


async def run_agent(session: Any, job: dict[str, Any]) -> None:
    await session.start()
    cookie = job["cookie"]
    await session._cdp_set_cookies(  # noqa: SLF001 - browser-use's own cookie call (CDP Storage.setCookies)
        [{"name": cookie["name"], "value": cookie["value"], "url": cookie["url"], "httpOnly": True}]
    )
    say({"cdp_url": session.cdp_url})
    llm = ChatOpenAI(model="oracle", base_url=job["base_url"], api_key="loopback", max_retries=0)
    agent = Agent(
        task=job["task"],
        llm=llm,
        browser_session=session,
        initial_actions=[{"navigate": {"url": job["url"]}}],
        directly_open_url=False,
        use_judge=False,
        message_compaction=False,
        enable_signal_handler=False,
        calculate_cost=False,
    )
    t0, status, error = time.monotonic(), "finished", None
    history: Any = None
    try:
        history = await asyncio.wait_for(agent.run(max_steps=int(job["max_steps"])), job["time_cap_s"])
    except TimeoutError:
        status, history = "timeout", agent.history
    except Exception as e:  # noqa: BLE001 - the run's record says what happened
        status, error, history = "error", f"{type(e).__name__}: {e}", agent.history
    done = bool(history.is_done()) if history is not None else False
    if status == "finished" and not done:
        status = "max_steps"
    say(
        {
            "result": {
                "status": status,
                "error": error,
                "done": done,
                "success": history.is_successful() if history is not None else None,
                "answer": history.final_result() if history is not None else None,
                "steps": history.number_of_steps() if history is not None else 0,
                "errors": [e for e in (history.errors() if history is not None else []) if e],
                "actions": _actions(history) if history is not None else [],
                "seconds": round(time.monotonic() - t0, 3),
            }
        }
    )


if __name__ == "__main__":
    asyncio.run(main(json.loads(sys.argv[1])))
