"""The snapshot of a big page, scoped to what the model can use: never the whole tree.

Playwright's AI snapshot visits every element of its root (roles, names, boxes, pointer
checks), so a 3,000-row table costs seconds per step — 10 s and a timeout under load — and
truncation then throws most of it away. On a page with more than `snapshot_scope_elements`
elements whose snapshot would exceed `snapshot_scope_bytes` (estimated) the harness instead plans the snapshot in its isolated world (`PLAN_JS`, one
evaluation): subtrees small enough are taken whole as *pieces*, one `locator.aria_snapshot`
each (landmarks, forms, navigation, headings: whatever is small); a big container is
descended into and only its children on or near the screen, its first and last ones, its
landmarks (forms, navigation, headings) and its big children are kept; each run of children
left out becomes one marker line. Containers are written as a role line of their own (no ref:
they are not targets).

"On screen" is read from each child's rendered box (`getBoundingClientRect`: CSS transforms
applied; a `display: contents` wrapper by its content's box) against the part of the viewport
its container shows, the viewport cut by every ancestor that clips overflow (nested scrollers,
a grid's own viewports). What is on screen is never left out: not for the byte estimate, not
for the budget (`Scoped.at_floor` then lifts the cut to the whole-snapshot budget), so a
virtualised grid's visible rows are always readable and their refs resolvable.

Refs stay Playwright's own: a ref is bound to its element (`element._ariaRef`, kept while
its role and name stay), so the same element carries the same ref in every piece and every
step. Playwright resolves `aria-ref=` only against the latest snapshot taken in the frame,
so each ref remembers the piece it came from (`Scoped.scopes`); resolving it retakes that
one piece first (execution/refs.py). `find` reaches the rows left out through `extend`.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from dataclasses import dataclass, field

from playwright.async_api import Page

from webfovea.browser import snapshot_text as st
from webfovea.browser.world import worlds

# The walk in the isolated world. An XPath of child positions names each piece: native to
# match (Playwright's own CSS engine took 50-400 ms per `:nth-child` chain on a 24,000-element
# page), and a page that changed its structure makes it miss (the ref is refused, not misdirected). Roles of containers come from the ARIA attribute or a small tag table.
PLAN_JS = r"""
(opts) => {
  const W = innerWidth, H = innerHeight, mid = H / 2;
  const size = (el) => el.getElementsByTagName('*').length + 1;
  const path = (el) => {
    const parts = [];
    for (let e = el; e; e = e.parentElement) {
      let i = 1;
      for (let s = e.previousElementSibling; s; s = s.previousElementSibling) i++;
      parts.unshift('*[' + i + ']');
    }
    return 'xpath=/' + parts.join('/');
  };
  // What the snapshot of a piece depends on, cheaply: its markup, its fields' state, its size, focus.
  // Element identities live in this isolated world only: a re-rendered copy of a piece (or of
  // anything inside it) is a new element with new refs, so its signature changes too.
  const ids = globalThis.__webfoveaScopeIds || (globalThis.__webfoveaScopeIds = {m: new WeakMap(), n: 0});
  const idOf = (e) => { let v = ids.m.get(e); if (!v) { v = ++ids.n; ids.m.set(e, v); } return v; };
  const sig = (el) => {
    let h = 7;
    const mix = (s) => { for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0; };
    mix(el.outerHTML);
    h = (h * 31 + idOf(el)) | 0;
    for (const d of el.getElementsByTagName('*')) h = (h * 31 + idOf(d)) | 0;
    for (const f of el.querySelectorAll('input,select,textarea')) mix((f.value || '') + (f.checked ? '1' : '0'));
    const r = el.getBoundingClientRect();
    return h + ':' + Math.round(r.width) + 'x' + Math.round(r.height) + (el.contains(document.activeElement) ? ':a' : '');
  };
  const ROLE = {main: 'main', nav: 'navigation', table: 'table', thead: 'rowgroup', tbody: 'rowgroup',
    tfoot: 'rowgroup', tr: 'row', ul: 'list', ol: 'list', li: 'listitem', form: 'form', header: 'banner',
    footer: 'contentinfo', aside: 'complementary', section: 'region', article: 'article', dialog: 'dialog'};
  const LANDMARK = /^(FORM|NAV|MAIN|HEADER|FOOTER|ASIDE|DIALOG|H1|H2|H3)$/;
  const LANDMARK_ROLE = /^(form|navigation|main|banner|search|dialog|alertdialog|contentinfo|tablist|toolbar)$/;
  const landmark = (k) => LANDMARK.test(k.tagName) || LANDMARK_ROLE.test(k.getAttribute('role') || '');
  const hidden = (el) => { const cs = getComputedStyle(el); return cs.display === 'none' || cs.visibility === 'hidden'; };
  const isRow = (k) => k.tagName === 'TR' || k.getAttribute('role') === 'row';
  const est = (el) => 60 * size(el) + 1.5 * (el.textContent || '').length;
  // What of the viewport an element's children can show through: the viewport cut by every ancestor
  // that clips its overflow (nested scrollers, a grid's viewports), as rendered (transforms applied).
  // Children of one container share it, so it is computed once per container.
  const VIEW = {l: 0, t: 0, r: W, b: H};
  const clips = new Map();
  const clipOf = (el) => {
    if (!el || el === document.body || el === document.documentElement) return VIEW;
    let c = clips.get(el);
    if (c) return c;
    c = clipOf(el.parentElement);
    const cs = getComputedStyle(el);
    if (cs.position === 'fixed') c = VIEW;
    if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible') {
      const r = el.getBoundingClientRect();
      c = {l: Math.max(c.l, r.left), t: Math.max(c.t, r.top), r: Math.min(c.r, r.right), b: Math.min(c.b, r.bottom)};
    }
    clips.set(el, c);
    return c;
  };
  // The rendered box of an element: its border box, or (display: contents, inline wrappers) its content's.
  const boxOf = (k) => {
    const r = k.getBoundingClientRect();
    if (r.width || r.height) return r;
    const range = document.createRange();
    range.selectNodeContents(k);
    return range.getBoundingClientRect();
  };
  // 0: some of the element is on screen; otherwise half a view plus its gap to what is shown.
  const distOf = (k, clip) => {
    const r = boxOf(k);
    const c = clip.r > clip.l && clip.b > clip.t ? clip : VIEW;
    const gx = Math.max(c.l - r.right, r.left - c.r, 0), gy = Math.max(c.t - r.bottom, r.top - c.b, 0);
    if (c === clip && (r.width || r.height) && r.right > c.l && r.left < c.r && r.bottom > c.t && r.top < c.b) return 0;
    return mid + gx + gy;
  };
  const out = [];
  // dist < 0: always kept (a small subtree of the page's frame, a landmark); 0: on screen, always
  // kept; otherwise a child of a big container, kept nearest the view first while the estimate fits.
  const visit = (el, depth, dist) => {
    if (size(el) <= opts.limit) { out.push({kind: 'piece', el, depth, dist, row: isRow(el)}); return; }
    const tag = el.tagName.toLowerCase();
    out.push({kind: 'open', depth, role: el.getAttribute('role') || ROLE[tag] || 'generic',
              name: (el.getAttribute('aria-label') || '').slice(0, 80)});
    const kids = [...el.children].filter((k) => !hidden(k) && k.tagName !== 'SCRIPT' && k.tagName !== 'STYLE');
    const clip = clipOf(el);
    kids.forEach((k, i) => {
      if (landmark(k) || size(k) > opts.limit) return visit(k, depth + 1, -1);
      let d = distOf(k, clip);
      if (d > 0 && i < opts.head) d = Math.min(d, H * 0.6);
      else if (d > 0 && i >= kids.length - opts.tail) d = Math.min(d, H * 0.9);
      visit(k, depth + 1, d);
    });
  };
  const root = document.body || document.documentElement;
  const total = size(root);
  // Small pages, or pages whose whole snapshot fits the budget anyway, are taken whole.
  if (total <= opts.threshold || est(root) <= opts.budget) return {total, plan: null};
  for (const k of root.children) if (!hidden(k) && k.tagName !== 'SCRIPT') visit(k, 0, -1);
  const pieces = out.filter((s) => s.kind === 'piece');
  let used = 0;
  // What is on screen is never left out (up to a bound for a page zoomed far out).
  let onScreen = 0;
  for (const s of pieces) if (s.dist < 0 || s.dist === 0 && onScreen++ < opts.maxView) { used += est(s.el); s.keep = true; }
  for (const s of pieces.filter((s) => s.dist > 0).sort((a, b) => a.dist - b.dist)) {
    if (used + est(s.el) > opts.budget || pieces.length > opts.maxPieces && s.dist > H) continue;
    used += est(s.el); s.keep = true;
  }
  const plan = [];
  let run = null;
  for (const s of out) {
    if (s.kind === 'piece' && !s.keep) {
      if (run && run.depth === s.depth) { run.n++; run.rows = run.rows && s.row; }
      else { run = {kind: 'skip', depth: s.depth, n: 1, rows: s.row}; plan.push(run); }
      continue;
    }
    run = null;
    plan.push(s.kind === 'piece' ? {kind: 'piece', depth: s.depth, sel: path(s.el), sig: sig(s.el), dist: s.dist, row: s.row} : s);
  }
  return {total, plan, doc: performance.timeOrigin + ' ' + location.href};
}
"""

# Around one text match `find` takes the nearest ancestor this small (a row, a list item).
EXTEND_JS = r"""
(opts) => {
  const needle = opts.text.toLowerCase();
  const size = (el) => el.getElementsByTagName('*').length + 1;
  const path = (el) => {
    const parts = [];
    for (let e = el; e; e = e.parentElement) {
      let i = 1;
      for (let s = e.previousElementSibling; s; s = s.previousElementSibling) i++;
      parts.unshift('*[' + i + ']');
    }
    return 'xpath=/' + parts.join('/');
  };
  const seen = new Set(), out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t && out.length < opts.max; t = walker.nextNode()) {
    if (!t.nodeValue || !t.nodeValue.toLowerCase().includes(needle)) continue;
    let el = t.parentElement;
    while (el && el.parentElement && el.parentElement !== document.body && size(el.parentElement) <= opts.limit)
      el = el.parentElement;
    if (!el || seen.has(el)) continue;
    seen.add(el);
    out.push(path(el));
  }
  return out;
}
"""


@dataclass
class ScopeSettings:
    threshold: int = 300  # elements in the page: above this (and over the budget) the snapshot is scoped
    limit: int = 150  # a subtree at most this big is one piece
    budget: int = 12_000  # estimated bytes of the pieces kept (nearest the view first)
    head: int = 3  # first children of a big container kept (a table's header and first rows)
    tail: int = 2
    max_pieces: int = 160
    max_view: int = 400  # on-screen pieces always kept, at most (a page zoomed far out shows thousands)


@dataclass
class Scoped:
    text: str  # the scoped snapshot: pieces under their containers, markers for what was left out
    scopes: dict[str, str] = field(default_factory=dict)  # ref -> XPath of the piece it came from
    pieces: int = 0
    taken: int = 0  # pieces snapshotted this time (the others came from the cache)
    total_elements: int = 0
    omitted: int = 0  # children of big containers left out
    # over the budget with only on-screen pieces and landmarks left: the text must not be cut to it
    at_floor: bool = False


async def plan(page: Page, settings: ScopeSettings) -> tuple[str, list[dict[str, object]] | None]:
    """The pieces to take (None: the page is small enough for a whole snapshot), and the document's identity."""
    w = worlds(page)
    opts = {
        "threshold": settings.threshold,
        "limit": settings.limit,
        "budget": settings.budget,
        "head": settings.head,
        "tail": settings.tail,
        "maxPieces": settings.max_pieces,
        "maxView": settings.max_view,
    }
    res = await w.call(await w.main(), PLAN_JS, opts)
    return str(res.get("doc") or ""), res["plan"]


def indent(text: str, depth: int) -> str:
    pad = "  " * depth
    return "\n".join(pad + line for line in text.split("\n") if line.strip())


async def _piece(page: Page, sel: str, boxes: bool, timeout_ms: int) -> str:
    try:
        return await page.locator(sel).aria_snapshot(mode="ai", boxes=boxes, timeout=timeout_ms)
    except Exception:
        return ""  # the piece went away between the plan and its snapshot: nothing to show of it


def note_refs(text: str, sel: str, scopes: dict[str, str]) -> None:
    for m in st.REF_RE.finditer(text):
        scopes.setdefault(m.group(1), sel)


# The pieces of the last snapshot of each page, by XPath: (document, signature, boxes) -> text.
_CACHE: weakref.WeakKeyDictionary[Page, dict[str, tuple[str, str, bool, str]]] = weakref.WeakKeyDictionary()


def _over_budget(
    pieces: list[dict[str, object]], texts: dict[str, str], budget: int
) -> tuple[set[str], bool]:
    """The view-near pieces to leave out, farthest from the view first, until the text fits; and
    whether it still does not fit (what is left is on screen or a landmark, never left out)."""
    used = sum(len(texts[str(s["sel"])].encode("utf-8")) + 2 * int(str(s["depth"])) for s in pieces)
    dropped: set[str] = set()
    movable = sorted(
        (s for s in pieces if float(str(s.get("dist", -1))) > 0), key=lambda s: -float(str(s["dist"]))
    )
    for s in movable:
        if used <= budget * 0.92:  # room for the container lines and the markers
            break
        dropped.add(str(s["sel"]))
        used -= len(texts[str(s["sel"])].encode("utf-8")) - 90
    return dropped, used > budget * 0.92


# Pieces `find` brought in, kept in the next snapshots of the same document (their refs were
# handed to the model): page -> (document, XPaths), the latest last.
_PINNED: weakref.WeakKeyDictionary[Page, tuple[str, list[str]]] = weakref.WeakKeyDictionary()
PINNED_MAX = 10


def pin(page: Page, doc: str, sels: list[str]) -> None:
    old_doc, old = _PINNED.get(page, (doc, []))
    kept = [s for s in (old if old_doc == doc else []) if s not in sels] + sels
    _PINNED[page] = (doc, kept[-PINNED_MAX:])


def with_pinned(page: Page, doc: str, steps: list[dict[str, object]]) -> list[dict[str, object]]:
    """The plan with the pieces `find` pinned on this document appended (those not already in it)."""
    pinned_doc, sels = _PINNED.get(page, ("", []))
    have = {s.get("sel") for s in steps}
    extra = [s for s in sels if s not in have] if pinned_doc == doc and doc else []
    if not extra:
        return steps
    head: list[dict[str, object]] = [{"kind": "open", "depth": 0, "role": "(found by find)", "name": ""}]
    return steps + head + [{"kind": "piece", "sel": s, "depth": 1, "sig": ""} for s in extra]


async def take(
    page: Page,
    steps: list[dict[str, object]],
    boxes: bool,
    timeout_ms: int,
    doc: str = "",
    budget: int = 12_000,
) -> Scoped:
    """The scoped snapshot text of a plan: a piece whose signature did not change since the
    last step is reused, the others are taken (concurrently: one round trip each)."""
    cache = _CACHE.get(page, {})
    pieces = [s for s in steps if s["kind"] == "piece"]
    texts: dict[str, str] = {}
    todo: list[str] = []
    for s in pieces:
        sel = str(s["sel"])
        hit = cache.get(sel)
        if doc and s.get("sig") and hit is not None and hit[:3] == (doc, str(s.get("sig")), boxes):
            texts[sel] = hit[3]
        else:
            todo.append(sel)
    for sel, text in zip(
        todo, await asyncio.gather(*(_piece(page, t, boxes, timeout_ms) for t in todo)), strict=True
    ):
        texts[sel] = text
    if doc:
        _CACHE[page] = {str(s["sel"]): (doc, str(s.get("sig")), boxes, texts[str(s["sel"])]) for s in pieces}
    out = Scoped("", taken=len(todo))
    dropped, out.at_floor = _over_budget(pieces, texts, budget)
    lines: list[str] = []
    run: list[int] = []  # [depth, n, all rows]

    def flush() -> None:
        if run:
            out.omitted += run[1]
            what = "rows" if run[2] else "elements"
            lines.append(
                "  " * run[0] + f"- … {run[1]} {what} not near the view omitted "
                "(find(text='…') searches them; scroll there to see them)"
            )
            run.clear()

    for s in steps:
        depth = int(str(s["depth"]))
        skip = s["kind"] == "skip" or (s["kind"] == "piece" and str(s["sel"]) in dropped)
        if skip:
            n = int(str(s.get("n", 1)))
            rows = bool(s.get("rows", s.get("row")))
            if run and run[0] == depth:
                run[1] += n
                run[2] = run[2] and rows
            else:
                flush()
                run.extend([depth, n, rows])
            continue
        flush()
        if s["kind"] == "piece":
            text = texts[str(s["sel"])]
            if text.strip():
                note_refs(text, str(s["sel"]), out.scopes)
                lines.append(indent(text.strip(), depth))
            out.pieces += 1
        else:
            name = f" {json.dumps(s['name'], ensure_ascii=False)}" if s.get("name") else ""
            lines.append("  " * depth + f"- {s['role']}{name}:")
    flush()
    out.text = "\n".join(lines)
    return out


async def extend(
    page: Page, text: str, timeout_ms: int, limit: int = 60, most: int = 10
) -> list[tuple[str, str]]:
    """The rows (small subtrees) of the page whose text contains `text`: (XPath, snapshot text)."""
    w = worlds(page)
    res = await w.call(await w.main(), EXTEND_JS, {"text": text, "limit": limit, "max": most}) or []
    sels = [str(s) for s in res]
    texts = await asyncio.gather(*(_piece(page, s, False, timeout_ms) for s in sels))
    return list(zip(sels, texts, strict=True))
