"""Secret values put into the text an action types, only where each may go.

The model writes `<secret>NAME</secret>` in the text of an action whose spec lists the
parameter in `secret_params` (type, fill). Just before the action runs, each placeholder is
replaced by the value, on a copy of the action (the recorded action keeps the placeholder),
if the page's origin and the origin of the frame the keystrokes reach — the frame under the
point, or the one holding the focus — are both among the secret's origins. Otherwise the
action is refused before it touches the page, with a note naming the origin. What the page
then shows of the value is scrubbed at the boundaries (`webfovea/secrets.py`).
"""

from __future__ import annotations

from playwright.async_api import Page

from webfovea.browser.frames import MAX_FRAME_DEPTH, frame_at_point
from webfovea.browser.world import PageUnresponsive, worlds
from webfovea.config import HarnessConfig
from webfovea.feedback import notes
from webfovea.secrets import PLACEHOLDER_RE, origin_of
from webfovea.types import Action

_FOCUSED_FRAME = """() => { const a = document.hasFocus() && document.activeElement;
  return a && /^(IFRAME|FRAME)$/.test(a.tagName) ? a : null; }"""


def named(action: Action, params: tuple[str, ...]) -> list[str]:
    """The secret names the action's text parameters hold, in order, once each."""
    found = [n for p in params for n in PLACEHOLDER_RE.findall(str(action.args.get(p) or ""))]
    return list(dict.fromkeys(found))


async def focused_frame_url(page: Page) -> str:
    """The URL of the frame holding the keyboard focus, read in the harness's isolated worlds
    (a page faking `activeElement` cannot send the keystrokes elsewhere than it says)."""
    w = worlds(page)
    ref = await w.main()
    url = page.main_frame.url
    for _ in range(MAX_FRAME_DEPTH):
        host = await w.handle(ref, _FOCUSED_FRAME)
        if host is None:
            return url
        try:
            child = await w.frame_of(host)
        finally:
            await w.release(host)
        if child is None:
            return url
        ref, url = child, await w.url(child)
    return url


async def put_secrets(
    page: Page,
    config: HarnessConfig,
    params: tuple[str, ...],
    action: Action,
    point: tuple[float, float] | None,
) -> tuple[Action, str | None]:
    """(the action to run, None), or (the action, why it is refused) when a named secret is
    unknown, has no value here, or may not go to this page."""
    names = named(action, params)
    if not names:
        return action, None
    known = config.secrets
    unknown = [n for n in names if n not in known]
    if unknown:
        return action, notes.secret_unknown(unknown[0], sorted(known))
    empty = [n for n in names if known[n].plain() is None]
    if empty:
        return action, notes.secret_without_value(empty[0])
    try:
        target = (
            (await frame_at_point(page, *point)).url if point is not None else await focused_frame_url(page)
        )
    except PageUnresponsive:
        raise
    except Exception:  # a frame that went away meanwhile: the page's own origin decides alone
        target = page.url
    for name in names:
        secret = known[name]
        for url in dict.fromkeys((page.url, target)):
            if not secret.typable_on(url):
                return action, notes.secret_refused(name, origin_of(url) or url, secret.origins)
    args = {
        k: PLACEHOLDER_RE.sub(lambda m: known[m.group(1)].plain() or "", v)
        if k in params and isinstance(v, str)
        else v
        for k, v in action.args.items()
    }
    return Action(action.name, args, action.raw), None
