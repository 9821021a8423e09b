"""The calendar: month and week views in your time zone, events (one-off and recurring, each
scheduled in a time zone), invitations to accept or decline, a rooms legend and your time
zone setting (state.py, content.py, times.py, views.py, routes.py, page.py + calendar.js,
tasks.py)."""

from __future__ import annotations

from webfovea_breakingweb.apps.calendar import content, page, routes, tasks
from webfovea_breakingweb.apps.calendar.state import CalendarState
from webfovea_breakingweb.engine.spec import AppSpec

APP = AppSpec(
    name="calendar",
    title="Calendar",
    path="/app/calendar",
    lead="Your calendar for spring 2025: open an event from the month or week, answer invitations, plan new events.",
    state_model=CalendarState,
    build=content.build,
    routes=routes.register,
    page=page.render,
    tasks=tasks.generate,
    summary="a calendar: month and week views, events and recurring series, invitations, time zones",
    noun="event",
)
