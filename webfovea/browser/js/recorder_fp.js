// The fingerprint of one frame, computed inside the recorder's closure with natives captured
// at install time (so a page cannot make two different states look the same). Spliced into
// recorder.js by webfovea/browser/recorder.py; defines `fingerprint(arg)` and `regions()`.
const F = (() => {
  const g = (proto, name) => { const d = gopd(proto, name); return d && d.get; };
  const N = {
    href: g(Location.prototype, 'href') || null, title: g(Document.prototype, 'title'),
    body: g(Document.prototype, 'body'), active: g(Document.prototype, 'activeElement'),
    byTag: Document.prototype.getElementsByTagName, dqsa: Document.prototype.querySelectorAll,
    eqsa: Element.prototype.querySelectorAll, innerText: g(HTMLElement.prototype, 'innerText'),
    rect: Element.prototype.getBoundingClientRect, cs: W.getComputedStyle, attr: Element.prototype.getAttribute,
    tag: g(Element.prototype, 'tagName'), id: g(Element.prototype, 'id'), efp: Document.prototype.elementFromPoint,
    closest: Element.prototype.closest, children: g(Element.prototype, 'children'),
    ivalue: g(HTMLInputElement.prototype, 'value'), ichecked: g(HTMLInputElement.prototype, 'checked'),
    itype: g(HTMLInputElement.prototype, 'type'), tvalue: g(HTMLTextAreaElement.prototype, 'value'),
    sidx: g(HTMLSelectElement.prototype, 'selectedIndex'), svalue: g(HTMLSelectElement.prototype, 'value'),
    selStart: g(HTMLInputElement.prototype, 'selectionStart'), tselStart: g(HTMLTextAreaElement.prototype, 'selectionStart'),
    selEnd: g(HTMLInputElement.prototype, 'selectionEnd'), tselEnd: g(HTMLTextAreaElement.prototype, 'selectionEnd'),
    getSel: W.getSelection, selStr: Selection.prototype.toString,
    scrollX: g(W, 'scrollX') || null, scrollY: g(W, 'scrollY') || null,
    textContent: g(Node.prototype, 'textContent'), cca: String.prototype.charCodeAt,
    slice: String.prototype.slice, contains: Node.prototype.contains,
    isCE: g(HTMLElement.prototype, 'isContentEditable'), open: g(HTMLDetailsElement.prototype, 'open'),
  };
  const call = (f, self, args) => apply(f, self, args || []);
  const tagOf = (e) => call(N.tag, e);
  const attr = (e, a) => call(N.attr, e, [a]);
  const str = (v) => (v === null || v === undefined ? '' : '' + v);
  const hash = (sv) => {
    let h1 = 0x811c9dc5, h2 = 0x01000193 ^ sv.length;
    for (let i = 0; i < sv.length; i++) {
      const c = call(N.cca, sv, [i]);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    }
    return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
  };
  const clip = (t, n) => {
    t = str(t).replace(/\s+/g, ' ').trim();
    return t.length > n ? call(N.slice, t, [0, n - 1]) + '…' : t;
  };
  const short = (el) => {
    let sv = tagOf(el).toLowerCase();
    const id = call(N.id, el);
    if (id) sv += '#' + clip(id, 30);
    return sv;
  };
  const FORM_SEL = 'input, select, textarea';
  const ARIA_SEL = '[aria-selected], [aria-expanded], [aria-checked], [aria-pressed], [aria-current], [hidden], ' +
    '[aria-hidden], [aria-valuenow], [aria-valuetext], details';
  const ARIA_ATTRS = ['aria-selected', 'aria-expanded', 'aria-checked', 'aria-pressed', 'aria-current', 'hidden',
    'aria-hidden', 'aria-valuenow', 'aria-valuetext'];
  const TIP_SEL = 'svg text, svg title, [role=tooltip], [aria-live], [class*=tooltip i], [class*=popover i]';
  const STATEFUL = 'input, select, textarea, button, a[href], summary, details, [role], [aria-pressed], ' +
    '[aria-checked], [aria-expanded], [aria-selected], [aria-valuenow], [contenteditable]';

  const formState = (doc) => {
    const list = call(N.dqsa, doc, [FORM_SEL]);
    const parts = [];
    for (let i = 0; i < list.length && i < 3000; i++) {
      const e = list[i], t = tagOf(e);
      if (t === 'INPUT') parts[parts.length] = call(N.itype, e) + ':' + call(N.ivalue, e) + ':' + (call(N.ichecked, e) ? 1 : 0);
      else if (t === 'SELECT') parts[parts.length] = 's:' + call(N.sidx, e);
      else parts[parts.length] = 't:' + call(N.tvalue, e);
    }
    return hash(parts.join('\u0001'));
  };
  const ariaState = (doc) => {
    const list = call(N.dqsa, doc, [ARIA_SEL]);
    const parts = [];
    for (let i = 0; i < list.length && i < 5000; i++) {
      const e = list[i];
      let p = '';
      for (let k = 0; k < ARIA_ATTRS.length; k++) p += str(attr(e, ARIA_ATTRS[k])) + ',';
      if (tagOf(e) === 'DETAILS') p += call(N.open, e) ? 'o' : 'c';
      parts[parts.length] = p;
    }
    return hash(parts.join('|'));
  };
  const textOf = (doc) => {
    const body = call(N.body, doc);
    const text = body && call(N.innerText, body) || '';
    const parts = [text];
    const tips = call(N.dqsa, doc, [TIP_SEL]);
    for (let i = 0; i < tips.length && i < 500; i++) {
      const cs = call(N.cs, W, [tips[i]]);
      parts[parts.length] = str(call(N.textContent, tips[i])) + '|' + cs.display + cs.visibility + cs.opacity;
    }
    return [text.length, hash(parts.join('\u0001'))];
  };
  const selection = (doc) => {
    let sv = '';
    try { sv = str(call(N.selStr, call(N.getSel, W))); } catch (e) { sv = ''; }
    const a = call(N.active, doc);
    let inField = '';
    if (a) {
      const t = tagOf(a);
      try {
        if (t === 'INPUT') inField = call(N.selStart, a) + '-' + call(N.selEnd, a);
        else if (t === 'TEXTAREA') inField = call(N.tselStart, a) + '-' + call(N.tselEnd, a);
      } catch (e) { inField = ''; }
    }
    return {sel: sv.length + ':' + hash(sv) + ':' + inField, sel_text: clip(sv, 60)};
  };
  const visibleText = (el) => {
    try { return call(N.innerText, el); } catch (e) { return str(call(N.textContent, el)); }
  };
  const nameOf = (el) => {
    const label = attr(el, 'aria-label');
    if (label) return clip(label, 60);
    const by = attr(el, 'aria-labelledby');
    if (by) {
      const ref = D.getElementById(by.split(/\s+/)[0]);
      if (ref) return clip(call(N.textContent, ref), 60);
    }
    const t = tagOf(el);
    if ((t === 'INPUT' || t === 'TEXTAREA' || t === 'SELECT') && el.labels && el.labels.length) return clip(call(N.textContent, el.labels[0]), 60);
    if (t === 'INPUT' || t === 'TEXTAREA' || t === 'SELECT') return clip(attr(el, 'placeholder') || attr(el, 'name') || call(N.id, el), 60);
    return clip(visibleText(el), 60);
  };
  const stateOf = (el) => {
    const t = tagOf(el);
    const role = str(attr(el, 'role')).toLowerCase();
    const st = {what: short(el), tag: t.toLowerCase(), role, name: nameOf(el)};
    if (t === 'INPUT') {
      st.type = call(N.itype, el);
      if (st.type === 'checkbox' || st.type === 'radio') st.checked = !!call(N.ichecked, el);
      else st.value = clip(call(N.ivalue, el), 80);
    } else if (t === 'TEXTAREA') st.value = clip(call(N.tvalue, el), 80);
    else if (t === 'SELECT') st.value = clip(call(N.svalue, el), 80);
    else if (t === 'DETAILS') st.expanded = !!call(N.open, el);
    for (const [k, a] of [['checked', 'aria-checked'], ['pressed', 'aria-pressed'], ['selected', 'aria-selected'],
      ['expanded', 'aria-expanded'], ['value', 'aria-valuenow'], ['value', 'aria-valuetext']]) {
      const v = attr(el, a);
      if (v !== null) st[k] = a.startsWith('aria-value') ? v : v === 'true' || (v === 'mixed' ? 'mixed' : false);
    }
    const r = call(N.rect, el);
    st.size = Math.round(r.width) + 'x' + Math.round(r.height);
    return st;
  };
  // Order and size of the elements around the point: the target's neighbourhood.
  const around = (doc, x, y) => {
    const hit = call(N.efp, doc, [x, y]);
    if (!hit) return {near: '', target: null};
    const subject = call(N.closest, hit, [STATEFUL]) || hit;
    let box = subject;
    for (let i = 0; i < 2 && box.parentElement && tagOf(box.parentElement) !== 'BODY' && tagOf(box.parentElement) !== 'HTML'; i++) {
      box = box.parentElement;
    }
    const base = call(N.rect, box);
    const parts = [Math.round(base.width) + 'x' + Math.round(base.height)];
    const list = call(N.eqsa, box, ['*']);
    for (let i = 0; i < list.length && i < 300; i++) {
      const r = call(N.rect, list[i]);
      parts[parts.length] = tagOf(list[i]) + Math.round(r.left - base.left) + ',' + Math.round(r.top - base.top) + ',' +
        Math.round(r.width) + ',' + Math.round(r.height);
    }
    return {near: hash(parts.join(';')), target: stateOf(subject)};
  };
  const focusOf = (doc) => {
    const a = call(N.active, doc);
    if (!a) return 'none';
    const sv = short(a);
    const t = tagOf(a);
    return t === 'IFRAME' || t === 'FRAME' ? 'iframe' + call(N.slice, sv, [t.length]) : sv;
  };

  const focusEditable = (doc) => {
    const a = call(N.active, doc);
    if (!a) return false;
    const t = tagOf(a);
    return t === 'TEXTAREA' || t === 'SELECT' || (t === 'INPUT' && !/^(button|submit|reset|checkbox|radio|image|file|range|color)$/i.test(call(N.itype, a))) ||
      !!(a.isContentEditable);
  };
  // What only a DOM mutation can change (text, ARIA attributes, node count, title) is
  // recomputed only when a mutation happened since it was last computed (arg.reuse).
  let cache = null;
  const domState = (doc, reuse) => {
    if (reuse && cache && cache.batches === s.batches) return cache;
    const [textLen, textHash] = textOf(doc);
    cache = {batches: s.batches, textLen, textHash, aria: ariaState(doc), nodes: call(N.byTag, doc, ['*']).length,
      title: call(N.title, doc)};
    return cache;
  };
  const fingerprint = (arg) => {
    const doc = D;
    const dom = domState(doc, arg && arg.reuse);
    const sel = selection(doc);
    const out = {
      url: N.href ? call(N.href, W.location) : '' + W.location.href,
      title: dom.title, nodes: dom.nodes, text_len: dom.textLen, text: dom.textHash,
      forms: formState(doc), aria: dom.aria, sel: sel.sel, sel_text: sel.sel_text,
      scroll_x: Math.round(N.scrollX ? call(N.scrollX, W) : W.scrollX),
      scroll_y: Math.round(N.scrollY ? call(N.scrollY, W) : W.scrollY),
      inner_scrolls: s.innerScrolls, focus: focusOf(doc), focus_edit: focusEditable(doc),
    };
    if (arg && arg.x !== undefined && arg.x >= 0) {
      const a = around(doc, arg.x, arg.y);
      out.near = a.near;
      out.target = a.target;
    }
    return out;
  };

  // The named region an element belongs to: a landmark, widget container, table or list.
  const REGION_ROLES = new Set(['tabpanel', 'dialog', 'alertdialog', 'alert', 'status', 'log', 'listbox', 'list',
    'grid', 'table', 'region', 'menu', 'menubar', 'tooltip', 'progressbar', 'slider', 'spinbutton', 'tablist',
    'form', 'search', 'navigation', 'main', 'complementary', 'banner', 'timer', 'marquee', 'tree', 'combobox',
    'checkbox', 'switch', 'radiogroup', 'toolbar', 'feed', 'article']);
  const REGION_TAGS = new Set(['TABLE', 'UL', 'OL', 'FORM', 'DIALOG', 'OUTPUT', 'SECTION', 'NAV', 'ASIDE',
    'ARTICLE', 'TEXTAREA', 'SELECT', 'BUTTON', 'LABEL', 'DETAILS', 'FIELDSET', 'PROGRESS', 'METER']);
  const regionOf = (el) => {
    for (let e = el; e && tagOf(e) !== 'BODY' && tagOf(e) !== 'HTML'; e = e.parentElement) {
      const role = str(attr(e, 'role')).toLowerCase();
      if (REGION_ROLES.has(role) || REGION_TAGS.has(tagOf(e)) || call(N.id, e) || attr(e, 'aria-label')) return e;
    }
    return el;
  };
  const kindName = (el) => {
    const role = str(attr(el, 'role')).toLowerCase();
    if (role) return role;
    const t = tagOf(el).toLowerCase();
    return {ul: 'list', ol: 'list', output: 'output', textarea: 'text box', h1: 'heading', h2: 'heading',
      h3: 'heading', tbody: 'table', tr: 'table row'}[t] || t;
  };
  const regions = (arg) => {
    const els = changedEls();
    const seen = new MapC();
    const out = [];
    for (let i = 0; i < els.length; i++) {
      const c = els[i];
      const reg = regionOf(c.el);
      let r = apply(mGet, seen, [reg]);
      if (!r) {
        const b = call(N.rect, reg);
        r = {kind: kindName(reg), name: clip(attr(reg, 'aria-label') || (reg.id && !/^[\d_-]|\d{3}/.test(reg.id) ? reg.id : '') ||
          nameOf(reg), 50), what: short(reg), ambient: true, text: 0, attrs: 0, count: 0,
          rect: [Math.round(b.left), Math.round(b.top), Math.round(b.width), Math.round(b.height)],
          near: arg && arg.x >= 0 ? b.left - 40 <= arg.x && arg.x <= b.right + 40 && b.top - 40 <= arg.y && arg.y <= b.bottom + 40 : false};
        apply(mSet, seen, [reg, r]);
        out[out.length] = r;
      }
      r.count++;
      if (!c.ambient) r.ambient = false;
      if (c.kinds & 3) r.text++;
      if (c.kinds & 4) r.attrs++;
    }
    out.sort((a, b) => (a.ambient - b.ambient) || (b.near - a.near) || (b.count - a.count));
    return out.slice(0, 8);
  };
  // Rectangles of elements under endless CSS animations (spinners, marquees): they change
  // pixels without changing the DOM, on their own.
  const animRects = () => {
    const out = [];
    if (!docAnims || !effTiming) return out;
    let list;
    try { list = apply(docAnims, D, []); } catch (e) { return out; }
    for (let i = 0; i < list.length && out.length < 40; i++) {
      try {
        const eff = apply(animEffect, list[i], []);
        if (!eff || apply(effTiming, eff, []).endTime < 1e9 || !eff.target || !eff.target.getBoundingClientRect) continue;
        const b = call(N.rect, eff.target);
        if (b.width > 0 && b.height > 0) out[out.length] = [Math.round(b.left), Math.round(b.top), Math.round(b.width), Math.round(b.height)];
      } catch (e) { /* detached */ }
    }
    return out;
  };
  const scroll = () => Math.round(N.scrollX ? call(N.scrollX, W) : W.scrollX) + ',' +
    Math.round(N.scrollY ? call(N.scrollY, W) : W.scrollY);
  return {fingerprint, regions, scroll, animRects};
})();
