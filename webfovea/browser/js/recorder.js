// The page-side recorder behind the settle wait and the change detector. It runs in the
// harness's isolated world of every frame (browser/world.py), installed before the page's own
// scripts: it shares the DOM with the page but none of its JavaScript, so the page can neither
// see it, nor call or replace it, nor poison what it uses (a page that redefines
// Array.prototype.push, JSON, Map, Promise.prototype.then, Function.prototype.call, Math.round,
// Date.now or a DOM getter redefines its own copies only). The natives are still taken once
// here, at install time, so nothing below depends on a global looked up later.
//
// What it keeps: every batch of DOM mutations (by element, with time), the short timers the
// page's handlers schedule while an action is dispatched (hover delays, debounces; told by the
// page-world shim recorder_timers.js), scrolls of inner containers. Ambient elements — those
// that changed on their own, outside any action window — are told apart from what an action changed.
(() => {
  const KEY = '__WF_KEY__', EV = '__WF_EV__';
  const W = window;
  const gopd = Object.getOwnPropertyDescriptor;
  if (gopd(W, KEY)) return;
  const apply = Reflect.apply, defProp = Object.defineProperty;
  const perfNow = Performance.prototype.now, perf = W.performance;
  const now = () => apply(perfNow, perf, []);
  const ST = W.setTimeout, RAF = W.requestAnimationFrame;
  const MO = W.MutationObserver, moObserve = MO.prototype.observe;
  const MapC = Map, mGet = Map.prototype.get, mSet = Map.prototype.set, mDel = Map.prototype.delete;
  const mEach = Map.prototype.forEach, mSize = gopd(Map.prototype, 'size').get;
  const mClear = Map.prototype.clear;
  const docAnims = Document.prototype.getAnimations;
  const effTiming = typeof AnimationEffect === 'function' ? AnimationEffect.prototype.getComputedTiming : null;
  const animEffect = typeof Animation === 'function' ? gopd(Animation.prototype, 'effect').get : null;
  const animState = typeof Animation === 'function' ? gopd(Animation.prototype, 'playState').get : null;
  const parentEl = gopd(Node.prototype, 'parentElement').get, nodeType = gopd(Node.prototype, 'nodeType').get;
  const isConnected = gopd(Node.prototype, 'isConnected').get;
  const readyState = gopd(Document.prototype, 'readyState').get;
  const addEL = EventTarget.prototype.addEventListener;
  const split = String.prototype.split;
  const reTest = RegExp.prototype.test, qs = Element.prototype.querySelector, getAttr = Element.prototype.getAttribute;
  const rects = Element.prototype.getClientRects, cstyle = W.getComputedStyle;
  const tagName = gopd(Element.prototype, 'tagName').get, textOf = gopd(Node.prototype, 'textContent').get;
  const classOf = gopd(Element.prototype, 'className').get;
  const D = W.document;
  /*__WF_FP__*/

  const MAX_TIMER_MS = 650;  // longer timers are not "the page answering the action"
  const CHAIN = 2;  // timers set by a tracked timer's callback are tracked too, this deep
  const s = {
    batches: 0, last: -1,  // every mutation batch
    armed: false, armAt: -1, dispatching: false, obsAt: -1,
    inWin: 0, ambWin: 0, lastRel: -1, lastAmb: -1,  // relevant / ambient batches since arm
    byEl: new MapC(),  // element -> {out: last time mutated outside action windows, inN, inFirst, inLast, kinds}
    timers: new MapC(),  // id -> due time
    innerScrolls: 0,
    leftAt: -1,  // when the document began to unload: a navigation is on its way
    busy: new MapC(),  // element -> {subtree, disabled}: added or changed in the action window
  };
  const rec = (el) => {
    let r = apply(mGet, s.byEl, [el]);
    if (!r) {
      if (apply(mSize, s.byEl, []) > 4000) prune();
      r = {out: -1, out2: -1, inN: 0, inLast: -1, kinds: 0};
      apply(mSet, s.byEl, [el, r]);
    }
    return r;
  };
  const prune = () => {
    const old = now() - 20000, drop = [];
    apply(mEach, s.byEl, [(r, el) => { if (r.out < old && r.inN === 0) drop[drop.length] = el; }]);
    for (let i = 0; i < drop.length; i++) apply(mDel, s.byEl, [drop[i]]);
    if (apply(mSize, s.byEl, []) > 4000) apply(mClear, s.byEl, []);
  };
  // Ambient: the element changed on its own at least twice — the last time after the model's
  // view was taken, or both within the 3 s before the action (a clock, a ticker, a carousel).
  // One change is no evidence: it may be the late answer to the previous action.
  const isAmbient = (r) => r.out2 >= 0 && (r.out >= s.obsAt || r.out2 >= s.armAt - 3000);
  const elementOf = (n) => (apply(nodeType, n, []) === 1 ? n : apply(parentEl, n, []));
  const onMutations = (records) => {
    const t = now();
    s.batches++;
    s.last = t;
    let rel = false, amb = false;
    // Changes while the document loads are not "on its own" (and not worth a record); later ones are.
    if (!s.armed && apply(readyState, D, []) !== 'complete') return;
    for (let i = 0; i < records.length; i++) {
      const m = records[i];
      const el = elementOf(m.target);
      if (!el) continue;
      const r = rec(el);
      if (!s.armed) {
        if (t - r.out >= 50) { r.out2 = r.out; r.out = t; }
        continue;
      }
      const ambient = isAmbient(r);
      if (!ambient && apply(mSize, s.busy, []) < 300) {
        const attr = m.type === 'attributes' ? m.attributeName : '';
        const was = apply(mGet, s.busy, [el]);
        const disabled = attr === 'disabled' || attr === 'aria-disabled' ? t : was ? was.disabled : -1;
        apply(mSet, s.busy, [el, {subtree: was ? was.subtree : false, disabled}]);
        const added = m.addedNodes;
        for (let j = 0; added && j < added.length && j < 20; j++) {
          if (apply(nodeType, added[j], []) === 1) apply(mSet, s.busy, [added[j], {subtree: true, disabled: -1}]);
        }
      }
      if (r.inLast !== t) { r.inN++; r.inLast = t; }
      r.kinds |= m.type === 'childList' ? 1 : m.type === 'characterData' ? 2 : 4;
      if (ambient) amb = true; else rel = true;
    }
    if (rel) { s.inWin++; s.lastRel = t; }
    if (amb) { s.ambWin++; s.lastAmb = t; }
  };
  const startObserver = () => {
    try {
      apply(moObserve, new MO(onMutations), [D, {subtree: true, childList: true, attributes: true, characterData: true}]);
    } catch (e) { /* no document yet */ }
  };
  startObserver();
  // Heard in this world as soon as the navigation starts, before its request is sent.
  apply(addEL, W, ['beforeunload', () => { s.leftAt = now(); }, {capture: true}]);
  // A followed link or a submitted form starts a navigation whose request may come later.
  const navClosest = Element.prototype.closest;
  const leaving = (e) => {
    const t = e.target;
    if (e.defaultPrevented || !t || apply(nodeType, t, []) !== 1) return;
    if (e.type === 'submit' || apply(navClosest, t, ['a[href]:not([href^="#"]):not([href^="javascript:"]):not([download]):not([target=_blank])'])) s.leftAt = now();
  };
  apply(addEL, W, ['click', leaving, {}]);
  apply(addEL, W, ['submit', leaving, {}]);
  apply(addEL, D, ['scroll', (e) => { if (e.target !== D) s.innerScrolls++; }, {capture: true, passive: true}]);

  // Short timers scheduled while an action is dispatched (and, CHAIN deep, by their callbacks),
  // as the page-world shim tells them: 's id ms parent', 'f id' (its callback ran), 'c id'.
  const onTimer = (e) => {
    const msg = e.detail;
    if (typeof msg !== 'string') return;
    const p = apply(split, msg, [' ']);
    const id = +p[1];
    if (p[0] !== 's') { apply(mDel, s.timers, [id]); return; }
    if (!s.armed) return;
    const up = apply(mGet, s.timers, [+p[3]]);
    const level = up ? up.level + 1 : s.dispatching ? 1 : 0;
    if (level < 1 || level > CHAIN + 1) return;
    apply(mSet, s.timers, [id, {due: now() + (+p[2] || 0), level}]);
  };
  apply(addEL, D, [EV, onTimer, {capture: true}]);

  const timersLeft = () => {
    let left = 0;
    const t = now();
    apply(mEach, s.timers, [(r) => { if (r.due - t > left) left = r.due - t; }]);
    return left;
  };
  // Finite CSS transitions/animations still running (infinite ones never end: not waited for).
  const animsLeft = () => {
    if (!docAnims || !effTiming) return 0;
    let left = 0;
    let list;
    try { list = apply(docAnims, D, []); } catch (e) { return 0; }
    for (let i = 0; i < list.length && i < 200; i++) {
      try {
        if (apply(animState, list[i], []) !== 'running') continue;
        const eff = apply(animEffect, list[i], []);
        if (!eff) continue;
        const ct = apply(effTiming, eff, []);
        if (!(ct.endTime < 1e9)) continue;  // infinite
        const rest = ct.endTime - (ct.localTime || 0);
        if (rest > left) left = rest;
      } catch (e) { /* detached */ }
    }
    return left;
  };

  // Busy signs a page shows while the answer to an action is on its way: a spinner or loader,
  // a progress bar that is not full, aria-busy, a short "Loading…" / "Running" text, a control
  // disabled since the action. Only elements the action added or changed count, so a page's
  // permanent decoration never holds a wait.
  const BUSY_NAME = /(^|[\s_-])(spin|spinner|spinning|loading|loader|busy|progress|recalculating|throbber|skeleton)([\s_-]|$)/i;
  const BUSY_TEXT = /^\s*(loading|running|please wait|processing|saving|searching|submitting|working|calculating|updating|fetching)\b[^\n]{0,24}$/i;
  const BUSY_SEL = '[aria-busy="true"],[role="progressbar"],progress,[class*="spin"],[class*="load"],[class*="busy"],[class*="progress"]';
  const named = (el) => {
    let cls = '';
    try { const c = apply(classOf, el, []); cls = typeof c === 'string' ? c : ''; } catch (e) { /* svg */ }
    return apply(reTest, BUSY_NAME, [cls]) || apply(reTest, BUSY_NAME, [apply(tagName, el, [])]);
  };
  const unfinished = (el) => {
    const now = +(apply(getAttr, el, ['aria-valuenow']) ?? apply(getAttr, el, ['value']) ?? NaN);
    const max = +(apply(getAttr, el, ['aria-valuemax']) ?? apply(getAttr, el, ['max']) ?? 100);
    return !(now >= max);  // indeterminate (no value) or not yet full
  };
  const DISABLED_MS = 2000;  // a control may stay disabled for good (a form sent once)
  const busySign = (el, disabledAt) => {
    if (apply(getAttr, el, ['aria-busy']) === 'true') return true;
    const role = apply(getAttr, el, ['role']), tag = apply(tagName, el, []);
    if (role === 'progressbar' || tag === 'PROGRESS') return unfinished(el);
    if (named(el)) return true;
    if (disabledAt >= 0 && now() - disabledAt < DISABLED_MS
        && (el.disabled === true || apply(getAttr, el, ['aria-disabled']) === 'true')) return true;
    const text = apply(textOf, el, []);
    return typeof text === 'string' && text.length < 40 && apply(reTest, BUSY_TEXT, [text]);
  };
  const shown = (el) => {
    if (!apply(isConnected, el, []) || !apply(rects, el, []).length) return false;
    const st = apply(cstyle, W, [el]);
    return st.visibility !== 'hidden' && st.opacity !== '0';
  };
  const busyNow = () => {
    let n = 0;
    const gone = [];
    apply(mEach, s.busy, [(v, el) => {
      let sign = null;
      try {
        if (busySign(el, v.disabled)) sign = el;
        else if (v.subtree) { const inner = apply(qs, el, [BUSY_SEL]); if (inner && busySign(inner, -1)) sign = inner; }
      } catch (e) { /* detached */ }
      if (sign && shown(sign)) n++;
      else if (!apply(isConnected, el, [])) gone[gone.length] = el;
    }]);
    for (let i = 0; i < gone.length; i++) apply(mDel, s.busy, [gone[i]]);
    return n;
  };

  const poll = () => {
    const t = now();
    return {
      batches: s.batches, rel: s.inWin, amb: s.ambWin,
      age: s.lastRel < 0 ? -1 : t - s.lastRel, any_age: s.last < 0 ? -1 : t - s.last,
      timers: timersLeft(), anims: animsLeft(), armed: s.armed, inner: s.innerScrolls, scroll: F.scroll(),
      leaving: s.leftAt < 0 ? -1 : now() - s.leftAt,
      busy: s.armed ? busyNow() : 0,
    };
  };
  const arm = (sinceMs) => {
    const t = now();
    s.armed = true; s.dispatching = true; s.leftAt = -1; s.armAt = t; s.obsAt = sinceMs >= 0 ? t - sinceMs : t;
    s.inWin = 0; s.ambWin = 0; s.lastRel = -1; s.lastAmb = -1;
    apply(mEach, s.byEl, [(r) => { r.inN = 0; r.inLast = -1; r.kinds = 0; }]);
    apply(mClear, s.timers, []);
    apply(mClear, s.busy, []);
  };
  const disarm = () => {
    // What changed in the window becomes "outside" history only if it keeps changing later.
    s.armed = false; s.dispatching = false;
  };
  // The elements changed in the action window: [{el, ambient, kinds, n}], relevant first.
  const changedEls = () => {
    const out = [];
    apply(mEach, s.byEl, [(r, el) => {
      if (r.inN > 0 && apply(isConnected, el, [])) {
        out[out.length] = {el, ambient: isAmbient(r), kinds: r.kinds, n: r.inN};
      } else if (s.obsAt >= 0 && r.out >= s.obsAt && apply(isConnected, el, [])) {
        // changed on its own after the model's view was taken, before the action
        out[out.length] = {el, ambient: true, kinds: 2, n: 1};
      }
    }]);
    return out;
  };
  const twoFrames = (cap) => new Promise((resolve) => {
    let done = false;
    const finish = () => { if (!done) { done = true; resolve(true); } };
    apply(ST, W, [finish, cap || 100]);
    try { apply(RAF, W, [() => apply(RAF, W, [finish])]); } catch (e) { finish(); }
  });

  const api = (op, arg) => {
    if (op === 'poll') return poll();
    if (op === 'arm') { arm(arg); return poll(); }
    if (op === 'dispatched') { s.dispatching = false; return poll(); }
    if (op === 'disarm') { disarm(); return true; }
    if (op === 'changed') return changedEls();
    if (op === 'fp') {
      if (arg && arg.arm) arm(arg.since);
      const fp = F.fingerprint(arg);
      fp.poll = poll();
      if (arg && arg.regions) { fp.regions = F.regions(arg); fp.anim_rects = F.animRects(); }
      if (arg && arg.disarm) disarm();
      return fp;
    }
    if (op === 'frames') return twoFrames(arg);
    if (op === 'scrolls') return s.innerScrolls;
    return undefined;
  };
  try {
    defProp(W, KEY, {value: api, enumerable: false, configurable: false, writable: false});
  } catch (e) { /* a second install raced this one */ }
})();
