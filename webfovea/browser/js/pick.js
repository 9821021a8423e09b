// Element-level operations at a point of this frame's viewport. arg: {op, x, y, kind}.
(arg) => {
  const {x, y} = arg;
  if (arg.op === 'describe') {
    const p = pickAt(x, y);
    if (!p.target) return null;
    const d = describeEl(p.target);
    d.covered_by = p.overlay ? short(p.overlay) : null;
    return d;
  }
  if (arg.op === 'click') {
    const p = pickAt(x, y);
    const el = p.target;
    if (!el) return false;
    const k = arg.kind;
    const fire = (type, init, Ctor) => el.dispatchEvent(new Ctor(type, init));
    const P = typeof PointerEvent === 'function' ? PointerEvent : MouseEvent;
    const ptr = (b, bs, d) => Object.assign(mouseInit(x, y, b, bs, d), {pointerId: 1, pointerType: 'mouse', isPrimary: true});
    const button = k === 'contextmenu' ? 2 : 0;
    const buttons = k === 'contextmenu' ? 2 : 1;
    fire('pointerover', ptr(-1, 0, 0), P);
    el.dispatchEvent(new P('pointerenter', Object.assign(ptr(-1, 0, 0), {bubbles: false})));
    fire('mouseover', mouseInit(x, y, 0, 0, 0), MouseEvent);
    el.dispatchEvent(new MouseEvent('mouseenter', Object.assign(mouseInit(x, y, 0, 0, 0), {bubbles: false})));
    fire('pointermove', ptr(-1, 0, 0), P);
    fire('mousemove', mouseInit(x, y, 0, 0, 0), MouseEvent);
    const presses = k === 'dblclick' ? 2 : 1;
    for (let i = 1; i <= presses; i++) {
      fire('pointerdown', ptr(button, buttons, i), P);
      const down = fire('mousedown', mouseInit(x, y, button, buttons, i), MouseEvent);
      if (i === 1 && down) {
        // mousedown's default action moves focus to the nearest focusable ancestor.
        const f = el.closest('a[href], button, input, select, textarea, [tabindex], [contenteditable=""], [contenteditable=true]');
        if (f && typeof f.focus === 'function') f.focus({preventScroll: true});
      }
      fire('pointerup', ptr(button, 0, i), P);
      fire('mouseup', mouseInit(x, y, button, 0, i), MouseEvent);
      if (k === 'contextmenu') fire('contextmenu', mouseInit(x, y, 2, 0, 1), MouseEvent);
      else fire('click', mouseInit(x, y, 0, 0, i), MouseEvent);
    }
    if (k === 'dblclick') fire('dblclick', mouseInit(x, y, 0, 0, 2), MouseEvent);
    return true;
  }
  if (arg.op === 'editable') {
    // The first editable element under the point, looking through overlays; labels lead to their control.
    for (const e of stackAt(x, y)) {
      if (isEditable(e)) return editingHost(e);
      if (e.tagName === 'LABEL' && e.control && isEditable(e.control)) return e.control;
    }
    return null;
  }
  if (arg.op === 'file') {
    // The file input under the point, or the one the label around the point controls.
    const isFile = (e) => e && e.tagName === 'INPUT' && e.type === 'file' && !e.disabled;
    for (const e of stackAt(x, y)) {
      if (isFile(e)) return e;
      const label = e.closest('label');
      if (label && isFile(label.control)) return label.control;
    }
    return null;
  }
  if (arg.op === 'select') {
    for (const e of stackAt(x, y)) {
      const s = e.closest('select');
      if (s) return s;
      if (e.tagName === 'LABEL' && e.control && e.control.tagName === 'SELECT') return e.control;
      if (e.tagName === 'BODY' || e.tagName === 'HTML') return null;
      const inner = e.querySelectorAll('select');
      if (inner.length > 1) return null;
      // A small wrapper (a styled dropdown shell) whose only select it is.
      if (inner.length === 1) {
        const w = e.getBoundingClientRect(), r = inner[0].getBoundingClientRect();
        if (w.height <= Math.max(3 * r.height, 120) && w.width <= Math.max(3 * r.width, 400)) return inner[0];
        return null;
      }
    }
    return null;
  }
  return null;
}
