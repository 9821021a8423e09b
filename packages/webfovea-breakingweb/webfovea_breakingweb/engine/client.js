// What every app's own page shares (engine/page.py): calls to its API with the busy marker,
// errors as the page shows them (429 with its retry delay, 401 expired → the sign-in form),
// a toast with an optional reference. No randomness and no clock here: same responses, same DOM.
const WF = (function () {
  const esc = (s) => String(s == null ? '' : s).replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]));
  let onLogin = () => {};

  async function api(method, path, body) {
    const busy = document.querySelector('#busy');
    busy.hidden = false;
    document.body.setAttribute('aria-busy', 'true');
    try {
      const init = {method, headers: {}};
      if (body !== undefined) { init.headers['content-type'] = 'application/json'; init.body = JSON.stringify(body); }
      const r = await fetch(WF_API + path, init);
      let data = {};
      try { data = await r.json(); } catch (e) { data = {error: 'The server sent an unreadable answer.'}; }
      data.status = r.status;
      data.retryAfter = r.headers.get('retry-after');
      return data;
    } catch (e) {
      return {status: 0, error: 'The server could not be reached.'};
    } finally {
      busy.hidden = true;
      document.body.removeAttribute('aria-busy');
    }
  }

  function status() { return document.querySelector('#wf-status'); }

  function clear() { status().innerHTML = ''; }

  function error(d) {
    if (d.status === 401 && d.expired) { login(d.error); return; }
    let msg = d.error || ('The server answered ' + d.status + '.');
    if (d.status === 429 && d.retryAfter) msg += ' Try again in ' + d.retryAfter + ' seconds.';
    status().innerHTML = '<div id="error" role="alert"><b>Error ' + esc(d.status) + ':</b> <span class="msg"></span></div>';
    const m = status().querySelector('.msg');
    m.textContent = msg;
    if (d.status === 429 && d.retryAfter) {
      setTimeout(() => { if (m.isConnected) m.textContent = 'Too many requests. You can try again now.'; }, Number(d.retryAfter) * 1000 + 100);
    }
  }

  function toast(message, ref) {
    status().innerHTML = '<div id="toast" role="status"><span class="msg"></span></div>';
    const t = status().querySelector('#toast');
    t.querySelector('.msg').textContent = message + (ref ? ' ' : '');
    if (ref) { const b = document.createElement('b'); b.className = 'ref'; b.textContent = ref; t.appendChild(b); }
  }

  function login(message) {
    status().innerHTML = '<form id="login" onsubmit="return false"><h2>Sign in</h2><p class="muted"></p>' +
      '<label for="login-user">User name</label><input type="text" id="login-user" autocomplete="off">' +
      '<label for="login-pass">Password</label><input type="text" id="login-pass" autocomplete="off">' +
      '<div style="margin-top:14px"><button id="login-go" type="button">Sign in</button></div></form>';
    status().querySelector('#login p').textContent = message || 'Your session has expired. Please sign in again.';
    status().querySelector('#login-go').addEventListener('click', async () => {
      const d = await api('POST', '/login', {user: status().querySelector('#login-user').value, password: status().querySelector('#login-pass').value});
      if (!d.ok) { error(d); return; }
      clear();
      onLogin();
    });
  }

  // `call` = api + error display: the data on success, null (error shown) otherwise.
  async function call(method, path, body) {
    const d = await api(method, path, body);
    if (!d.ok) { error(d); return null; }
    return d;
  }

  return {esc, api, call, error, toast, clear, login, afterLogin: (f) => { onLogin = f; }};
})();
