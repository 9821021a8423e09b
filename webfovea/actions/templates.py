"""find_template(name): a recurring widget found by template matching, as one action spec.

The templates are the config's `templates` file (an image and what it is, webfovea/vision/
templates.py) and the ones learnt during the task (kept in the task's action state under
`TEMPLATES_KEY` by whoever learns them: the step router). The current viewport is captured at
CSS scale (Chromium renders it: the templates are CSS-pixel crops too), searched at every scale
of the ladder (vision/matching.py), and the model is told where each match is, in the
coordinates `start_box` takes, with its score. Like locate it never clicks: acting is the
model's next decision. Offered only when a templates file is configured.
"""

from __future__ import annotations

import asyncio
import copy

from playwright.async_api import Page

from webfovea.actions.locate import model_point
from webfovea.actions.spec import ActionSpec, ExecContext, Outcome
from webfovea.actions.zoom import capture_region
from webfovea.types import Action, ParamSpec
from webfovea.vision.match import Match, TemplateError
from webfovea.vision.templates import Template, TemplatesError, TemplateSet, templates_of

TEMPLATES_KEY = "templates"  # ExecContext.state: the task's TemplateSet (file + learnt)
MAX_SHOWN = 3  # matches named in the note


def task_templates(state: dict[str, object], path: str | None) -> TemplateSet:
    """The task's template set: a copy of the file's (so what a task learns stays in it), made
    on first use and kept in the task's action state."""
    held = state.get(TEMPLATES_KEY)
    if isinstance(held, TemplateSet):
        return held
    base = templates_of(path) if path else TemplateSet()
    own = TemplateSet(copy.copy(base.templates))
    state[TEMPLATES_KEY] = own
    return own


async def find_in_view(
    page: Page, template: Template, css: tuple[float, float], limit: int
) -> list[tuple[tuple[float, float], Match]]:
    """Where `template` shows in the viewport (`css`: its CSS size), best first: each match's
    `click` point in CSS pixels, and the match. The capture is at CSS scale (Chromium renders
    it: the templates are CSS-pixel crops too); the search runs off the event loop, so the
    page's events keep flowing."""
    shot = await capture_region(page, 0.0, 0.0, css[0], css[1], 1.0)
    matches = await asyncio.to_thread(template.find, shot, limit)
    sx, sy = css[0] / shot.width, css[1] / shot.height
    out = []
    for m in matches:
        cx, cy = m.point(template.click)
        out.append(((cx * sx, cy * sy), m))
    return out


async def exec_find_template(ctx: ExecContext, action: Action) -> Outcome:
    name = str(action.args.get("name", "")).strip()
    try:
        templates = task_templates(ctx.state, ctx.config.templates)
    except TemplatesError as e:
        return Outcome(ok=False, check_change=False, note=f"find_template is not available: {e}")
    known = ", ".join(t.describe() for t in templates.templates.values()) or "none"
    template = templates.get(name)
    if template is None:
        return Outcome(
            ok=False,
            check_change=False,
            note=f"find_template: no template {name!r}; the templates are: {known}.",
        )
    try:
        found = await find_in_view(ctx.page, template, (ctx.view.css_width, ctx.view.css_height), MAX_SHOWN)
    except TemplateError as e:
        return Outcome(ok=False, check_change=False, note=f"find_template: {name!r} cannot be searched: {e}")
    if not found:
        return Outcome(
            ok=True,
            check_change=False,
            note=f"find_template: {template.describe()} is not in the current view; scroll or look again.",
        )
    places = []
    for (cx, cy), m in found:
        mx, my = model_point(ctx.view, cx, cy)
        places.append(f"({mx},{my}) score {m.score:.2f} at scale {m.scale:.2f}")
    return Outcome(
        ok=True,
        check_change=False,
        note=f"find_template: {template.describe()} found at "
        + "; ".join(places)
        + ". Use click(start_box='...') with a point to act on it (nothing was clicked).",
    )


SPECS = [
    ActionSpec(
        name="find_template",
        params=(ParamSpec("name", "text"),),
        signature="find_template(name='template name')",
        purpose="Find a known widget (a template: cookie banner, paginator, date picker) in the view by "
        "its picture at any size: returns start_box points and scores; it does not click.",
        execute=exec_find_template,
        needs_setting="templates",
        watch=False,
        budget=20,
        aliases=("template_match", "match_template"),
        rule="For a widget a template is given for, call find_template and act on the start_box it returns.",
        feedback="Where the template matched (start_box points, scores) or that it is not in view; "
        "nothing is clicked.",
    ),
]
