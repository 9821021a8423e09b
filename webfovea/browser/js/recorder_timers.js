// The one piece of the recorder that must live in the page's own world: the short timers the
// page's handlers schedule (hover delays, debounces) are only visible by wrapping the page's
// setTimeout. It only *tells*: each short timer set, fired or cleared becomes a synchronous
// event of a per-process type on the document, heard by the recorder in the harness's isolated
// world (recorder.js). Nothing the harness asks goes through here, and nothing here is
// reachable by name from the page: a page that forges or drops these events can only make the
// settle wait longer or shorter, within its bounds. Natives are captured before page scripts.
(() => {
  const EV = '__WF_EV__';
  const W = window, D = document, apply = Reflect.apply, defProp = Object.defineProperty;
  const ST = W.setTimeout, CT = W.clearTimeout, dispatch = EventTarget.prototype.dispatchEvent, CE = CustomEvent;
  const MAX_TIMER_MS = 650;  // longer timers are not "the page answering the action"
  let current = 0;  // the id of the short timer whose callback is running
  const tell = (msg) => { try { apply(dispatch, D, [new CE(EV, {detail: msg})]); } catch (e) { /* no document */ } };
  const copy = (args) => {
    const out = [];
    for (let i = 0; i < args.length; i++) defProp(out, i, {value: args[i], writable: true, enumerable: true, configurable: true});
    return out;
  };
  const wrapST = function setTimeout(fn, delay) {
    const ms = +delay || 0;
    const args = copy(arguments);
    if (typeof fn !== 'function' || !(ms <= MAX_TIMER_MS)) return apply(ST, W, args);
    const parent = current;
    let id = 0;
    defProp(args, 0, {value: function () {
      const saved = current;
      current = id;
      try { return apply(fn, this, arguments); } finally { current = saved; tell('f ' + id); }
    }});
    id = apply(ST, W, args);
    tell('s ' + id + ' ' + ms + ' ' + parent);
    return id;
  };
  const wrapCT = function clearTimeout(id) {
    tell('c ' + (+id || 0));
    return apply(CT, W, copy(arguments));
  };
  try {
    W.setTimeout = wrapST;
    W.clearTimeout = wrapCT;
  } catch (e) { /* frozen window: timers are not tracked */ }
})();
