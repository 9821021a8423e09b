"""`click_many` is for image-grid CAPTCHAs only: clicking many points in one step anywhere
else would let a model skip the per-click feedback that catches missed clicks."""

from __future__ import annotations

import re

from playwright.async_api import Page

_CAPTCHA_TEXT = re.compile(
    r"captcha|select all (?:the )?(?:images|squares|tiles)|verify (?:that )?you are (?:a )?human|i'?m not a robot",
    re.I,
)
_PAGE_TEXT = "() => (document.body ? document.body.innerText : '').slice(0, 20000)"


async def captcha_on_page(page: Page) -> bool:
    """True when any frame of the page shows CAPTCHA wording."""
    for frame in page.frames:
        try:
            if _CAPTCHA_TEXT.search(await frame.evaluate(_PAGE_TEXT)):
                return True
        except Exception:
            continue
    return False
