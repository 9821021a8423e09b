// Visible-text search for find_text / read_text. Called as (arg) on a frame, or as
// (iframeElement, arg) on a parent frame to bring a child's rectangle into view.
(a, b) => {
  const [host, arg] = b === undefined ? [null, a] : [a, b];
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'OPTION', 'SELECT', 'HEAD', 'TITLE']);
  const isSpace = (c) => c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f' || c === '\u00a0';
  const lower = (s) => s.replace(/\s+/g, ' ').trim().toLowerCase();

  // Visible text as one string with a map back to (node, offset). Whitespace is collapsed;
  // block boundaries become '\n' (' | ' between cells of one table row).
  function buildIndex() {
    const raw = [], low = [], mapNode = [], mapOff = [], nodes = [];
    const vis = new Map(), blockOf = new Map();
    const visible = (el) => {
      let v = vis.get(el);
      if (v === undefined) {
        v = el.checkVisibility ? el.checkVisibility({visibilityProperty: true, checkVisibilityCSS: true}) : !!el.getClientRects().length;
        vis.set(el, v);
      }
      return v;
    };
    const CELL = 'td, th, [role=cell], [role=gridcell], [role=columnheader], [role=rowheader]';
    const block = (el) => {
      if (blockOf.has(el)) return blockOf.get(el);
      // A table cell is one block, whatever blocks it holds: its text stays in its column.
      const e = el.closest(CELL) || innerBlock(el);
      blockOf.set(el, e);
      return e;
    };
    const innerOf = new Map();
    const innerBlock = (el) => {
      if (innerOf.has(el)) return innerOf.get(el);
      let e = el;
      while (e.parentElement && getComputedStyle(e).display.startsWith('inline')) e = e.parentElement;
      innerOf.set(el, e);
      return e;
    };
    const rowOf = (e) => e.closest('tr, [role=row]');
    const root = document.body || document.documentElement;
    if (!root) return {raw: '', low: '', mapNode, mapOff, nodes};
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let lastBlock = null, lastInner = null;
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const p = n.parentElement;
      if (!p || SKIP.has(p.tagName) || !n.data || !visible(p)) continue;
      const bl = block(p);
      const ni = nodes.push(n) - 1;
      if (lastBlock && bl !== lastBlock && raw.length) {
        const cells = (bl.matches(CELL) || getComputedStyle(bl).display === 'table-cell') &&
          rowOf(bl) && rowOf(bl) === rowOf(lastBlock);
        const li = bl.closest('li');
        const item = li && li !== lastBlock.closest('li') && !cells;
        const sep = cells ? ' | ' : item ? '\n- ' : '\n';
        while (raw.length && isSpace(raw[raw.length - 1])) { raw.pop(); low.pop(); mapNode.pop(); mapOff.pop(); }
        for (const c of sep) { raw.push(c); low.push(c === '\n' ? ' ' : c); mapNode.push(ni); mapOff.push(0); }
      }
      const ib = innerBlock(p);
      if (bl === lastBlock && lastInner && ib !== lastInner && raw.length && !isSpace(raw[raw.length - 1])) {
        raw.push(' '); low.push(' '); mapNode.push(ni); mapOff.push(0);  // blocks inside one cell
      }
      lastBlock = bl;
      lastInner = ib;
      const d = n.data;
      for (let i = 0; i < d.length; i++) {
        let c = d[i];
        if (isSpace(c)) {
          if (!raw.length || isSpace(raw[raw.length - 1])) continue;
          c = ' ';
        }
        raw.push(c);
        const lc = c.toLowerCase();
        low.push(lc.length === 1 ? lc : c);
        mapNode.push(ni);
        mapOff.push(i);
      }
    }
    return {raw: raw.join(''), low: low.join(''), mapNode, mapOff, nodes};
  }

  function matchesOf(ix, q) {
    const out = [];
    if (!q) return out;
    for (let i = ix.low.indexOf(q); i >= 0; i = ix.low.indexOf(q, i + q.length)) out.push(i);
    return out;
  }

  function rangeOf(ix, start, len) {
    const r = document.createRange();
    const end = start + len - 1;
    r.setStart(ix.nodes[ix.mapNode[start]], ix.mapOff[start]);
    r.setEnd(ix.nodes[ix.mapNode[end]], Math.min(ix.mapOff[end] + 1, ix.nodes[ix.mapNode[end]].length));
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
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('::highlight(webfovea-find){background-color:#ffeb3b;color:#000}');
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
    if (arg.index >= m.length) return null;
    const range = rangeOf(ix, m[arg.index], q.length);
    const rect = centre(range.startContainer.parentElement, () => range.getBoundingClientRect());
    if (arg.highlight) highlight(range);
    // A document view's page (webfovea/documents/render.py) names itself, for find_text's note.
    const pageOf = range.startContainer.parentElement.closest('[data-page-label]');
    if (pageOf) rect.page = pageOf.getAttribute('data-page-label');
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
    let from = best.start;
    while (from > 0 && box.contains(ix.nodes[ix.mapNode[from - 1]])) from--;
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
