"""The mail client: folders and labels, read/unread, stars, bulk selection, search, threads,
reply and forward with attachments (state.py, content.py, routes.py, page.py + mail.js, tasks.py)."""

from __future__ import annotations

from webfovea_breakingweb.apps.mail import content, page, routes, tasks
from webfovea_breakingweb.apps.mail.state import MailState
from webfovea_breakingweb.engine.spec import AppSpec

APP = AppSpec(
    name="mail",
    title="Mail",
    path="/app/mail",
    lead="Your mailbox: folders and labels on the left; select messages to act on several at once.",
    state_model=MailState,
    build=content.build,
    routes=routes.register,
    page=page.render,
    tasks=tasks.generate,
    summary="a mail client: folders, labels, read/unread, bulk selection, search, threads, reply and forward",
)
