// The scroll container under a point of this frame's viewport, for a scroll in `axis`
// ('y' or 'x') and `sign` (+1 down/right, -1 up/left): the first ancestor that can still
// move that way, else the document. Returns its visible size along the axis (CSS px).
(arg) => {
  const {x, y, axis, sign} = arg;
  const vert = axis === 'y';
  let el = document.elementFromPoint(x, y);
  for (; el && el !== document.body && el !== document.documentElement; el = up(el)) {
    const cs = getComputedStyle(el);
    const ov = vert ? cs.overflowY : cs.overflowX;
    if (!/(auto|scroll|overlay)/.test(ov)) continue;
    const size = vert ? el.clientHeight : el.clientWidth;
    const full = vert ? el.scrollHeight : el.scrollWidth;
    const pos = vert ? el.scrollTop : el.scrollLeft;
    if (full <= size + 1) continue;
    const room = sign > 0 ? full - size - pos : pos;
    if (room < 1) continue;
    return {size, container: short(el), page: false};
  }
  return {size: vert ? innerHeight : innerWidth, container: 'page', page: true};
}
