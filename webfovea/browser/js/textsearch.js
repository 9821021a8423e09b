// Visible-text search for find_text / read_text. Called as (arg) on a frame, or as
// (iframeElement, arg) on a parent frame to bring a child's rectangle into view.
(a, b) => {
  const [host, arg] = b === undefined ? [null, a] : [a, b];
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'OPTION', 'SELECT', 'HEAD', 'TITLE']);
  const isSpace = (c) => c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f' || c === '\u00a0';
  const lower = (s) => s.replace(/\s+/g, ' ').trim().toLowerCase();

  // Visible text as one string with a map back to (node, offset). Whitespace is collapsed;
  // block boundaries become '\n' (' | ' between cells of one table row). The map is kept per
  // segment (a text node's run, or a separator), not per character: on a 3,000-row table a
  // per-character map was four arrays of ~260,000 entries, built twice per find_text, and the
  // renderer's heap grew by ~13 MiB for it.
  const SPACES = /[ \n\t\r\f\u00a0]+/g;
  function buildIndex() {
    const parts = [], segStart = [], segNode = [], segOff = [], nodes = [];
    let len = 0;
    const lastIsSpace = () => !len || isSpace(parts[parts.length - 1].slice(-1));
    // segOff: the node offset of the segment's first character; -1 for a separator (all of
    // its characters map to offset 0 of the node that follows it).
    const push = (text, node, off) => {
      parts.push(text); segStart.push(len); segNode.push(node); segOff.push(off);
      len += text.length;
    };
    const trimEnd = () => {  // the trailing spaces go before a separator
      while (len && isSpace(parts[parts.length - 1].slice(-1))) {
        const i = parts.length - 1;
        parts[i] = parts[i].slice(0, -1);
        len--;
        if (!parts[i].length) { parts.pop(); segStart.pop(); segNode.pop(); segOff.pop(); }
      }
    };
    const visible = (el) => el.checkVisibility
      ? el.checkVisibility({visibilityProperty: true, checkVisibilityCSS: true}) : !!el.getClientRects().length;
    const CELL = 'td, th, [role=cell], [role=gridcell], [role=columnheader], [role=rowheader]';
    const innerBlock = (el) => {
      let e = el;
      while (e.parentElement && getComputedStyle(e).display.startsWith('inline')) e = e.parentElement;
      return e;
    };
    // A table cell is one block, whatever blocks it holds: its text stays in its column. Only
    // the last parent's answers are kept: text nodes come in document order, and a map of
    // every parent (21,000 cells on a 3,000-row table) was most of the walk's memory.
    let lastP = null, lastVis = false, lastBl = null, lastIb = null;
    const about = (p) => {
      if (p !== lastP) {
        lastP = p;
        lastVis = visible(p);
        lastIb = lastVis ? innerBlock(p) : null;
        lastBl = lastVis ? p.closest(CELL) || lastIb : null;
      }
      return lastVis;
    };
    const rowOf = (e) => e.closest('tr, [role=row]');
    const done = () => {
      const raw = parts.join('');
      return {raw, low: lowered(raw), segStart, segNode, segOff, nodes};
    };
    const root = document.body || document.documentElement;
    if (!root) return done();
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let lastBlock = null, lastInner = null;
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const p = n.parentElement;
      if (!p || SKIP.has(p.tagName) || !n.data || !about(p)) continue;
      const bl = lastBl;
      const ni = nodes.push(n) - 1;
      if (lastBlock && bl !== lastBlock && len) {
        const cells = (bl.matches(CELL) || getComputedStyle(bl).display === 'table-cell') &&
          rowOf(bl) && rowOf(bl) === rowOf(lastBlock);
        const li = bl.closest('li');
        const item = li && li !== lastBlock.closest('li') && !cells;
        const sep = cells ? ' | ' : item ? '\n- ' : '\n';
        trimEnd();
        push(sep, ni, -1);
      }
      const ib = lastIb;
      if (bl === lastBlock && lastInner && ib !== lastInner && len && !lastIsSpace()) {
        push(' ', ni, -1);  // blocks inside one cell
      }
      lastBlock = bl;
      lastInner = ib;
      const d = n.data;
      // A run of spaces is one ' '; none at all after a space (or at the very start).
      let off = 0;
      if (lastIsSpace()) {
        while (off < d.length && isSpace(d[off])) off++;
      }
      if (off === d.length) continue;
      push(d.slice(off).replace(SPACES, ' '), ni, off);
    }
    return done();
  }

  // The text to match in: lower case, line breaks as spaces, position for position the same
  // characters as `raw`. Lowercasing never shortens; where it lengthens a character ('İ'), that
  // one keeps its case.
  function lowered(raw) {
    const low = raw.toLowerCase();
    const same = low.length === raw.length ? low
      : Array.from(raw.split(''), (c) => { const lc = c.toLowerCase(); return lc.length === 1 ? lc : c; }).join('');
    return same.replace(/\n/g, ' ');
  }

  // The segment holding position `pos` of the index's text.
  function segAt(ix, pos) {
    let lo = 0, hi = ix.segStart.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ix.segStart[mid] <= pos) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  // [text node, offset in it] of position `pos` of the index's text: the collapsing of its
  // segment replayed (the first character of a segment is always kept).
  function pointOf(ix, pos) {
    const s = segAt(ix, pos);
    const node = ix.nodes[ix.segNode[s]];
    if (ix.segOff[s] < 0) return [node, 0];
    const d = node.data;
    let k = pos - ix.segStart[s], prevSpace = false;
    for (let i = ix.segOff[s]; i < d.length; i++) {
      const sp = isSpace(d[i]);
      if (sp && prevSpace) continue;
      if (k-- === 0) return [node, i];
      prevSpace = sp;
    }
    return [node, d.length];
  }

  function matchesOf(ix, q) {
    const out = [];
    if (!q) return out;
    for (let i = ix.low.indexOf(q); i >= 0; i = ix.low.indexOf(q, i + q.length)) out.push(i);
    return out;
  }

  function rangeOf(ix, start, len) {
    const r = document.createRange();
    const [from, fromOff] = pointOf(ix, start);
    const [to, toOff] = pointOf(ix, start + len - 1);
    r.setStart(from, fromOff);
    r.setEnd(to, Math.min(toOff + 1, to.length));
    return r;
  }

  // Scroll every scrollable ancestor of `el`, then the window, so the box from getRect()
  // sits in the middle; getRect is re-read after each scroll because the box moves.
  function centre(el, getRect) {
    for (let s = el; s && s !== document.body && s !== document.documentElement; s = s.parentElement) {
      const cs = getComputedStyle(s);
      const sy = /(auto|scroll|overlay)/.test(cs.overflowY) && s.scrollHeight > s.clientHeight;
      const sx = /(auto|scroll|overlay)/.test(cs.overflowX) && s.scrollWidth > s.clientWidth;
      if (!sx && !sy) continue;
      const r = getRect(), sr = s.getBoundingClientRect();
      s.scrollBy({
        left: sx ? (r.left + r.width / 2) - (sr.left + s.clientLeft + s.clientWidth / 2) : 0,
        top: sy ? (r.top + r.height / 2) - (sr.top + s.clientTop + s.clientHeight / 2) : 0,
        behavior: 'instant'});
    }
    const r = getRect();
    const dx = (r.left < 0 || r.right > innerWidth) ? (r.left + r.width / 2) - innerWidth / 2 : 0;
    window.scrollBy({left: dx, top: (r.top + r.height / 2) - innerHeight / 2, behavior: 'instant'});
    const f = getRect();
    return {left: f.left, top: f.top, width: f.width, height: f.height};
  }

  function highlight(range) {
    if (!(window.CSS && CSS.highlights && window.Highlight)) return;
    // An adopted sheet adds no DOM node, so fingerprints do not count the highlight as a change.
    // Its one rule is on the root, and every text inherits it: a rule on every element made
    // adding and removing the sheet restyle the whole document (on a 21,000-cell table twice,
    // +8-16 MiB in the renderer).
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(':root::highlight(webfovea-find){background-color:#ffeb3b;color:#000}');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    CSS.highlights.set('webfovea-find', new Highlight(range));
    setTimeout(() => {
      CSS.highlights.delete('webfovea-find');
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
    }, 2000);
  }

  if (host) {  // op 'reveal_in_parent': arg.rect is in the child's viewport
    const rc = arg.rect;
    const getRect = () => {
      const b = host.getBoundingClientRect(), cs = getComputedStyle(host);
      const left = b.left + host.clientLeft + (parseFloat(cs.paddingLeft) || 0) + rc.left;
      const top = b.top + host.clientTop + (parseFloat(cs.paddingTop) || 0) + rc.top;
      return {left, top, width: rc.width, height: rc.height, right: left + rc.width, bottom: top + rc.height};
    };
    return centre(host, getRect);
  }

  const q = lower(arg.text || '');
  if (arg.op === 'count') return matchesOf(buildIndex(), q).length;
  if (arg.op === 'reveal') {
    const ix = buildIndex();
    const m = matchesOf(ix, q);
    // wrap: the caller searches this document alone, so this walk also counts the matches and
    // the index wraps around (Ctrl+F); the rectangle then says how many and which one.
    const index = arg.wrap && m.length ? arg.index % m.length : arg.index;
    if (arg.wrap && !m.length) return {total: 0};
    if (index >= m.length) return null;
    const range = rangeOf(ix, m[index], q.length);
    const rect = centre(range.startContainer.parentElement, () => range.getBoundingClientRect());
    if (arg.highlight) highlight(range);
    // A document view's page (webfovea/documents/render.py) names itself, for find_text's note.
    const pageOf = range.startContainer.parentElement.closest('[data-page-label]');
    if (pageOf) rect.page = pageOf.getAttribute('data-page-label');
    rect.total = m.length;
    rect.index = index;
    return rect;
  }
  if (arg.op === 'read') {
    const ix = buildIndex();
    const m = matchesOf(ix, q);
    const seen = new Map();
    for (const start of m) {
      const r = rangeOf(ix, start, q.length);
      let el = r.commonAncestorContainer;
      if (el.nodeType !== 1) el = el.parentElement;
      if (!seen.has(el)) seen.set(el, start);
    }
    if (!seen.size) return {matches: 0};
    let best = null;
    for (const [el, start] of seen) {
      const exact = lower(el.textContent || '') === q;
      const br = el.getBoundingClientRect();
      const inView = br.bottom > 0 && br.top < innerHeight && br.right > 0 && br.left < innerWidth;
      const score = (exact ? 2 : 0) + (inView ? 1 : 0);
      if (!best || score > best.score) best = {el, start, score, exact, inView};
    }
    // The label's row or block: a table row, list item or the nearest non-inline box.
    let box = best.el;
    for (let e = best.el; e && e !== document.body; e = e.parentElement) {
      const d = getComputedStyle(e).display;
      if (e.tagName === 'TR' || e.getAttribute('role') === 'row' || e.tagName === 'LI') { box = e; break; }
      if (d.startsWith('inline') || d === 'table-cell' || d === 'contents') continue;
      box = e;
      break;
    }
    let from = best.start;  // back to the start of the box's text, a segment at a time
    for (let sg = from > 0 ? segAt(ix, from - 1) : -1; sg >= 0 && box.contains(ix.nodes[ix.segNode[sg]]); sg--) {
      from = ix.segStart[sg];
    }
    if (best.start - from > arg.limit / 2) {
      from = best.start - Math.floor(arg.limit / 4);
      const sp = ix.raw.indexOf(' ', from);
      if (sp >= 0 && sp < best.start) from = sp + 1;
    }
    while (from < best.start && (isSpace(ix.raw[from]) || ix.raw[from] === '|')) from++;
    // The column headers of the row read, so its values stay attached to their columns.
    let headers = '';
    const table = box.closest('table, [role=table], [role=grid]');
    if (table && (box.tagName === 'TR' || box.getAttribute('role') === 'row')) {
      const head = [...table.querySelectorAll('tr, [role=row]')].find((r) =>
        r.querySelector('th, [role=columnheader]') && !r.querySelector('td, [role=cell], [role=gridcell]'));
      if (head && head !== box && !head.contains(box)) {
        headers = [...head.querySelectorAll('th, [role=columnheader]')].map((c) => c.innerText.replace(/\s+/g, ' ').trim()).join(' | ');
      }
    }
    return {matches: seen.size, exact: best.exact, in_view: best.inView, headers,
      text: ix.raw.slice(from, from + 2 * arg.limit)};
  }
  return null;
}
