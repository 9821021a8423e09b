// What Playwright's AI snapshot cannot show, found in one pass over the frame: text drawn
// with private-use code points (custom-font digits) or hidden by zero-width characters,
// canvas and SVG graphics, and custom elements that render content from a closed shadow
// root (invisible to every page script, so recognised by shape: a sized custom element
// with no children and no open root). Each finding carries the boxes of the element and
// its ancestors (viewport CSS px, as the snapshot's [box=...] prints them) so the harness
// can annotate the nearest snapshot line. Returned as one JSON string: Playwright's value
// serialisation of ~200 small objects costs seconds, a string costs nothing.
(args) => {
  const maxFindings = (args && args.max) || 200;
  const PUA = /[\uE000-\uF8FF]/g;
  const ZW = /[\u200B-\u200D\u2060\uFEFF]/g;
  const out = [];
  const boxes = (el) => {
    const chain = [];
    for (let e = el; e && chain.length < 8; e = up(e)) {
      const r = e.getBoundingClientRect();
      chain.push([Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]);
    }
    return chain;
  };
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) return false;
    const cs = getComputedStyle(el);
    return cs.visibility !== 'hidden' && cs.display !== 'none';
  };
  const walker = document.createTreeWalker(document.body || document.documentElement, NodeFilter.SHOW_TEXT);
  const counted = new Map();
  for (let t = walker.nextNode(); t && out.length < maxFindings; t = walker.nextNode()) {
    const s = t.nodeValue || '';
    const pua = (s.match(PUA) || []).length;
    const zw = (s.match(ZW) || []).length;
    if (!pua && !zw) continue;
    const el = t.parentElement;
    if (!el || !visible(el)) continue;
    const prev = counted.get(el);
    if (prev) { prev.pua += pua; prev.zw += zw; continue; }
    const f = {kind: 'text', pua, zw, tag: el.tagName.toLowerCase(), boxes: boxes(el),
      near: clip(s.replace(PUA, '').replace(ZW, ''), 40)};
    counted.set(el, f);
    out.push(f);
  }
  for (const el of document.querySelectorAll('canvas, svg')) {
    if (out.length >= maxFindings) break;
    if (el.tagName.toLowerCase() === 'svg' && el.parentElement && el.parentElement.closest('svg')) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 48 || r.height < 48 || !visible(el)) continue;  // icons are not charts
    out.push({kind: 'graphic', tag: el.tagName.toLowerCase(), w: Math.round(r.width), h: Math.round(r.height),
      boxes: boxes(el)});
  }
  for (const el of document.querySelectorAll('*')) {
    if (out.length >= maxFindings) break;
    if (!el.tagName.includes('-') || el.shadowRoot || el.childElementCount || (el.textContent || '').trim()) continue;
    if (!visible(el)) continue;
    out.push({kind: 'closed_shadow', tag: el.tagName.toLowerCase(), boxes: boxes(el)});
  }
  return JSON.stringify(out);
}
