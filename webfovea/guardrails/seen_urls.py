"""`goto(url)` only to URLs that appeared on the page (the `winner` profile; outside the rules).

Seed 002 let its model navigate by URL, but only to URLs "supplied by the user or actually
observed from the current website". This guard enforces the observed part: a target is
allowed when it is the current page, a link on the page (any frame), a URL written in the
page's text, or one of those seen before in this task. Relative targets are resolved
against the current page. Anything else is refused with the reason; nothing is opened.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin, urlsplit, urlunsplit

from playwright.async_api import Page

_COLLECT_JS = r"""() => {
  const out = new Set();
  for (const a of document.querySelectorAll('a[href], area[href]')) out.add(a.href);
  const text = document.body ? document.body.innerText : '';
  for (const m of text.matchAll(/https?:\/\/[^\s"'<>]+/g)) out.add(m[0]);
  return [...out].slice(0, 5000);
}"""
_TRAILING = ".,;:!?)]}'\""
MAX_URL = 2048


def normalise(url: str, base: str | None = None) -> str | None:
    """An absolute http(s) URL without fragment, scheme and host lower-cased; None if not one."""
    url = url.strip().rstrip(_TRAILING) if url else ""
    if not url or len(url) > MAX_URL:
        return None
    parts = urlsplit(urljoin(base, url) if base else url)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path or "/", parts.query, ""))


async def urls_on_page(page: Page) -> set[str]:
    """Every link and written URL of every frame of the page, normalised."""
    seen: set[str] = set()
    for frame in page.frames:
        try:
            found = await frame.evaluate(_COLLECT_JS)
        except Exception:  # a frame navigating away or closed: its links are not on the page now
            continue
        for u in found:
            if (n := normalise(str(u), frame.url)) is not None:
                seen.add(n)
    if (here := normalise(page.url)) is not None:
        seen.add(here)
    return seen


_SCHEME_RE = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


async def check_goto(page: Page, url: str, remembered: set[str]) -> tuple[str | None, str | None]:
    """(the URL to open, None) when it was seen; (None, why) otherwise. `remembered` grows with
    what this page shows, so a URL seen on an earlier page stays allowed."""
    target = normalise(url, page.url)
    if target is None:
        shown = url if len(url) <= 80 else url[:77] + "..."
        kind = "not an http(s) address" if _SCHEME_RE.match(url.strip()) or url.strip() else "empty"
        return None, f"goto: '{shown}' is {kind}; give a URL that appears on the page."
    remembered |= await urls_on_page(page)
    if target in remembered:
        return target, None
    return None, (
        f"goto: {target} does not appear on this page (its links or text) nor on a page seen before; "
        "open only URLs you have seen on the site, or use its links and controls."
    )
