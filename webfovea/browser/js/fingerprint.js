// A cheap summary of this document (op 'fp'), or a hash of what it shows as text (op 'hash').
(arg) => {
  const doc = document;
  const body = doc.body;
  if (arg.op === 'fp') {
    // Scrolls of inner containers do not move window.scrollY; a capture listener counts them.
    const KEY = Symbol.for('webfovea.scrolls');
    if (!(KEY in window)) {
      Object.defineProperty(window, KEY, {value: {n: 0}, enumerable: false});
      doc.addEventListener('scroll', (e) => { if (e.target !== doc) window[KEY].n++; }, {capture: true, passive: true});
    }
    const a = doc.activeElement;
    let focus = 'none';
    if (a) {
      focus = short(a);
      if (a.tagName === 'IFRAME' || a.tagName === 'FRAME') focus = 'iframe' + focus.slice(a.tagName.length);
    }
    return {
      url: location.href, title: doc.title, nodes: doc.getElementsByTagName('*').length,
      text_len: body ? (body.innerText || '').length : 0,
      scroll_x: Math.round(window.scrollX), scroll_y: Math.round(window.scrollY),
      inner_scrolls: window[KEY].n, focus,
    };
  }
  if (arg.op === 'hash') {
    const parts = [body ? body.innerText : ''];
    // Chart labels and tooltips: SVG text, titles, live regions; with their visibility, since
    // many tooltips exist all along and only change opacity or display on hover.
    for (const e of doc.querySelectorAll('svg text, svg title, [role=tooltip], [aria-live], [class*=tooltip i], [class*=popover i]')) {
      const cs = getComputedStyle(e);
      parts.push((e.textContent || '').trim() + '|' + cs.display + cs.visibility + cs.opacity);
    }
    const s = parts.join('\u0001');
    // Two FNV-1a passes with different seeds: 64 bits, computed where the text is.
    let h1 = 0x811c9dc5, h2 = 0x01000193 ^ s.length;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    }
    return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
  }
  return null;
}
