"""Actions over the snapshot (structured and hybrid modes): find, snapshot, look.

`find` and `snapshot` read the latest *untruncated* snapshot the harness took (they never
take a new one: a new snapshot would replace the page's reference table behind the model's
back). `look` hands the model the current viewport screenshot with its question, or asks a
separate vision model (`--vision-model`) and passes its answer on.
"""

from __future__ import annotations

from webfovea.actions.spec import ActionSpec, ExecContext, Outcome
from webfovea.browser import snapshot_text as st
from webfovea.types import Action, ParamSpec

FIND_LIMIT = 10
SUBTREE_BYTES = 12_000  # a subtree is a look inside one container, not the page again


def _no_snapshot() -> Outcome:
    return Outcome(
        ok=False, check_change=False, note="There is no snapshot to search yet; look at the page first."
    )


async def exec_find(ctx: ExecContext, action: Action) -> Outcome:
    text = str(action.args.get("text", "")).strip()
    if ctx.snapshot is None:
        return _no_snapshot()
    if not text:
        return Outcome(ok=False, check_change=False, note="find needs a text to search for.")
    reach = getattr(ctx.snapshot, "reach", None)
    if reach is not None:  # a scoped snapshot brings in the rows it left out that hold the text
        await reach(ctx.page, text, ctx.config.ref_timeout_ms * 2)
    hits = st.find(ctx.snapshot.nodes, text, FIND_LIMIT)
    if not hits:
        return Outcome(
            ok=False,
            check_change=False,
            note=f"No line of the full snapshot contains '{text}'; try a shorter or different text.",
        )
    parts = [
        f"find('{text}'): {len(hits)} match{'es' if len(hits) != 1 else ''} in the full snapshot"
        f"{' (first ' + str(FIND_LIMIT) + ')' if len(hits) >= FIND_LIMIT else ''}:"
    ]
    for node, path in hits:
        where = " > ".join(
            f"{a.role}{' ' + repr(a.name) if a.name else ''}{' [ref=' + a.ref + ']' if a.ref else ''}"
            for a in reversed(path[:3])
            if a.role
        )
        parts.append(f"- {node.line.strip()[2:]}" + (f"   (in {where})" if where else ""))
    ctx.response.note_chars = SUBTREE_BYTES  # up to FIND_LIMIT lines of the snapshot
    return Outcome(check_change=False, note="\n".join(parts))


async def exec_snapshot(ctx: ExecContext, action: Action) -> Outcome:
    ref = action.args.get("ref")
    if ctx.snapshot is None:
        return _no_snapshot()
    node = st.by_ref(ctx.snapshot.nodes).get(ref) if ref else None
    if node is None:
        return Outcome(
            ok=False,
            check_change=False,
            note=f"Reference {ref} is not in the latest snapshot; use a [ref=…] printed there.",
        )
    text = st.render(st.subtree(ctx.snapshot.nodes, node.index))
    data = text.encode("utf-8")
    if len(data) > SUBTREE_BYTES:
        text = data[:SUBTREE_BYTES].decode("utf-8", "ignore").rsplit("\n", 1)[0]
        text += "\n- … (subtree cut here: use snapshot() on a deeper ref, or find(text=…))"
    ctx.response.note_chars = SUBTREE_BYTES + 200  # its own budget, in bytes, is the larger one
    return Outcome(check_change=False, note=f"Subtree of {ref}:\n{text}")


LOOK_SYSTEM = (
    "You answer one question about a web page screenshot (the current browser viewport only, "
    "not the whole page). Answer briefly and exactly: copy values as they are drawn. If the "
    "answer is not visible in this screenshot, say so."
)


async def exec_look(ctx: ExecContext, action: Action) -> Outcome:
    y, height = await ctx.page.evaluate("[Math.round(scrollY), document.documentElement.scrollHeight]")
    question = str(action.args.get("question", "")).strip()
    where = f"scrolled {y} of {height} px"
    if ctx.vision is not None and ctx.vision.separate:
        # A separate vision model reads the screenshot; the task's model gets its answer only.
        image, _ = await ctx.vision.view()
        text, call = await ctx.vision.ask("look", LOOK_SYSTEM, question or "What is on the page?", image)
        ctx.response.add_call(call)
        if call.get("error"):
            return Outcome(
                ok=False,
                check_change=False,
                note=f"look: the vision model could not answer ({call['error']}); {where}.",
            )
        answer = " ".join(text.split())[:2000] or "(no answer)"
        return Outcome(check_change=False, note=f"look ({where}): {answer}")
    ctx.response.show_screenshot()
    return Outcome(
        check_change=False,
        note=f"The current screenshot is attached to answer: {question or 'what is on the page'}. "
        f"Scroll position: {where}.",
    )


SPECS = [
    ActionSpec(
        name="find",
        params=(ParamSpec("text", "text"),),
        signature="find(text='words')",
        purpose="Search the full (untruncated) snapshot: up to 10 matching lines with their refs and context.",
        execute=exec_find,
        needs_snapshot=True,
        watch=False,
        aliases=("browser_find", "search"),
        rule="When the snapshot says nodes were omitted, use find(text=…) or snapshot(ref=…) before "
        "guessing; never invent a reference.",
        feedback="The matching lines with their references and the path of containers; or that nothing matched.",
    ),
    ActionSpec(
        name="snapshot",
        params=(ParamSpec("ref", "ref"),),
        signature="snapshot(ref='e12')",
        purpose="Show the full snapshot subtree under a reference (what truncation omitted there).",
        execute=exec_snapshot,
        needs_snapshot=True,
        watch=False,
        aliases=("browser_snapshot", "expand"),
        feedback="The subtree's lines (cut at 12,000 bytes); or that the reference is not in the latest snapshot.",
    ),
    ActionSpec(
        name="look",
        params=(ParamSpec("question", "text"),),
        signature="look(question='what to look for')",
        purpose="See the current viewport screenshot with your question (text the snapshot cannot show).",
        execute=exec_look,
        needs_snapshot=True,
        watch=False,
        budget=20,
        aliases=("screenshot", "browser_take_screenshot"),
        rule="For values drawn as graphics or with custom fonts, use look (or read_text) before answering.",
        feedback="The vision model's answer (or, without one, the screenshot with the next step), with "
        "the scroll position ('scrolled Y of H px').",
    ),
]
