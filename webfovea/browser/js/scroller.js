// The scroll container under a point of this frame's viewport, for a scroll in `axis`
// ('y' or 'x') and `sign` (+1 down/right, -1 up/left): the first ancestor that can still
// move that way, else the document. Returns its visible size along the axis (CSS px) and
// where it stands (`pos`, `full`). With `container` (a name this returned before), only where
// that container stands now: the first scrollable ancestor of that name, whatever its room.
(arg) => {
  const {x, y, axis, sign, container} = arg;
  const vert = axis === 'y';
  const doc = document.scrollingElement || document.documentElement;
  const at = (el, page) => ({
    size: page ? (vert ? innerHeight : innerWidth) : (vert ? el.clientHeight : el.clientWidth),
    full: vert ? el.scrollHeight : el.scrollWidth,
    pos: vert ? el.scrollTop : el.scrollLeft,
    container: page ? 'page' : short(el),
    page,
  });
  let el = document.elementFromPoint(x, y);
  for (; el && el !== document.body && el !== document.documentElement; el = up(el)) {
    const cs = getComputedStyle(el);
    const ov = vert ? cs.overflowY : cs.overflowX;
    if (!/(auto|scroll|overlay)/.test(ov)) continue;
    const s = at(el, false);
    if (s.full <= s.size + 1) continue;
    if (container !== undefined) {
      if (s.container === container) return s;
      continue;
    }
    const room = sign > 0 ? s.full - s.size - s.pos : s.pos;
    if (room < 1) continue;
    return s;
  }
  return at(doc, true);
}
