// The mail client's page: folders and labels on the left, a message list with bulk selection
// and search, a conversation view with reply and forward. Rendered from /api/mail, driven by
// the location hash: #/f/<folder>[/<page>], #/l/<label>[/<page>], #/s/<scope>/<query>, #/m/<id>.
// No randomness and no clock here: same responses, same DOM.
(function () {
  const root = document.querySelector('#app');
  const API = '/api/mail';
  const FOLDERS = [['inbox', 'Inbox'], ['sent', 'Sent'], ['archive', 'Archive'], ['spam', 'Spam'], ['trash', 'Trash']];
  const esc = (s) => String(s == null ? '' : s).replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]));
  const when = (iso) => String(iso || '').replace('T', ' ').slice(0, 16);
  let selected = new Set();
  let side = {counts: {}, label_counts: {}, labels: []};

  // The shared client (engine/client.js, `WF`): the API with the busy marker, errors and the
  // sign-in form in #wf-status, the toast with its reference.
  const api = (method, path, body) => WF.api(method, path, body);
  const showError = (d) => WF.error(d);
  const clearError = () => WF.clear();
  function toast(message) {
    const m = /Reference (\S+?)\.?$/.exec(message || '');
    if (m) WF.toast(message.slice(0, m.index) + 'Reference', m[1]); else WF.toast(message || '');
  }
  WF.afterLogin(() => route());

  function labelName(id) { const l = side.labels.find((x) => x.id === id); return l ? l.name : id; }
  function options(pairs, none) {
    return (none ? '<option value="">' + esc(none) + '</option>' : '') + pairs.map(([v, l]) => '<option value="' + esc(v) + '">' + esc(l) + '</option>').join('');
  }
  const moveTargets = () => FOLDERS.filter(([f]) => f !== 'sent');
  const labelPairs = () => side.labels.map((l) => [l.id, l.name]);

  function sidebar(active) {
    const n = (c) => (c ? ' <span class="count">' + esc(c) + '</span>' : '');
    const folders = FOLDERS.map(([f, name]) => '<li><a href="#/f/' + f + '" data-folder="' + f + '"' + (active === 'f:' + f ? ' class="active" aria-current="page"' : '') + '>' + esc(name) + n(side.counts[f]) + '</a></li>').join('');
    const labels = side.labels.map((l) => '<li><a href="#/l/' + esc(l.id) + '" data-label="' + esc(l.id) + '"' + (active === 'l:' + l.id ? ' class="active" aria-current="page"' : '') + '><span class="dot" style="background:' + esc(l.color) + '"></span>' + esc(l.name) + n(side.label_counts[l.id]) + '</a></li>').join('');
    return '<aside id="sidebar"><button type="button" id="compose-new">New message</button><nav aria-label="Folders"><h3>Folders</h3><ul class="folders">' + folders +
      '</ul></nav><nav aria-label="Labels"><h3>Labels</h3><ul class="labels">' + labels + '</ul></nav></aside>';
  }

  function chips(ids) { return ids.map((id) => '<span class="chip">' + esc(labelName(id)) + '</span>').join(''); }

  function row(m) {
    const what = esc(m.subject) + ' from ' + esc(m.sender);
    const clip = m.attachments ? ' <span class="clip">' + m.attachments + (m.attachments === 1 ? ' file' : ' files') + '</span>' : '';
    const count = m.thread_size > 1 ? ' <span class="tcount">(' + m.thread_size + ')</span>' : '';
    return '<tr data-id="' + esc(m.id) + '" class="' + (m.read ? 'read' : 'unread') + '">' +
      '<td class="sel"><input type="checkbox" class="sel-box" aria-label="Select ' + what + '"' + (selected.has(m.id) ? ' checked' : '') + '></td>' +
      '<td class="star"><button type="button" class="star-btn" aria-pressed="' + m.starred + '" aria-label="' + (m.starred ? 'Unstar ' : 'Star ') + what + '">' + (m.starred ? '★' : '☆') + '</button></td>' +
      '<td class="from">' + esc(m.folder === 'sent' ? 'To: ' + m.to : m.sender) + '</td>' +
      '<td class="subject"><a href="#/m/' + esc(m.id) + '" class="open">' + esc(m.subject) + '</a>' + count + ' ' + chips(m.labels) + clip + '</td>' +
      '<td class="status">' + (m.read ? 'Read' : 'Unread') + '</td><td class="date">' + esc(when(m.date)) + '</td></tr>';
  }

  function parse() {
    const parts = location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
    if (parts[0] === 'm') return {kind: 'msg', id: parts[1] || ''};
    if (parts[0] === 'c') return {kind: 'compose'};
    if (parts[0] === 'l') return {kind: 'list', label: parts[1] || '', page: Number(parts[2] || 1)};
    if (parts[0] === 's') {
      const scope = parts[1] || 'f:inbox';
      const q = parts.slice(2).join('/');
      if (scope.startsWith('l:')) return {kind: 'list', label: scope.slice(2), q, scope: 'here', page: 1};
      if (scope === 'all') return {kind: 'list', folder: 'inbox', q, scope: 'all', page: 1};
      return {kind: 'list', folder: scope.slice(2) || 'inbox', q, scope: 'here', page: 1};
    }
    return {kind: 'list', folder: parts[0] === 'f' && parts[1] ? parts[1] : 'inbox', page: Number(parts[2] || 1)};
  }

  function place(v) { return v.label ? 'l:' + v.label : 'f:' + v.folder; }
  function placeName(v) { return v.label ? 'Label ' + labelName(v.label) : (FOLDERS.find(([f]) => f === v.folder) || ['', v.folder])[1]; }

  async function renderList(v) {
    const qs = new URLSearchParams({page: String(v.page || 1)});
    if (v.label) qs.set('label', v.label); else qs.set('folder', v.folder);
    if (v.q) { qs.set('q', v.q); qs.set('scope', v.scope === 'all' ? 'all' : 'here'); }
    const d = await api('GET', '/messages?' + qs.toString());
    if (!d.ok) { showError(d); return; }
    side = d;
    const shown = new Set(d.messages.map((m) => m.id));
    selected = new Set([...selected].filter((id) => shown.has(id)));
    const where = v.q ? 'Search results for “' + esc(v.q) + '” in ' + (v.scope === 'all' ? 'all mail' : esc(placeName(v))) : esc(placeName(v));
    const unread = d.unread ? d.unread + ' unread' : 'none unread';
    const rows = d.messages.map(row).join('') || '<tr><td colspan="6" class="empty">No messages.</td></tr>';
    root.innerHTML = '<div class="mail">' + sidebar(v.q ? '' : place(v)) + '<section id="main" aria-label="Messages">' +
      '<form class="search" role="search" id="search-form"><label for="search" class="f">Search mail</label><input type="search" id="search" value="' + esc(v.q || '') + '" placeholder="Sender or subject">' +
      '<select id="search-scope" aria-label="Search in"><option value="here">In ' + esc(placeName(v)) + '</option><option value="all"' + (v.scope === 'all' ? ' selected' : '') + '>In all mail</option></select>' +
      '<button type="submit" id="search-go">Search</button>' + (v.q ? ' <a href="#/' + (v.label ? 'l/' + esc(v.label) : 'f/' + esc(v.folder)) + '" id="search-clear">Clear search</a>' : '') + '</form>' +
      '<div class="toolbar" role="toolbar" aria-label="Selected messages">' +
      '<label class="inline"><input type="checkbox" id="select-all"> Select all</label>' +
      '<button type="button" class="secondary" id="bulk-read">Mark as read</button><button type="button" class="secondary" id="bulk-unread">Mark as unread</button>' +
      '<button type="button" class="secondary" id="bulk-archive">Archive</button><button type="button" class="secondary" id="bulk-trash">Delete</button>' +
      '<button type="button" class="secondary" id="bulk-spam">Report spam</button>' +
      '<span class="grp"><label for="bulk-folder">Move to</label><select id="bulk-folder">' + options(moveTargets(), 'Folder…') + '</select><button type="button" class="secondary" id="bulk-move">Move</button></span>' +
      '<span class="grp"><label for="bulk-label-choice">Label</label><select id="bulk-label-choice">' + options(labelPairs(), 'Label…') + '</select><button type="button" class="secondary" id="bulk-label">Apply label</button><button type="button" class="secondary" id="bulk-unlabel">Remove label</button></span>' +
      '<span id="sel-count" class="muted">' + selected.size + ' selected</span></div>' +
      '<p id="list-info"><b class="where">' + where + '</b> · <span class="total">' + d.total + ' messages</span> · <span class="unread-info">' + unread + '</span></p>' +
      '<table class="data" id="records"><thead><tr><th class="sel"><span class="sr">Select</span></th><th>Star</th><th>From</th><th>Subject</th><th>Status</th><th>Date</th></tr></thead><tbody>' + rows + '</tbody></table>' +
      '<div class="pager"><button type="button" class="secondary" id="newer"' + (d.page > 1 ? '' : ' disabled') + '>‹ Newer</button> <span id="page-info">Page ' + d.page + ' of ' + d.pages + '</span> ' +
      '<button type="button" class="secondary" id="older"' + (d.page < d.pages ? '' : ' disabled') + '>Older ›</button></div></section></div>';
    bindSidebar();
    const count = () => { root.querySelector('#sel-count').textContent = selected.size + ' selected'; };
    root.querySelectorAll('#records tr[data-id]').forEach((tr) => {
      const id = tr.dataset.id;
      tr.querySelector('.sel-box').addEventListener('change', (e) => { if (e.target.checked) selected.add(id); else selected.delete(id); count(); });
      tr.querySelector('.star-btn').addEventListener('click', async (e) => {
        const on = e.currentTarget.getAttribute('aria-pressed') === 'true';
        await act('/messages/' + encodeURIComponent(id) + '/' + (on ? 'unstar' : 'star'), {}, () => renderList(v));
      });
    });
    root.querySelector('#select-all').addEventListener('change', (e) => {
      root.querySelectorAll('#records .sel-box').forEach((b) => { b.checked = e.target.checked; const id = b.closest('tr').dataset.id; if (b.checked) selected.add(id); else selected.delete(id); });
      count();
    });
    const bulk = (button, action, extra) => root.querySelector(button).addEventListener('click', async () => {
      const body = Object.assign({ids: [...selected]}, extra ? extra() : {});
      await act('/bulk/' + action, body, () => renderList(v));
    });
    bulk('#bulk-read', 'read'); bulk('#bulk-unread', 'unread'); bulk('#bulk-archive', 'archive');
    bulk('#bulk-trash', 'trash'); bulk('#bulk-spam', 'spam');
    bulk('#bulk-move', 'move', () => ({folder: root.querySelector('#bulk-folder').value}));
    bulk('#bulk-label', 'label', () => ({label: root.querySelector('#bulk-label-choice').value}));
    bulk('#bulk-unlabel', 'unlabel', () => ({label: root.querySelector('#bulk-label-choice').value}));
    root.querySelector('#search-form').addEventListener('submit', (e) => {
      e.preventDefault();
      const q = root.querySelector('#search').value.trim();
      const scope = root.querySelector('#search-scope').value === 'all' ? 'all' : place(v);
      selected = new Set();
      go(q ? '#/s/' + scope + '/' + encodeURIComponent(q) : '#/' + (v.label ? 'l/' + v.label : 'f/' + v.folder));
    });
    const base = '#/' + (v.label ? 'l/' + v.label : 'f/' + v.folder) + '/';
    root.querySelector('#newer').addEventListener('click', () => go(base + (d.page - 1)));
    root.querySelector('#older').addEventListener('click', () => go(base + (d.page + 1)));
  }

  async function act(path, body, then) {
    WF.clear();  // the message that shows is this request's
    const d = await api('POST', path, body);
    if (!d.ok) { showError(d); return false; }
    clearError();
    toast(d.message);
    await then();
    return true;
  }

  function bindSidebar() {
    root.querySelector('#compose-new').addEventListener('click', () => go('#/c/new'));
    // Links render their view again when it is the one shown (a retry after an error).
    root.querySelectorAll('#sidebar a, #records a.open, #search-clear').forEach((a) => a.addEventListener('click', (e) => { e.preventDefault(); go(a.getAttribute('href')); }));
  }

  function meta(m, answered) {
    const folder = (FOLDERS.find(([f]) => f === m.folder) || ['', m.folder])[1];
    return '<dl id="msg-meta"><dt>Folder</dt><dd class="folder">' + esc(folder) + '</dd><dt>Labels</dt><dd class="labels">' + (m.labels.length ? esc(m.labels.map(labelName).join(', ')) : 'None') + '</dd>' +
      '<dt>Status</dt><dd class="status">' + (m.read ? 'Read' : 'Unread') + '</dd><dt>Starred</dt><dd class="starred">' + (m.starred ? 'Yes' : 'No') + '</dd>' +
      '<dt>Answered</dt><dd class="answered">' + (answered.length ? esc(answered.join('; ')) : 'No') + '</dd></dl>';
  }

  function threadHtml(thread) {
    return '<p id="thread-count">' + thread.length + ' message' + (thread.length === 1 ? '' : 's') + ' in this conversation</p><ol id="thread">' + thread.map((x) =>
      '<li class="msg" data-id="' + esc(x.id) + '"><div class="head"><b class="from">' + esc(x.sender) + '</b> <span class="email">&lt;' + esc(x.sender_email) + '&gt;</span> to <span class="to">' + esc(x.to) + '</span> · <span class="date">' + esc(when(x.date)) + '</span></div>' +
      '<div class="body">' + esc(x.body) + '</div>' + (x.attachments.length ? '<ul class="attachments" aria-label="Attachments">' + x.attachments.map((a) =>
        '<li data-name="' + esc(a.name) + '"><span class="name">' + esc(a.name) + '</span> <span class="size">' + esc(a.size_kb) + ' KB</span></li>').join('') + '</ul>' : '') + '</li>').join('') + '</ol>';
  }

  async function renderMessage(id) {
    const d = await api('GET', '/messages/' + encodeURIComponent(id));
    if (!d.ok) { showError(d); return; }
    side = d;
    const m = d.message;
    root.innerHTML = '<div class="mail">' + sidebar('f:' + m.folder) + '<section id="main"><div class="card" id="message" data-id="' + esc(m.id) + '">' +
      '<div class="toolbar" role="toolbar" aria-label="This message"><button type="button" class="secondary" id="back">‹ Back</button>' +
      '<button type="button" id="msg-reply">Reply</button><button type="button" id="msg-forward">Forward</button>' +
      '<button type="button" class="secondary" id="msg-archive">Archive</button><button type="button" class="secondary" id="msg-trash">Delete</button>' +
      '<button type="button" class="secondary" id="msg-read"></button><button type="button" class="secondary" id="msg-star"></button>' +
      '<span class="grp"><label for="msg-folder">Move to</label><select id="msg-folder">' + options(moveTargets(), 'Folder…') + '</select><button type="button" class="secondary" id="msg-move">Move</button></span>' +
      '<span class="grp"><label for="msg-label-choice">Label</label><select id="msg-label-choice">' + options(labelPairs(), 'Label…') + '</select><button type="button" class="secondary" id="msg-label">Apply label</button><button type="button" class="secondary" id="msg-unlabel">Remove label</button></span></div>' +
      '<h2 id="msg-subject"></h2><div id="msg-view"></div><div id="composer"></div></div></section></div>';
    root.querySelector('#msg-subject').textContent = m.subject;
    bindSidebar();
    let current = m;
    const paint = (data) => {
      current = data.message;
      root.querySelector('#msg-view').innerHTML = meta(current, data.answered) + threadHtml(data.thread);
      root.querySelector('#msg-read').textContent = current.read ? 'Mark as unread' : 'Mark as read';
      root.querySelector('#msg-star').textContent = current.starred ? 'Unstar' : 'Star';
    };
    paint(d);
    const refresh = async () => { const r = await api('GET', '/messages/' + encodeURIComponent(id)); if (r.ok) paint(r); else showError(r); };
    const one = (button, action, extra) => root.querySelector(button).addEventListener('click', async () => {
      const a = typeof action === 'function' ? action() : action;
      await act('/messages/' + encodeURIComponent(id) + '/' + a, extra ? extra() : {}, refresh);
    });
    one('#msg-archive', 'archive'); one('#msg-trash', 'trash');
    one('#msg-read', () => (current.read ? 'unread' : 'read'));
    one('#msg-star', () => (current.starred ? 'unstar' : 'star'));
    one('#msg-move', 'move', () => ({folder: root.querySelector('#msg-folder').value}));
    one('#msg-label', 'label', () => ({label: root.querySelector('#msg-label-choice').value}));
    one('#msg-unlabel', 'unlabel', () => ({label: root.querySelector('#msg-label-choice').value}));
    root.querySelector('#back').addEventListener('click', () => history.back());
    root.querySelector('#msg-reply').addEventListener('click', () => composer('reply', current, refresh));
    root.querySelector('#msg-forward').addEventListener('click', () => composer('forward', current, refresh));
  }

  function composer(mode, m, after) {
    const holder = mode === 'new' ? root : root.querySelector('#composer');
    const subject = mode === 'reply' ? (m.subject.startsWith('Re: ') ? m.subject : 'Re: ' + m.subject) : mode === 'forward' ? 'Fwd: ' + m.subject.replace(/^Re: /, '') : '';
    const title = {reply: 'Reply', forward: 'Forward', new: 'New message'}[mode];
    const attach = mode === 'forward' && m.attachments.length ? '<label class="f lbl" for="c-attach">Include attachments (' + m.attachments.length + ')</label><input type="checkbox" id="c-attach" checked>' : '';
    holder.innerHTML = '<div class="card" id="compose"><h2>' + title + '</h2><div class="fields">' +
      '<label class="f lbl" for="c-to">To</label><input type="text" id="c-to" value="' + esc(mode === 'reply' ? (m.folder === 'sent' ? m.to : m.sender_email) : '') + '">' +
      '<label class="f lbl" for="c-subject">Subject</label><input type="text" id="c-subject" value="' + esc(subject) + '">' +
      '<label class="f lbl" for="c-body">Message</label><textarea id="c-body" rows="5"></textarea>' + attach + '</div>' +
      '<div style="margin-top:14px"><button type="button" id="send">Send</button> <button type="button" class="secondary" id="discard">Discard</button></div></div>';
    holder.querySelector('#discard').addEventListener('click', () => { if (mode === 'new') go('#/f/inbox'); else holder.innerHTML = ''; });
    holder.querySelector('#send').addEventListener('click', async () => {
      const body = {to: holder.querySelector('#c-to').value, subject: holder.querySelector('#c-subject').value, body: holder.querySelector('#c-body').value};
      if (mode === 'reply') body.in_reply_to = m.id;
      if (mode === 'forward') { body.forward_of = m.id; const c = holder.querySelector('#c-attach'); body.attachments = !!(c && c.checked); }
      // The draft stays in the form after sending, as the page's record of what went out.
      await act('/send', body, after || (async () => {}));
    });
    const first = holder.querySelector(mode === 'reply' ? '#c-body' : '#c-to');
    if (first) first.focus();
  }

  async function renderCompose() {
    root.innerHTML = '';
    composer('new', null, null);
  }

  function route() {
    const v = parse();
    if (v.kind === 'msg') return renderMessage(v.id);
    if (v.kind === 'compose') return renderCompose();
    return renderList(v);
  }
  // Going to the view already shown renders it again (a retry after an error must reach the server).
  function go(hash) { if (location.hash === hash) { clearError(); route(); } else { location.hash = hash; } }
  window.addEventListener('hashchange', () => { clearError(); route(); });
  // A deep link (`?view=m/M-0005`) opens that view on a fresh load.
  const deep = new URLSearchParams(location.search).get('view');
  if (deep && !location.hash) history.replaceState(null, '', location.pathname + location.search + '#/' + deep);
  route();
})();
