"""Secret values typed into the one field they were checked for, and nowhere else.

The model writes `<secret>NAME</secret>` in the text of an action whose spec lists the
parameter in `secret_params` (type, fill). Before the action runs, `put_secrets` checks each
name and the origins the keystrokes would reach — the page's and the frame's under the point,
or the one holding the focus — and refuses the action before it touches the page otherwise.
The action keeps its placeholders: the values are never substituted into text that a
keyboard could deliver anywhere. Instead the action types through a `SecretTypist` (handed on
in `ExecContext.typist`) that binds to one element — the field `fill` focused, or the element
holding the focus when `type` starts — checks that element's own frame against the secret's
origins, and inserts each value in one evaluation in that frame's isolated world: only if the
element holds the focus there (and its document holds the page's focus), with one atomic
`insertText` edit, so a page that moves the focus into another site's frame mid-typing
receives nothing (a keyboard event cannot be redirected inside a single script task). A focus
move aborts the typing and the note says so. The element is marked (`SECRET_MARK`), so the
screenshot mask finds it by identity (browser/secret_fields.py) and nothing reads it back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from playwright.async_api import Page

from webfovea.browser.frames import MAX_FRAME_DEPTH, frame_at_point
from webfovea.browser.secret_fields import SECRET_MARK
from webfovea.browser.world import FrameRef, PageUnresponsive, Remote, worlds
from webfovea.config import HarnessConfig
from webfovea.feedback import notes
from webfovea.secrets import PLACEHOLDER_RE, Secret, origin_of, placeholder
from webfovea.types import Action

_FOCUSED_FRAME = """() => { const a = document.hasFocus() && document.activeElement;
  return a && /^(IFRAME|FRAME)$/.test(a.tagName) ? a : null; }"""
# The deepest focused element of this document, through open shadow roots.
_FOCUSED = """() => { if (!document.hasFocus()) return null; let a = document.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a && a !== document.body && a !== document.documentElement ? a : null; }"""
# One task: is `el` the focused element of a focused document? Then one insertText edit, and
# the element is marked as holding a secret. Never returns the field's text, only lengths.
_INSERT = (
    """(el, value) => {
  const focused = () => { if (!document.hasFocus()) return null; let a = document.activeElement;
    while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement; return a; };
  const size = () => (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') ? el.value.length
    : (el.textContent || '').length;
  if (!el.isConnected || focused() !== el) return {typed: false, focus: false, grew: 0};
  const before = size();
  (globalThis.SECRET_MARK = globalThis.SECRET_MARK || new Set()).add(el);
  const typed = document.execCommand('insertText', false, value);
  return {typed, focus: focused() === el, grew: size() - before};
}"""
).replace("SECRET_MARK", SECRET_MARK)


def named(action: Action, params: tuple[str, ...]) -> list[str]:
    """The secret names the action's text parameters hold, in order, once each."""
    found = [n for p in params for n in PLACEHOLDER_RE.findall(str(action.args.get(p) or ""))]
    return list(dict.fromkeys(found))


async def _focused_chain(page: Page) -> tuple[FrameRef, str]:
    """The frame holding the keyboard focus and its URL, read in the harness's isolated worlds
    (a page faking `activeElement` cannot send the keystrokes elsewhere than it says)."""
    w = worlds(page)
    ref = await w.main()
    url = page.main_frame.url
    for _ in range(MAX_FRAME_DEPTH):
        host = await w.handle(ref, _FOCUSED_FRAME)
        if host is None:
            return ref, url
        try:
            child = await w.frame_of(host)
        finally:
            await w.release(host)
        if child is None:
            return ref, url
        ref, url = child, await w.url(child)
    return ref, url


async def focused_frame_url(page: Page) -> str:
    """The URL of the frame holding the keyboard focus."""
    return (await _focused_chain(page))[1]


@dataclass
class SecretTypist:
    """Types text whose `<secret>NAME</secret>` parts are the secrets' values, into one element.

    Plain parts go as keystrokes; each value goes by `_INSERT` into the bound element only.
    `typed` counts the secrets put in, so a read-back of the field is never quoted."""

    page: Page
    secrets: dict[str, Secret]
    typed: list[str] = field(default_factory=list)

    async def type_focused(self, text: str, delay_ms: float = 0) -> str:
        """`type`: bind to the element holding the focus now; '' when all was typed, else why not."""
        w = worlds(self.page)
        ref, _ = await _focused_chain(self.page)
        el = await w.handle(ref, _FOCUSED)
        if el is None:
            return notes.secret_no_field()
        try:
            return await self.type_into(ref, el, text, delay_ms)
        finally:
            await w.release(el)

    async def type_into(self, ref: FrameRef, el: Remote, text: str, delay_ms: float = 0) -> str:
        """`fill` (and `type` once bound): the text into `el` of frame `ref`; '' or why it stopped."""
        w = worlds(self.page)
        url = await w.url(ref)
        for name in PLACEHOLDER_RE.findall(text):
            for where in dict.fromkeys((self.page.url, url)):
                secret = self.secrets[name]
                if not secret.typable_on(where):
                    return notes.secret_refused(name, origin_of(where) or where, secret.origins)
        at = 0
        for m in PLACEHOLDER_RE.finditer(text):
            if m.start() > at:
                await self.page.keyboard.type(text[at : m.start()], delay=delay_ms)
            name, value = m.group(1), self.secrets[m.group(1)].plain() or ""
            got = await w.call_on(el, _INSERT, value)
            self.typed.append(name)
            if not got.get("focus"):
                return notes.secret_focus_moved(name)
            if not got.get("typed") or got.get("grew") != len(value):
                return notes.secret_cut(name)
            at = m.end()
        if at < len(text):
            await self.page.keyboard.type(text[at:], delay=delay_ms)
        return ""

    def shown(self, text: str) -> str:
        """How the field's content is told to the model: as written, placeholders and all."""
        return PLACEHOLDER_RE.sub(lambda m: placeholder(m.group(1)), text)


async def put_secrets(
    page: Page,
    config: HarnessConfig,
    params: tuple[str, ...],
    action: Action,
    point: tuple[float, float] | None,
) -> tuple[SecretTypist | None, str | None]:
    """(the typist the action types through, None), (None, None) when the action names no
    secret, or (None, why it is refused) when a named secret is unknown, has no value here,
    or may not go to this page."""
    names = named(action, params)
    if not names:
        return None, None
    known = config.secrets
    unknown = [n for n in names if n not in known]
    if unknown:
        return None, notes.secret_unknown(unknown[0], sorted(known))
    empty = [n for n in names if known[n].plain() is None]
    if empty:
        return None, notes.secret_without_value(empty[0])
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
                return None, notes.secret_refused(name, origin_of(url) or url, secret.origins)
    return SecretTypist(page, {n: known[n] for n in names}), None
