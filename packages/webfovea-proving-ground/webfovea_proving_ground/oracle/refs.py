"""How the oracle names a target in structured and hybrid modes: by the line it was given.

The oracle decides from its plan (a CSS locator); a model would pick the snapshot line that
shows the element it means. So the oracle computes the element's own role and accessible
name (a read of the element it already decided on, and its rank among visible elements of
that role and name in its frame), then looks for that line in the text the model was given
— the snapshot, or the lines a `find`/`snapshot(ref)` returned in the feedback — and copies
its ref. It never resolves a ref against the page: if the line is not in the text, it has to
search (find) like a model would.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from webfovea.browser import snapshot_text as st
from webfovea_proving_ground.oracle.grounding import Located

_HIDDEN = re.compile(r"[\uE000-\uF8FF\u200B-\u200D\u2060\uFEFF]")

# The element's role and accessible name, as the ARIA rules give them for the elements the
# proving ground uses; its rank among visible same-role same-name elements of its document
# (open shadow roots included, in tree order); and the first cell of its table row.
_ROLE_NAME_JS = r"""
(el) => {
  const HID = /[\uE000-\uF8FF\u200B-\u200D\u2060\uFEFF]/g;
  const norm = (s) => (s || '').replace(HID, '').replace(/\s+/g, ' ').trim();
  const roleOf = (e) => {
    const explicit = (e.getAttribute('role') || '').split(/\s+/)[0];
    if (explicit) return explicit;
    const t = e.tagName.toLowerCase();
    if (t === 'a') return e.hasAttribute('href') ? 'link' : 'generic';
    if (t === 'button' || t === 'summary') return 'button';
    if (t === 'select') return (e.multiple || e.size > 1) ? 'listbox' : 'combobox';
    if (t === 'textarea') return 'textbox';
    if (t === 'input') {
      const ty = (e.type || 'text').toLowerCase();
      if (['button', 'submit', 'reset', 'image'].includes(ty)) return 'button';
      if (ty === 'checkbox') return 'checkbox';
      if (ty === 'radio') return 'radio';
      if (ty === 'range') return 'slider';
      if (ty === 'number') return 'spinbutton';
      if (ty === 'search') return e.hasAttribute('list') ? 'combobox' : 'searchbox';
      return e.hasAttribute('list') ? 'combobox' : 'textbox';
    }
    if (/^h[1-6]$/.test(t)) return 'heading';
    if (t === 'td') return 'cell';
    if (t === 'th') return e.getAttribute('scope') === 'row' ? 'rowheader' : 'columnheader';
    if (t === 'tr') return 'row';
    if (t === 'li') return 'listitem';
    if (t === 'img') return 'img';
    if (t === 'option') return 'option';
    if (t === 'p') return 'paragraph';
    return 'generic';
  };
  const text = (e) => norm(e.innerText !== undefined ? e.innerText : e.textContent);
  const nameOf = (e, role) => {
    if (e.getAttribute('aria-label')) return norm(e.getAttribute('aria-label'));
    const by = e.getAttribute('aria-labelledby');
    if (by) return norm(by.split(/\s+/).map((id) => { const x = e.ownerDocument.getElementById(id); return x ? text(x) : ''; }).join(' '));
    const t = e.tagName.toLowerCase();
    if (['input', 'select', 'textarea'].includes(t)) {
      const ty = (e.type || '').toLowerCase();
      if (['button', 'submit', 'reset'].includes(ty)) return norm(e.value || (ty === 'submit' ? 'Submit' : ''));
      const labels = e.labels ? Array.from(e.labels) : [];
      if (labels.length) return norm(labels.map((l) => {
        const c = l.cloneNode(true); c.querySelectorAll('input,select,textarea').forEach((x) => x.remove());
        return c.textContent; }).join(' '));
      return norm(e.getAttribute('title') || e.getAttribute('placeholder') || '');
    }
    if (t === 'img') return norm(e.getAttribute('alt'));
    if (['button', 'link', 'heading', 'cell', 'columnheader', 'rowheader', 'option', 'tab', 'menuitem',
         'listitem', 'checkbox', 'radio', 'switch'].includes(role)) return text(e);
    return '';
  };
  const visible = (e) => { const r = e.getBoundingClientRect();
    const cs = getComputedStyle(e); return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden'; };
  const role = roleOf(el), name = nameOf(el, role);
  const all = [];
  const walk = (root) => { for (const e of root.querySelectorAll('*')) { all.push(e); if (e.shadowRoot) walk(e.shadowRoot); } };
  walk(el.ownerDocument);
  let rank = 0, total = 0;
  for (const e of all) {
    if (roleOf(e) !== role || nameOf(e, role) !== name || !visible(e)) continue;
    if (e === el) rank = total;
    total += 1;
  }
  const tr = el.closest('tr');
  const row = tr && tr.cells && tr.cells.length ? norm(tr.cells[0].textContent) : '';
  return {role, name, rank, total, row};
}
"""


@dataclass
class Identity:
    role: str
    name: str
    rank: int  # among visible elements of the same role and name in its document
    total: int
    row: str  # the first cell of its table row ('' outside tables)
    in_child_frame: bool


def norm(text: str) -> str:
    return " ".join(_HIDDEN.sub("", text).split())


async def identify(loc: Located) -> Identity:
    # `host >> inner` (a plan's step into an open shadow root) is Playwright's own chain syntax
    info: dict[str, Any] = await loc.frame.locator(loc.selector).nth(loc.nth).evaluate(_ROLE_NAME_JS)
    return Identity(
        str(info["role"]),
        str(info["name"]),
        int(info["rank"]),
        int(info["total"]),
        str(info.get("row") or ""),
        loc.frames_crossed > 0,
    )


def _frame_ok(ref: str, child: bool, main_prefix: str | None) -> bool:
    prefix = ref[: ref.index("e")]
    if main_prefix is None:
        return True
    return (prefix != main_prefix) if child else (prefix == main_prefix)


def main_prefix(snapshot: str | None) -> str | None:
    """The main frame's ref prefix: the first ref of the snapshot is the page's own ('' or 'f13')."""
    if not snapshot:
        return None
    m = st.REF_RE.search(snapshot)
    return m.group(1)[: m.group(1).index("e")] if m else None


def ref_in(texts: list[str], ident: Identity, prefix: str | None) -> str | None:
    """The ref of the element's line in the given texts; None when no line shows it."""
    for text in texts:
        if not text:
            continue
        lines = [
            n
            for n in st.parse(text)
            if n.ref
            and n.role == ident.role
            and norm(n.name or n.text) == ident.name
            and _frame_ok(n.ref, ident.in_child_frame, prefix)
        ]
        if not lines or (not ident.name and len(lines) != ident.total):
            continue  # an unnamed element among unnamed lines it cannot tell apart: not "seen"
        # Truncation and find keep document order but may miss some lines: the rank is exact
        # when every same-named line is present, the nearest guess otherwise.
        return lines[min(ident.rank, len(lines) - 1)].ref
    return None


def row_ref(feedback: str | None, row_label: str) -> str | None:
    """After find(text=row label): the ref of the row that holds the match (from its context path)."""
    if not feedback or not row_label:
        return None
    for line in feedback.splitlines():
        if row_label.lower() in line.lower():
            m = re.search(r"row(?: '[^']*')? \[ref=((?:f\d+)?e\d+)\]", line)
            if m:
                return m.group(1)
    return None
