// What identifies an action's target for the workflow cache (webfovea/cache/), and finding it
// again on a later visit. Runs in one document: for a point inside an iframe the caller asks
// the iframe's document too (targets.py), so the element inside the frame is identified, not
// only the frame. And where an answer is shown: the elements whose text holds it as a whole
// token, checked again on replay. arg: {op: 'identify', x, y} | {op: 'find', id} |
// {op: 'holders', forms, max} | {op: 'holds', at, forms}.
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

  // An answer as a whole token of an element's visible text: "12" is not in "120", "12.5" or
  // "A12" (whitespace collapsed, case aside; forms: the spellings the caller accepts).
  const norm = (t) => (t || '').replace(/\s+/g, ' ').trim().toLowerCase();
  const esc = (t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const tokenRe = (f) => new RegExp(
    (/^\d/.test(f) ? '(?<!\\d[.,])' : '') + '(?<![\\p{L}\\p{N}])' + esc(f) +
    '(?![\\p{L}\\p{N}])' + (/\d$/.test(f) ? '(?![.,]\\d)' : ''), 'u');
  const holdsAny = (el, res) => { const t = norm(el.innerText); return res.some((re) => re.test(t)); };
  const rendered = (el) => el.getClientRects().length > 0;
  // The element a value is shown in: the nearest one that is not inline, so a value split over
  // inline pieces (<b>12</b>0) is judged by the text of its line ("120"), not of a piece.
  const blockOf = (el) => {
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      const d = getComputedStyle(e).display;
      if (d !== 'inline' && d !== 'contents') return e;
    }
    return document.body;
  };
  const where = (el) => ({tag: el.tagName.toLowerCase(), path: pathOf(el), html_id: el.id || ''});

  if (arg.op === 'holders') {
    if (!document.body) return [];
    return arg.forms.map((forms) => {
      const res = forms.map(norm).filter(Boolean).map(tokenRe);
      const leaves = [];
      const walk = (el) => {
        const kids = Array.from(el.children).filter((k) => rendered(k) && holdsAny(k, res));
        if (!kids.length) leaves.push(el);
        for (const k of kids) walk(k);
      };
      if (res.length && holdsAny(document.body, res)) walk(document.body);
      const out = [];
      for (const leaf of leaves) {
        const b = blockOf(leaf);
        if (b === document.body || !holdsAny(b, res) || out.some((o) => o.el === b)) continue;
        out.push({el: b, at: where(b)});
        if (out.length >= arg.max) break;
      }
      return out.map((o) => o.at);
    });
  }

  if (arg.op === 'holds') {
    const res = arg.forms.map(norm).filter(Boolean).map(tokenRe);
    return arg.at.map((at) => {
      const byId = at.html_id ? document.getElementById(at.html_id) : null;
      const el = byId && pathOf(byId) === at.path ? byId
        : Array.from(document.getElementsByTagName(at.tag)).find((e) => pathOf(e) === at.path);
      if (!el || !rendered(el)) return {found: false};
      return {found: true, holds: holdsAny(el, res), text: clip(el.innerText || '', 80)};
    });
  }

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
