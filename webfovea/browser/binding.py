"""Bind a browser to an environment's server-side session before the first navigation.

A task may declare `session` (task.SessionSpec): the environment's control plane makes a fresh
session and names the cookie that binds a browser to it. The secret comes from the runner's
environment (WEBFOVEA_CONTROL_SECRET), never from the task, so nothing written in a task file
or shown to the model can reach the control plane. The cookie is httpOnly: page scripts
cannot read it either.
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

import httpx
from playwright.async_api import Page

from webfovea.task import Task
from webfovea.tls import tls_context

SECRET_ENV = "WEBFOVEA_CONTROL_SECRET"
CONTROL_HEADER = "X-Webfovea-Control"


class SessionBindError(RuntimeError):
    """The environment would not make a session; str(e) says what to do."""


async def bind_session(page: Page, task: Task, timeout_s: float = 10.0) -> str | None:
    """Make the task's session and set its cookie on the start page's origin; its id, or None."""
    spec = task.session
    if spec is None:
        return None
    secret = os.environ.get(SECRET_ENV)
    if not secret:
        raise SessionBindError(
            f"task {task.task_id} asks for an environment session but {SECRET_ENV} is not set "
            "(the runner that started the sites sets it; run the task through `webfovea bench`)"
        )
    try:
        async with httpx.AsyncClient(timeout=timeout_s, trust_env=False, verify=tls_context()) as http:
            r = await http.post(
                spec.control_url,
                headers={CONTROL_HEADER: secret},
                json={"task_id": task.task_id, "seed": spec.seed, "variant": spec.variant},
            )
    except httpx.HTTPError as e:
        raise SessionBindError(
            f"the environment's control plane at {spec.control_url} did not answer: {e}"
        ) from None
    if r.status_code != 200:
        raise SessionBindError(f"the environment refused a session ({r.status_code}): {r.text[:300]}")
    body = r.json()
    cookie = body["cookie"]
    parts = urlsplit(task.website)
    await page.context.add_cookies(
        [
            {
                "name": cookie["name"],
                "value": cookie["value"],
                "url": f"{parts.scheme}://{parts.netloc}",
                "httpOnly": True,
                "sameSite": "Lax",
            }
        ]
    )
    return str(body["session_id"])
