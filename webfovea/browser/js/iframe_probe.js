// arg: {els: [iframe elements of this document], x, y} with the point in this document's
// viewport. Which iframe's viewport the point reaches (not covered by anything opaque or
// interactive painted above it), and where that viewport starts.
(arg) => {
  const stack = stackAt(arg.x, arg.y);
  let best = null;
  arg.els.forEach((e, i) => {
    if (!e || !e.isConnected) return;
    const depth = stack.indexOf(e);
    if (depth < 0 || (best && depth >= best.depth)) return;
    const r = e.getBoundingClientRect();
    const cs = getComputedStyle(e);
    if (cs.visibility === 'hidden' || r.width === 0 || r.height === 0) return;
    const padL = parseFloat(cs.paddingLeft) || 0, padT = parseFloat(cs.paddingTop) || 0;
    const padR = parseFloat(cs.paddingRight) || 0, padB = parseFloat(cs.paddingBottom) || 0;
    const left = r.left + e.clientLeft + padL, top = r.top + e.clientTop + padT;
    const w = e.clientWidth - padL - padR, h = e.clientHeight - padT - padB;
    if (!(arg.x >= left && arg.x < left + w && arg.y >= top && arg.y < top + h)) return;  // on border/padding
    const above = stack.slice(0, depth);
    if (!above.every((a) => !interactiveOf(a) && isTransparent(a))) return;
    best = {i, depth, left, top, cover: depth > 0 ? short(above[0]) : null};
  });
  return best;
}
