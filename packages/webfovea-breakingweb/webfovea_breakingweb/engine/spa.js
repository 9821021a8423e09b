// The client-side UI of every stateful app: rendered from the app's JSON API, driven by the
// location hash (#/list, #/new, #/edit/ID, #/catalogue, #/units). APP (the app's declaration)
// is set by the page. No randomness and no clock here: same responses, same DOM.
(function () {
  const root = document.querySelector('#app');
  const esc = (s) => String(s == null ? '' : s).replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]));
  let records = [];

  async function api(method, path, body) {
    document.querySelector('#busy').hidden = false;
    root.setAttribute('aria-busy', 'true');
    try {
      const init = {method, headers: {}};
      if (body !== undefined) { init.headers['content-type'] = 'application/json'; init.body = JSON.stringify(body); }
      const r = await fetch(APP.api + path, init);
      let data = {};
      try { data = await r.json(); } catch (e) { data = {error: 'The server sent an unreadable answer.'}; }
      data.status = r.status;
      data.retryAfter = r.headers.get('retry-after');
      return data;
    } catch (e) {
      return {status: 0, error: 'The server could not be reached.'};
    } finally {
      document.querySelector('#busy').hidden = true;
      root.removeAttribute('aria-busy');
    }
  }

  function showError(d) {
    const box = document.querySelector('#error');
    if (d.status === 401 && d.expired) { renderLogin(d.error); return true; }
    let msg = d.error || ('The server answered ' + d.status + '.');
    if (d.status === 429 && d.retryAfter) msg += ' Try again in ' + d.retryAfter + ' seconds.';
    box.innerHTML = '<b>Error ' + esc(d.status) + ':</b> <span class="msg"></span>';
    box.querySelector('.msg').textContent = msg;
    box.hidden = false;
    if (d.status === 429 && d.retryAfter) {
      // Like many sites: say when a retry is welcome (a timer, not a clock: no wall time is read).
      const m = box.querySelector('.msg');
      setTimeout(() => { if (m.isConnected) m.textContent = 'Too many requests. You can try again now.'; }, Number(d.retryAfter) * 1000 + 100);
    }
    return true;
  }
  function clearError() { document.querySelector('#error').hidden = true; }

  function renderLogin(message) {
    root.innerHTML = '<div class="card" id="login" style="max-width:520px"><h2>Sign in</h2><p class="muted"></p>' +
      '<div class="fields"><label class="f" for="login-user">User name</label><input type="text" id="login-user">' +
      '<label class="f" for="login-pass">Password</label><input type="text" id="login-pass"></div>' +
      '<div style="margin-top:14px"><button id="login-go" type="button">Sign in</button></div></div>';
    root.querySelector('#login p').textContent = message || 'Your session has expired. Please sign in again.';
    root.querySelector('#login-go').addEventListener('click', async () => {
      const d = await api('POST', '/login', {user: root.querySelector('#login-user').value, password: root.querySelector('#login-pass').value});
      if (!d.ok) { showError(d); return; }
      clearError();
      route();
    });
  }

  function cell(rec, key) { return '<td class="' + esc(key) + '">' + esc(rec[key]) + '</td>'; }

  function listTable() {
    const head = APP.columns.map(([k, h]) => '<th>' + esc(h) + '</th>').join('') + '<th>Actions</th>';
    const rows = records.map((r) => {
      let acts = APP.editable ? '<button type="button" class="secondary edit">Edit</button> ' : '';
      for (const a of APP.row_actions) {
        if (a.choose) {
          const f = APP.fields.find((x) => x.name === a.choose);
          acts += '<select class="choose-' + esc(a.name) + '">' + f.options.map(([v, l]) => '<option value="' + esc(v) + '">' + esc(l) + '</option>').join('') + '</select> ';
        }
        acts += '<button type="button" class="secondary act-' + esc(a.name) + '">' + esc(a.label) + '</button> ';
      }
      return '<tr data-id="' + esc(r.id) + '">' + APP.columns.map(([k]) => cell(r, k)).join('') + '<td class="actions">' + acts + '</td></tr>';
    }).join('') || '<tr><td colspan="' + (APP.columns.length + 1) + '">Nothing yet.</td></tr>';
    return '<div class="card"><h2>My ' + esc(APP.noun) + 's</h2><table class="data" id="records"><thead><tr>' + head + '</tr></thead><tbody>' + rows + '</tbody></table></div>';
  }

  function bindList() {
    root.querySelectorAll('#records tr[data-id]').forEach((tr) => {
      const id = tr.dataset.id;
      const edit = tr.querySelector('.edit');
      if (edit) edit.addEventListener('click', () => { go('#/edit/' + id); });
      for (const a of APP.row_actions) {
        tr.querySelector('.act-' + a.name).addEventListener('click', async () => {
          const body = a.choose ? {[a.choose]: tr.querySelector('.choose-' + a.name).value} : {};
          const d = await api('POST', '/records/' + encodeURIComponent(id) + '/' + a.name, body);
          if (!d.ok) { showError(d); return; }
          clearError();
          toast(d.message);
          await loadList();
        });
      }
    });
  }

  async function loadList() {
    const d = await api('GET', '/records');
    if (!d.ok) { showError(d); return false; }
    records = d.records;
    const holder = root.querySelector('#list-holder');
    if (holder) { holder.innerHTML = listTable(); bindList(); }
    return true;
  }

  function toast(message) {
    const t = document.querySelector('#toast');
    if (!message) { t.hidden = true; return; }  // an answer that confirms nothing shows nothing
    t.innerHTML = '<span class="msg"></span>';
    const m = /Reference (\S+?)\.?$/.exec(message || '');
    t.querySelector('.msg').textContent = m ? message.slice(0, m.index) + 'Reference ' : message;
    if (m) { const b = document.createElement('b'); b.className = 'ref'; b.textContent = m[1]; t.appendChild(b); }
    t.hidden = false;
  }

  function field(f, value) {
    const id = 'f-' + f.name;
    const lab = '<label class="f lbl" for="' + id + '">' + esc(f.label) + '</label>';
    let input;
    if (f.kind === 'select') {
      input = '<select id="' + id + '"><option value="">Choose…</option>' + f.options.map(([v, l]) => '<option value="' + esc(v) + '"' + (String(value) === v ? ' selected' : '') + '>' + esc(l) + '</option>').join('') + '</select>';
    } else if (f.kind === 'textarea') {
      input = '<textarea id="' + id + '" rows="3">' + esc(value) + '</textarea>';
    } else {
      const type = f.kind === 'date' ? 'date' : f.kind === 'number' ? 'number' : 'text';
      input = '<input type="' + type + '" id="' + id + '" value="' + esc(value) + '">';
    }
    return lab + input;
  }

  async function renderForm(id) {
    root.innerHTML = '<div class="card"><p class="muted">Loading…</p></div>';
    if (!(await loadList())) return;
    const rec = id ? records.find((r) => r.id === id) : null;
    if (id && !rec) { showError({status: 404, error: 'No ' + APP.noun + ' ' + id + '.'}); return; }
    const title = rec ? 'Edit ' + APP.noun + ' ' + id : 'New ' + APP.noun;
    root.innerHTML = '<div class="card" id="form"><h2>' + esc(title) + '</h2><div class="fields">' +
      APP.fields.map((f) => field(f, rec ? rec[f.name] : '')).join('') + '</div>' +
      '<div style="margin-top:16px"><button type="button" id="save">' + esc(APP.save_label) + '</button></div></div>' +
      '<div id="list-holder"></div>';
    root.querySelector('#list-holder').innerHTML = listTable();
    bindList();
    root.querySelector('#save').addEventListener('click', async () => {
      const body = {};
      for (const f of APP.fields) {
        const v = root.querySelector('#f-' + f.name).value;
        body[f.name] = f.kind === 'number' && v !== '' ? Number(v) : v;
      }
      const d = rec ? await api('PUT', '/records/' + encodeURIComponent(id), body) : await api('POST', '/records', body);
      if (!d.ok) { showError(d); return; }
      clearError();
      toast(d.message);
      await loadList();
    });
  }

  async function renderList() {
    root.innerHTML = '<div id="list-holder"></div>';
    await loadList();
  }

  async function renderCatalogue(filter) {
    const c = APP.catalogue;
    const d = await api('GET', '/catalogue' + (filter ? '/' + encodeURIComponent(filter) : ''));
    if (!d.ok) { showError(d); return; }
    const kf = d.key_figures.length ? '<div class="card keyfig" id="key-figures"><h2>Key figures</h2>' + d.key_figures.map((k) =>
      '<div class="kf" data-id="' + esc(k.id) + '"><span class="name">' + esc(k.name) + '</span> <b class="value">' + esc(k.value) + '</b> <span class="asof muted">' + esc(k.note) + '</span></div>').join('') + '</div>' : '';
    const opts = c.filter_options.map((o) => '<option' + (o === filter ? ' selected' : '') + '>' + esc(o) + '</option>').join('');
    const head = c.columns.map(([, h]) => '<th>' + esc(h) + '</th>').join('');
    const rows = d.rows.map((r) => '<tr data-id="' + esc(r.id) + '">' + c.columns.map(([k]) => cell(r, k)).join('') + '</tr>').join('');
    const note = d.unit_display === 'code' ? '<p class="muted" id="unit-note">Units are given as codes; see the <a href="#/units">Units</a> page.</p>' : '';
    root.innerHTML = kf + '<div class="card"><h2>' + esc(c.title) + '</h2><div class="row"><label class="f lbl" for="filter">' + esc(c.filter_label) +
      '</label><select id="filter"><option value="">All</option>' + opts + '</select><button type="button" id="apply">Apply</button></div>' +
      '<p class="muted" id="shown">' + (filter ? 'Showing ' + esc(filter) : 'Showing all topics') + '</p>' + note +
      '<table class="data" id="catalogue"><thead><tr>' + head + '</tr></thead><tbody>' + rows + '</tbody></table></div>';
    root.querySelector('#apply').addEventListener('click', () => { go('#/catalogue/' + encodeURIComponent(root.querySelector('#filter').value)); });
  }

  async function renderUnits() {
    const d = await api('GET', '/catalogue');
    if (!d.ok) { showError(d); return; }
    root.innerHTML = '<div class="card"><h2>Units</h2><table class="data" id="units"><thead><tr><th>Code</th><th>Unit</th></tr></thead><tbody>' +
      d.units.map((u) => '<tr data-id="' + esc(u.id) + '"><td class="code">' + esc(u.id) + '</td><td class="name">' + esc(u.name) + '</td></tr>').join('') + '</tbody></table></div>';
  }

  function route() {
    const parts = location.hash.replace(/^#\/?/, '').split('/');
    document.querySelectorAll('nav.tabs a').forEach((a) => a.classList.toggle('active', a.dataset.view === (parts[0] || 'list')));
    if (parts[0] === 'new') return renderForm(null);
    if (parts[0] === 'edit') return renderForm(decodeURIComponent(parts[1] || ''));
    if (parts[0] === 'catalogue') return renderCatalogue(decodeURIComponent(parts[1] || ''));
    if (parts[0] === 'units') return renderUnits();
    return renderList();
  }
  // Going to the view already shown renders it again (a retry after an error must reach the server).
  function go(hash) { if (location.hash === hash) { clearError(); route(); } else { location.hash = hash; } }
  document.querySelectorAll('nav.tabs a').forEach((a) => a.addEventListener('click', (e) => { e.preventDefault(); go(a.getAttribute('href')); }));
  window.addEventListener('hashchange', () => { clearError(); route(); });
  route();
})();
