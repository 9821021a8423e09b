// Called on an <iframe>/<frame> element with a point of its document's viewport:
// where the child viewport starts, and whether the point reaches it (not covered by
// anything opaque or interactive painted above the iframe).
(e, p) => {
  const r = e.getBoundingClientRect();
  const cs = getComputedStyle(e);
  if (cs.visibility === 'hidden' || cs.display === 'none' || r.width === 0 || r.height === 0) return null;
  const padL = parseFloat(cs.paddingLeft) || 0, padT = parseFloat(cs.paddingTop) || 0;
  const padR = parseFloat(cs.paddingRight) || 0, padB = parseFloat(cs.paddingBottom) || 0;
  const left = r.left + e.clientLeft + padL;
  const top = r.top + e.clientTop + padT;
  const w = e.clientWidth - padL - padR, h = e.clientHeight - padT - padB;
  if (!(p.x >= left && p.x < left + w && p.y >= top && p.y < top + h)) return {inside: false};
  const stack = document.elementsFromPoint(p.x, p.y);
  const depth = stack.indexOf(e);
  if (depth < 0) return {inside: false};
  const above = stack.slice(0, depth);
  if (!above.every((a) => !interactiveOf(a) && isTransparent(a))) return {inside: false};
  return {inside: true, left, top, depth, cover: depth > 0 ? short(above[0]) : null};
}
