// The fetch client of every React environment: calls /api/env/<env>/…, marks the page busy
// while a call runs (#busy, aria-busy on <body>), and hands back the JSON with its status and
// Retry-After, as engine/client.js does for the hand-written apps (the network families meet
// the same cues on every app). No clock and no randomness: same answers, same DOM.
export function createClient(apiBase, onBusy) {
  let running = 0;
  const busy = (delta) => {
    running += delta;
    const on = running > 0;
    if (on) document.body.setAttribute('aria-busy', 'true');
    else document.body.removeAttribute('aria-busy');
    onBusy(on);
  };
  return async function api(method, path, body) {
    busy(1);
    try {
      const init = {method, headers: {}};
      if (body !== undefined) {
        init.headers['content-type'] = 'application/json';
        init.body = JSON.stringify(body);
      }
      const r = await fetch(apiBase + path, init);
      let data = {};
      try { data = await r.json(); } catch (e) { data = {error: 'The server sent an unreadable answer.'}; }
      if (data === null || typeof data !== 'object' || Array.isArray(data)) data = {error: 'The server sent an unexpected answer.'};
      data.status = r.status;
      data.retryAfter = r.headers.get('retry-after');
      return data;
    } catch (e) {
      return {status: 0, error: 'The server could not be reached.'};
    } finally {
      busy(-1);
    }
  };
}

// A query string from an object, skipping empty values (the server reads only what is given).
export function qs(params) {
  const parts = Object.entries(params).filter(([, v]) => v !== '' && v !== undefined && v !== null)
    .map(([k, v]) => encodeURIComponent(k) + '=' + encodeURIComponent(v));
  return parts.length ? '?' + parts.join('&') : '';
}
