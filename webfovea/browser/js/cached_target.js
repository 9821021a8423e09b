// What identifies an action's target for the workflow cache (webfovea/cache/), and finding it
// again on a later visit. Main document only: an element inside an iframe is identified by
// its iframe and the point's place in it. arg: {op: 'identify', x, y} | {op: 'find', id} |
// {op: 'text'}.
(arg) => {
  const FORM_TAGS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);
  // Visible text, not a field's value: what the user typed must not change who the field is.
  const textOf = (el) => (FORM_TAGS.has(el.tagName) ? '' : clip(el.innerText || el.textContent || '', 80));
  const pathOf = (el) => {
    const parts = [];
    for (let e = el; e && e.nodeType === 1 && e !== document.body && e !== document.documentElement; e = e.parentElement) {
      if (e.id) { parts.unshift('#' + e.id); return parts.join(' > '); }
      let n = 1;
      for (let s = e.previousElementSibling; s; s = s.previousElementSibling) if (s.tagName === e.tagName) n++;
      parts.unshift(e.tagName.toLowerCase() + ':nth-of-type(' + n + ')');
    }
    return parts.join(' > ');
  };
  const boxOf = (el) => {
    const r = el.getBoundingClientRect();
    return {x: r.left, y: r.top, w: r.width, h: r.height};
  };
  const identity = (el) => ({
    tag: el.tagName.toLowerCase(),
    role: implicitRole(el),
    name: nameOf(el),
    text: textOf(el),
    html_id: el.id || '',
    path: pathOf(el),
  });
  const subjectAt = (x, y) => {
    const p = pickAt(x, y);
    return p.target ? interactiveOf(p.target) || p.target : null;
  };

  if (arg.op === 'text') return document.body ? document.body.innerText : '';

  if (arg.op === 'identify') {
    const el = subjectAt(arg.x, arg.y);
    if (!el || el === document.body || el === document.documentElement) return null;
    const b = boxOf(el);
    const id = identity(el);
    // Where in the element the point was: a large target (an iframe, a canvas) is hit at the
    // same place again; a button at its centre or wherever the model aimed inside it.
    id.fx = b.w > 0 ? Math.min(1, Math.max(0, (arg.x - b.x) / b.w)) : 0.5;
    id.fy = b.h > 0 ? Math.min(1, Math.max(0, (arg.y - b.y) / b.h)) : 0.5;
    id.box = b;
    return id;
  }

  if (arg.op === 'find') {
    const want = arg.id;
    const same = (el) => {
      const got = identity(el);
      return got.role === want.role && got.name === want.name && got.text === want.text;
    };
    const visible = (el) => { const b = boxOf(el); return b.w > 0 && b.h > 0; };
    const all = Array.from(document.getElementsByTagName(want.tag)).filter((el) => same(el) && visible(el));
    if (!all.length) return {why: `no <${want.tag}> ${JSON.stringify(want.name || want.text)} on the page`};
    const byPath = all.filter((el) => pathOf(el) === want.path);
    const byId = want.html_id ? all.filter((el) => el.id === want.html_id) : [];
    const pick = byPath.length === 1 ? byPath[0] : byId.length === 1 ? byId[0] : all.length === 1 ? all[0] : null;
    if (!pick) return {why: `${all.length} elements look like the <${want.tag}> ${JSON.stringify(want.name || want.text)}`};
    let b = boxOf(pick);
    const vw = innerWidth, vh = innerHeight;
    const inside = (bb) => bb.x >= 0 && bb.y >= 0 && bb.x + bb.w <= vw && bb.y + bb.h <= vh;
    if (!inside(b)) {
      pick.scrollIntoView({block: 'center', inline: 'center'});
      b = boxOf(pick);
    }
    const x = b.x + want.fx * b.w, y = b.y + want.fy * b.h;
    const hit = subjectAt(x, y);
    if (hit !== pick && !(hit && pick.contains(hit))) {
      return {why: `the <${want.tag}> ${JSON.stringify(want.name || want.text)} is covered at its point`};
    }
    return {x, y, same_path: pathOf(pick) === want.path,
      moved: Math.abs(b.x - want.box.x) > 0.5 || Math.abs(b.y - want.box.y) > 0.5};
  }
  return null;
}
