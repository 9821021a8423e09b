"""Seed 002's own tools, outside the challenge's rules: evaluate(script) and goto(url).

Offered only by the `winner` profile (components `evaluate` and `goto_seen_url`, see
config.OUTSIDE_RULES), so the winner's choices can be re-run beside ours on the same tasks.
Every run that offers them is labelled outside the rules in run.json, result.json and the
report. The default profiles refuse both names as before (guardrails/forbidden.py).
"""

from __future__ import annotations

from webfovea.actions.spec import ActionSpec, ExecContext, Outcome
from webfovea.config import Component
from webfovea.execution.script import (
    OUTPUT_BUDGET_BYTES,
    SCRIPT_TIMEOUT_S,
    ScriptTimeout,
    compress_output,
    run_script,
)
from webfovea.guardrails.seen_urls import check_goto
from webfovea.types import Action, ParamSpec


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0][:300] if text else type(e).__name__


async def exec_evaluate(ctx: ExecContext, action: Action) -> Outcome:
    script = str(action.args.get("script", "")).strip()
    if not script:
        return Outcome(
            ok=False,
            check_change=False,
            note="evaluate needs a script, e.g. evaluate(script='document.title').",
        )
    try:
        value = await run_script(ctx.page, script)
    except ScriptTimeout as e:
        return Outcome(ok=False, check_change=False, note=f"evaluate: {e}; its result is unknown.")
    except Exception as e:
        return Outcome(ok=False, check_change=False, note=f"evaluate: the script failed: {_first_line(e)}")
    text, done = compress_output(value)
    how = f" ({'; '.join(done)})" if done else ""
    ctx.response.note_chars = OUTPUT_BUDGET_BYTES + 200  # compress_output's own budget holds it
    return Outcome(check_change=False, note=f"evaluate returned{how}: {text}")


async def exec_goto(ctx: ExecContext, action: Action) -> Outcome:
    url = str(action.args.get("url", ""))
    remembered = ctx.state.setdefault("seen_urls", set())
    target, refusal = await check_goto(ctx.page, url, remembered)
    if target is None:
        return Outcome(ok=False, refused=True, check_change=False, note=refusal or "goto refused")
    try:
        await ctx.page.goto(target, wait_until="commit", timeout=ctx.config.settle_max_ms)
    except Exception as e:
        return Outcome(ok=False, check_change=False, note=f"goto {target} failed: {_first_line(e)}")
    return Outcome(navigated=True, note=f"Opened {target}.")


SPECS = [
    ActionSpec(
        name="evaluate",
        watch=False,
        params=(ParamSpec("script", "text"),),
        signature="evaluate(script='document.title')",
        purpose=f"Run JavaScript in the page's main frame and read its result (up to {OUTPUT_BUDGET_BYTES:,} "
        "bytes; repeated long texts are replaced by markers).",
        execute=exec_evaluate,
        component=Component.evaluate,
        rule="Use evaluate only to inspect or operate the real page; never to make up a result the page does "
        "not show.",
        feedback="The script's result, compressed to 24,000 bytes (what was omitted is said), or its error; "
        f"a script still running after {SCRIPT_TIMEOUT_S:g} s is stopped and the model told.",
    ),
    ActionSpec(
        name="goto",
        params=(ParamSpec("url", "text"),),
        signature="goto(url='https://site/page')",
        purpose="Open a URL that appears on the page (a link or written text), or one seen on an earlier page.",
        execute=exec_goto,
        component=Component.goto_seen_url,
        rule="Call goto only with a URL you have seen on the site; never guess or construct one.",
        feedback="The URL opened, or why it was refused (not seen on the page); nothing is opened then.",
    ),
]
