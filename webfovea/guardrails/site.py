"""The site guard: a task stays on its site, enforced by the browser.

The task's site is the registrable domain of its start URL (`shop.example.co.uk` ->
`example.co.uk`, from the Public Suffix List) plus any `--allow-domain`; on loopback and
private addresses it is the start URL's origin (scheme, host, port) plus the origins the
task or suite declares (the proving ground declares its frame host). Top-level navigations,
new tabs and form posts that leave the site are answered `204 No Content` inside the
browser, so the tab stays where it was and nothing of the other site is ever shown; the
block is recorded and the model is told. Subresources and iframes keep working. Only
http(s) pages are opened: `file:`, `data:`, `view-source:`, `chrome:` and the like never are.

Two browser mechanisms enforce it, because each misses what the other catches:
Playwright routing on the context covers every page from its first request (pop-ups
included), and a CDP `Fetch` interception of document requests on each page covers redirect
hops (Playwright routes only the first URL of a redirect chain).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from playwright.async_api import BrowserContext, CDPSession, Page, Route

if TYPE_CHECKING:  # imported on first use: the list is parsed once, when a guard needs it
    from publicsuffixlist import PublicSuffixList

_WEB = ("http", "https")
UNINSTALL_WAIT_S = 1.0
_BLANK = ("about:blank", "about:srcdoc")


@cache
def _psl() -> PublicSuffixList:
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList()


def is_local_host(host: str) -> bool:
    """Loopback, private, link-local or unspecified addresses, and localhost names."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_unspecified


def registrable(host: str) -> str:
    """`a.b.example.co.uk` -> `example.co.uk`; an IP address or a bare suffix stays as it is."""
    host = host.strip("[]").lower().rstrip(".")
    try:
        ipaddress.ip_address(host)
        return host
    except ValueError:
        pass
    return _psl().privatesuffix(host) or host


def origin(url: str) -> str:
    p = urlsplit(url if "://" in url else f"http://{url}")
    port = p.port or (443 if p.scheme == "https" else 80)
    return f"{p.scheme}://{(p.hostname or '').lower()}:{port}"


@dataclass
class SitePolicy:
    """Which top-level URLs belong to a task's site."""

    start_url: str
    allow_domains: list[str] = field(default_factory=list)
    allow_origins: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        host = urlsplit(self.start_url).hostname or ""
        self.local = is_local_host(host)
        self.origins = {origin(self.start_url), *(origin(o) for o in self.allow_origins)}
        self.domains = set() if self.local else {registrable(host)}
        for d in self.allow_domains:
            h = urlsplit(d).hostname if "://" in d else d.split("/")[0].split(":")[0]
            if h:
                self.domains.add(registrable(h))

    @property
    def site(self) -> str:
        return ", ".join(
            sorted(self.domains)
            + sorted(o for o in self.origins if is_local_host(urlsplit(o).hostname or ""))
        )

    def check(self, url: str) -> str | None:
        """None when a top-level navigation to `url` is allowed, else why it is not."""
        if url in _BLANK:
            return None
        try:
            p = urlsplit(url)
            host = (p.hostname or "").lower()
            p.port  # noqa: B018 - raises on a malformed port
        except ValueError:
            return "it is not a valid address"
        if p.scheme == "blob":
            return self.check(url[5:])
        if p.scheme not in _WEB:
            return f"{p.scheme}: pages are never opened"
        if origin(url) in self.origins:
            return None
        if is_local_host(host):
            return "it is a local or private address outside this task's site"
        if registrable(host) in self.domains:
            return None
        return f"it is outside this task's site ({self.site})"

    def prefilter(self) -> re.Pattern[str]:
        """URLs that are not certainly on the site: only those reach the Python route handler."""
        doms = "|".join(re.escape(d) for d in sorted(self.domains))
        alts = [rf"https?://(?:[^/?#@]*\.)?(?:{doms})(?::\d+)?"] if doms else []
        for o in sorted(self.origins):
            scheme, rest = o.split("://", 1)
            host, port = rest.rsplit(":", 1)
            default = (scheme == "http" and port == "80") or (scheme == "https" and port == "443")
            alts.append(
                re.escape(f"{scheme}://{host}") + (f"(?::{port})?" if default else re.escape(f":{port}"))
            )
        return re.compile(rf"^(?!(?:{'|'.join(alts)})(?:[/?#]|$))")


@dataclass
class Blocked:
    url: str
    reason: str
    kind: str  # "navigation" (a link, a form, a script, a new tab) or "redirect"
    at: float = field(default_factory=time.time)


class SiteGuard:
    """Enforces a SitePolicy on a browser context and everything it opens."""

    def __init__(self, policy: SitePolicy, on_block: Callable[[Blocked], None] | None = None) -> None:
        self.policy = policy
        self.on_block = on_block
        self.blocked: list[Blocked] = []
        self._unread: list[Blocked] = []
        self._sessions: dict[Page, CDPSession] = {}
        self._context: BrowserContext | None = None
        self._pattern = policy.prefilter()

    async def install(self, context: BrowserContext) -> None:
        self._context = context
        await context.route(self._pattern, self._route)
        context.on("page", self._on_page)
        for page in context.pages:
            await self.attach(page)

    def _on_page(self, page: Page) -> None:
        asyncio.ensure_future(self.attach(page))

    def _block(self, url: str, reason: str, kind: str) -> None:
        b = Blocked(url, reason, kind)
        self.blocked.append(b)
        self._unread.append(b)
        if self.on_block is not None:
            try:
                self.on_block(b)
            except Exception:
                pass

    def take_unread(self) -> list[Blocked]:
        """Blocks not yet told to the model."""
        out, self._unread = self._unread, []
        return out

    async def _route(self, route: Route) -> None:
        req = route.request
        try:
            top = req.frame.parent_frame is None
        except Exception:  # a pop-up's first request may come before its frame is known
            top = True
        reason = self.policy.check(req.url) if req.is_navigation_request() and top else None
        try:
            if reason is not None:
                self._block(req.url, reason, "navigation")
                await route.fulfill(status=204, body="")
            else:
                await route.fallback()
        except Exception:
            pass

    async def attach(self, page: Page) -> None:
        """Intercept the page's top-level document requests, redirect hops included."""
        if page in self._sessions or page.is_closed():
            return
        try:
            session = await page.context.new_cdp_session(page)
            self._sessions[page] = session
            main_id = (await session.send("Page.getFrameTree"))["frameTree"]["frame"]["id"]
            session.on(
                "Fetch.requestPaused", lambda ev: asyncio.ensure_future(self._paused(session, main_id, ev))
            )
            await session.send(
                "Fetch.enable",
                {"patterns": [{"urlPattern": "*", "resourceType": "Document", "requestStage": "Request"}]},
            )
        except Exception:
            pass  # the page closed while attaching

    async def _paused(self, session: CDPSession, main_id: str, ev: dict[str, Any]) -> None:
        rid = ev["requestId"]
        url = ev["request"]["url"]
        try:
            reason = self.policy.check(url) if ev.get("frameId") == main_id else None
            if reason is not None:
                self._block(url, reason, "redirect" if ev.get("redirectedRequestId") else "navigation")
                await session.send(
                    "Fetch.fulfillRequest", {"requestId": rid, "responseCode": 204, "body": ""}
                )
                return
        except Exception:
            pass
        try:
            await session.send("Fetch.continueRequest", {"requestId": rid})
        except Exception:
            pass

    async def uninstall(self) -> None:
        steps = [s.detach() for s in self._sessions.values()]
        self._sessions.clear()
        if self._context is not None:
            with contextlib.suppress(Exception):  # never added: the install failed half-way
                self._context.remove_listener("page", self._on_page)
            steps.append(self._context.unroute(self._pattern, self._route))
        # A renderer stuck in an endless script never acknowledges the unroute or a detach:
        # Playwright then waits about 10 s for each. The context is closed right after, which
        # ends both anyway, so a stuck one is abandoned after a second.
        if not steps:
            return
        tasks = [asyncio.ensure_future(step) for step in steps]
        done, pending = await asyncio.wait(tasks, timeout=UNINSTALL_WAIT_S)
        for task in pending:
            task.cancel()
        for task in done:
            task.exception()  # retrieved: a page closed meanwhile is no error here
