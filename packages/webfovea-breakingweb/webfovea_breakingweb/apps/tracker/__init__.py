"""The issue tracker: tickets on a board of columns (dragged between them), a filtered list,
ticket pages with assignee, priority, labels, estimate and comments (state.py, content.py,
routes.py, page.py + tracker.js, tasks.py)."""

from __future__ import annotations

from webfovea_breakingweb.apps.tracker import content, page, routes, tasks
from webfovea_breakingweb.apps.tracker.state import TrackerState
from webfovea_breakingweb.engine.spec import AppSpec

APP = AppSpec(
    name="tracker",
    title="Issue tracker",
    path="/app/tracker",
    lead="The portal team's tickets: drag a card to another column, or open a ticket to edit and comment.",
    state_model=TrackerState,
    build=content.build,
    routes=routes.register,
    page=page.render,
    tasks=tasks.generate,
    summary="an issue tracker: a board with drag between columns, a filtered list, tickets with comments",
)
