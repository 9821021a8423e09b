// Which iframe's viewport a point of this document reaches (not covered by anything opaque or
// interactive painted above it), and where that viewport starts. Runs in the harness's
// isolated world. Called as (arg) with arg {x, y}: the <iframe>/<frame> element or null;
// as (el, arg): {left, top, cover} of that element's content box for the point.
(a, b) => {
  const box = (e) => {
    const r = e.getBoundingClientRect();
    const cs = getComputedStyle(e);
    const padL = parseFloat(cs.paddingLeft) || 0, padT = parseFloat(cs.paddingTop) || 0;
    const padR = parseFloat(cs.paddingRight) || 0, padB = parseFloat(cs.paddingBottom) || 0;
    return {left: r.left + e.clientLeft + padL, top: r.top + e.clientTop + padT,
      w: e.clientWidth - padL - padR, h: e.clientHeight - padT - padB, hidden: cs.visibility === 'hidden'};
  };
  if (b !== undefined) {
    const stack = stackAt(b.x, b.y);
    const depth = stack.indexOf(a);
    const g = box(a);
    return {left: g.left, top: g.top, cover: depth > 0 ? short(stack[0]) : null};
  }
  const stack = stackAt(a.x, a.y);
  for (let depth = 0; depth < stack.length; depth++) {
    const e = stack[depth];
    if (e.tagName !== 'IFRAME' && e.tagName !== 'FRAME') continue;
    const g = box(e);
    if (g.hidden || g.w <= 0 || g.h <= 0) return null;
    if (!(a.x >= g.left && a.x < g.left + g.w && a.y >= g.top && a.y < g.top + g.h)) return null;  // on border/padding
    const above = stack.slice(0, depth);
    if (!above.every((x) => !interactiveOf(x) && isTransparent(x))) return null;
    return e;
  }
  return null;
}
