// Shared helpers, prepended to every injected function (see webfovea/browser/jsload.py).
// Everything here is local to one evaluate call: nothing is left on the page's globals.

const TEXT_INPUT_TYPES = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number',
  'date', 'datetime-local', 'month', 'time', 'week']);
const CLICK_ROLES = new Set(['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'switch', 'combobox', 'treeitem', 'slider', 'spinbutton', 'textbox', 'searchbox']);
const PUA_OR_SPACE = /\s+/g;

// Parent across shadow-root boundaries.
function up(e) {
  if (e.parentElement) return e.parentElement;
  const root = e.getRootNode && e.getRootNode();
  return root && root.host ? root.host : null;
}

// document.elementsFromPoint, descending into open shadow roots (which it reports as their host).
function stackAt(x, y) {
  let stack = document.elementsFromPoint(x, y);
  const seen = new Set();
  while (stack.length && stack[0].shadowRoot && !seen.has(stack[0])) {
    seen.add(stack[0]);
    const inner = stack[0].shadowRoot.elementsFromPoint(x, y).filter((e) => !stack.includes(e));
    if (!inner.length) break;
    stack = inner.concat(stack);
  }
  return stack;
}

function clip(s, n) {
  s = (s || '').replace(PUA_OR_SPACE, ' ').trim();
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}

function short(el) {
  if (!el || el.nodeType !== 1) return '';
  let s = el.tagName.toLowerCase();
  if (el.id) s += '#' + clip(el.id, 30);
  const cls = (typeof el.className === 'string' ? el.className : (el.getAttribute('class') || ''))
    .split(/\s+/).filter(Boolean).slice(0, 2);
  for (const c of cls) s += '.' + clip(c, 24);
  if (el.tagName === 'INPUT') s += '[type=' + (el.getAttribute('type') || 'text') + ']';
  return s;
}

function isEditable(el) {
  if (!el || el.nodeType !== 1) return false;
  if (el.tagName === 'TEXTAREA') return true;
  if (el.tagName === 'INPUT') return TEXT_INPUT_TYPES.has((el.getAttribute('type') || '').toLowerCase());
  return !!el.isContentEditable;
}

function editingHost(el) {
  if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') return el;
  let host = el;
  while (host.parentElement && host.parentElement.isContentEditable) host = host.parentElement;
  return host;
}

// The interactive element an element belongs to (itself or an ancestor), or null.
function interactiveOf(el) {
  for (let e = el; e && e.nodeType === 1; e = up(e)) {
    const tag = e.tagName;
    if (tag === 'BUTTON' || tag === 'SELECT' || tag === 'TEXTAREA' || tag === 'LABEL' ||
        tag === 'SUMMARY' || tag === 'OPTION') return e;
    if (tag === 'INPUT' && (e.getAttribute('type') || '').toLowerCase() !== 'hidden') return e;
    if (tag === 'A' && e.hasAttribute('href')) return e;
    if (e.isContentEditable) return editingHost(e);
    if (e.hasAttribute('onclick') || typeof e.onclick === 'function') return e;
    const role = (e.getAttribute('role') || '').toLowerCase();
    if (CLICK_ROLES.has(role)) return e;
    if (tag === 'BODY' || tag === 'HTML') return null;
    // cursor:pointer is inherited, so only the element that sets it counts.
    const cur = getComputedStyle(e).cursor;
    if (cur === 'pointer' && (!up(e) || getComputedStyle(up(e)).cursor !== 'pointer')) return e;
  }
  return null;
}

// Whether an element paints nothing of its own (see-through). Children are not looked at:
// those under the same point are in the elementsFromPoint stack and get checked themselves.
const PAINTED_TAGS = new Set(['IMG', 'VIDEO', 'CANVAS', 'IFRAME', 'FRAME', 'OBJECT', 'EMBED', 'INPUT',
  'TEXTAREA', 'SELECT', 'BUTTON', 'PICTURE']);
function isTransparent(el) {
  let op = 1;
  for (let e = el; e && e.nodeType === 1; e = up(e)) op *= parseFloat(getComputedStyle(e).opacity || '1');
  if (op < 0.05) return true;
  if (PAINTED_TAGS.has(el.tagName) || el instanceof SVGElement) return false;
  const cs = getComputedStyle(el);
  if (cs.visibility === 'hidden') return true;
  const bg = cs.backgroundColor.match(/[\d.]+/g);
  const bgAlpha = !bg ? 0 : (bg.length >= 4 ? parseFloat(bg[3]) : 1);
  if (bgAlpha > 0.05 || cs.backgroundImage !== 'none') return false;
  for (const n of el.childNodes) if (n.nodeType === 3 && n.data.trim()) return false;
  return true;
}

function implicitRole(el) {
  const r = el.getAttribute && el.getAttribute('role');
  if (r) return r;
  const tag = el.tagName;
  if (tag === 'A') return el.hasAttribute('href') ? 'link' : '';
  if (tag === 'BUTTON' || tag === 'SUMMARY') return 'button';
  if (tag === 'SELECT') return el.multiple ? 'listbox' : 'combobox';
  if (tag === 'TEXTAREA') return 'textbox';
  if (tag === 'IMG') return 'img';
  if (/^H[1-6]$/.test(tag)) return 'heading';
  if (tag === 'INPUT') {
    const t = (el.getAttribute('type') || 'text').toLowerCase();
    return {checkbox: 'checkbox', radio: 'radio', button: 'button', submit: 'button', reset: 'button',
      range: 'slider', search: 'searchbox', number: 'spinbutton'}[t] || 'textbox';
  }
  if (el.isContentEditable) return 'textbox';
  return '';
}

function nameOf(el) {
  const by = el.getAttribute('aria-labelledby');
  if (by) {
    const t = by.split(/\s+/).map((id) => document.getElementById(id)).filter(Boolean)
      .map((e) => e.textContent).join(' ');
    if (t.trim()) return clip(t, 80);
  }
  for (const a of ['aria-label', 'alt', 'title']) {
    const v = el.getAttribute(a);
    if (v && v.trim()) return clip(v, 80);
  }
  if (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') {
    const lab = el.labels && el.labels[0];
    if (lab && lab.textContent.trim()) return clip(lab.textContent, 80);
    const t = (el.getAttribute('type') || '').toLowerCase();
    if (['button', 'submit', 'reset'].includes(t) && el.value) return clip(el.value, 80);
    if (el.tagName === 'SELECT' && el.selectedOptions[0]) return clip(el.selectedOptions[0].text, 80);
    const ph = el.getAttribute('placeholder');
    if (ph) return clip(ph, 80);
    return '';
  }
  if (el.tagName === 'svg' || el instanceof SVGElement) {
    const t = el.querySelector && el.querySelector('title');
    if (t) return clip(t.textContent, 80);
    return clip(el.textContent, 80);
  }
  return clip(el.innerText !== undefined ? el.innerText : el.textContent, 80);
}

// What a point in this document is on: the topmost element, and, when that is a
// transparent non-interactive overlay, the interactive element beneath it.
function pickAt(x, y) {
  const stack = stackAt(x, y);
  const top = stack[0] || null;
  if (!top) return {top: null, target: null, overlay: null, stack};
  if (interactiveOf(top)) return {top, target: top, overlay: null, stack};
  // Pierce only see-through, non-interactive layers down to the first interactive element.
  for (let i = 1; i < stack.length; i++) {
    if (!interactiveOf(stack[i])) continue;
    const seeThrough = stack.slice(0, i).every((a) => a.contains(stack[i]) || isTransparent(a));
    return seeThrough ? {top, target: stack[i], overlay: top, stack} : {top, target: top, overlay: null, stack};
  }
  // Nothing beneath looks interactive (listeners added with addEventListener on a plain
  // <li> are invisible to us): a see-through layer still meant the first painted element.
  if (isTransparent(top)) {
    for (let i = 1; i < stack.length; i++) {
      const e = stack[i];
      if (e === document.body || e === document.documentElement) break;
      if (e.contains(top) || isTransparent(e)) continue;
      return {top, target: e, overlay: top, stack};
    }
  }
  return {top, target: top, overlay: null, stack};
}

function describeEl(el) {
  const inter = interactiveOf(el);
  const subject = inter || el;
  const editable = isEditable(subject);
  return {
    tag: subject.tagName.toLowerCase(),
    short: short(subject),
    role: implicitRole(subject),
    name: nameOf(subject),
    clickable: !!inter,
    editable,
    is_select: subject.tagName === 'SELECT' || !!(inter && inter.tagName === 'LABEL' && inter.control && inter.control.tagName === 'SELECT'),
    in_svg_or_canvas: !!(el.closest && el.closest('svg, canvas')),
    disabled: !!(subject.disabled || subject.getAttribute('aria-disabled') === 'true'),
  };
}

function mouseInit(x, y, button, buttons, detail) {
  return {bubbles: true, cancelable: true, composed: true, view: window, clientX: x, clientY: y,
    screenX: x, screenY: y, button, buttons, detail};
}
