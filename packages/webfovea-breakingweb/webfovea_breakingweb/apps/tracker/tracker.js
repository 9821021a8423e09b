// The issue tracker's page: a board of columns whose cards are dragged between them (pointer
// events: press, move, release over a column), a filtered list, ticket pages with their fields
// and comments, and a form for new tickets. Rendered from /api/tracker, driven by the hash:
// #/board[/<text>], #/list[?status=&assignee=&label=&q=], #/t/<id>, #/new, #/units (the team).
// No randomness and no clock here: same responses, same DOM.
(function () {
  const root = document.querySelector('#app');
  const API = '/api/tracker';
  const COLUMNS = [['backlog', 'Backlog'], ['todo', 'To do'], ['in_progress', 'In progress'], ['review', 'In review'], ['done', 'Done']];
  const PRIORITIES = [['low', 'Low'], ['medium', 'Medium'], ['high', 'High'], ['urgent', 'Urgent']];
  const esc = (s) => String(s == null ? '' : s).replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c]));
  const when = (iso) => String(iso || '').replace('T', ' ').slice(0, 16);
  const nameOf = (pairs, v) => (pairs.find(([k]) => k === v) || ['', v])[1];
  let team = {users: [], labels: [], unit_display: 'name'};
  // Under seed/split_information people are shown by their user name; the Team page names them.
  const coded = () => team.unit_display === 'code';
  const person = (id) => { const u = team.users.find((x) => x.id === id); return !u ? 'Unassigned' : coded() ? u.id : u.name; };
  const labelName = (id) => { const l = team.labels.find((x) => x.id === id); return l ? l.name : id; };

  // The shared client (engine/client.js, `WF`): the API with the busy marker, errors and the
  // sign-in form in #wf-status, the toast with its reference.
  async function api(method, path, body) {
    const data = await WF.api(method, path, body);
    if (data.users) team = {users: data.users, labels: data.labels, unit_display: data.unit_display};
    return data;
  }
  const showError = (d) => WF.error(d);
  const clearError = () => WF.clear();
  function toast(message) {
    const m = /Reference (\S+?)\.?$/.exec(message || '');
    if (m) WF.toast(message.slice(0, m.index) + 'Reference', m[1]); else WF.toast(message || '');
  }
  WF.afterLogin(() => route());
  async function write(method, path, body, then) {
    WF.clear();  // the message that shows is this request's
    const d = await api(method, path, body);
    if (!d.ok) { showError(d); return null; }
    clearError();
    toast(d.message);
    if (then) await then(d);
    return d;
  }


  function options(pairs, chosen, none) {
    return (none ? '<option value="">' + esc(none) + '</option>' : '') + pairs.map(([v, l]) => '<option value="' + esc(v) + '"' + (String(chosen) === v ? ' selected' : '') + '>' + esc(l) + '</option>').join('');
  }
  const userPairs = () => team.users.map((u) => [u.id, u.name]);
  const chips = (ids) => ids.map((id) => '<span class="chip">' + esc(labelName(id)) + '</span>').join('');

  // -- the board ------------------------------------------------------------------------------
  function cardHtml(t) {
    const menu = COLUMNS.filter(([c]) => c !== t.status).map(([c, n]) => '<button type="button" role="menuitem" class="to" data-to="' + c + '">' + esc(n) + '</button>').join('');
    return '<article class="tcard prio-' + esc(t.priority) + '" data-id="' + esc(t.id) + '" aria-label="' + esc(t.id + ': ' + t.title) + '">' +
      '<div class="key">' + esc(t.id) + ' <span class="prio">' + esc(nameOf(PRIORITIES, t.priority)) + '</span></div>' +
      '<a class="open" href="#/t/' + esc(t.id) + '">' + esc(t.title) + '</a>' +
      '<div class="meta"><span class="who">' + esc(person(t.assignee)) + '</span> ' + chips(t.labels) + '</div>' +
      '<button type="button" class="move-btn secondary" aria-haspopup="menu" aria-expanded="false">Move…</button><div class="menu" role="menu" aria-label="Move ' + esc(t.id) + ' to" hidden>' + menu + '</div></article>';
  }

  async function renderBoard(q) {
    const d = await api('GET', '/tickets' + (q ? '?q=' + encodeURIComponent(q) : ''));
    if (!d.ok) { showError(d); return; }
    const cols = COLUMNS.map(([c, n]) => {
      const mine = d.tickets.filter((t) => t.status === c);
      return '<section class="col" data-status="' + c + '" aria-label="' + esc(n) + '"><h3>' + esc(n) + ' <span class="n">(' + mine.length + ')</span></h3><div class="cards">' + mine.map(cardHtml).join('') + '</div></section>';
    }).join('');
    root.innerHTML = '<form class="filter" id="board-filter" role="search"><label for="board-q" class="f">Filter cards</label><input type="search" id="board-q" value="' + esc(q) + '" placeholder="Title or ticket number">' +
      '<button type="submit" id="board-go">Filter</button>' + (q ? ' <a href="#/board" id="board-clear">Show all cards</a>' : '') + '<span class="muted" id="board-info">' + d.total + ' cards' + (q ? ' matching “' + esc(q) + '”' : '') + '</span></form>' +
      (coded() ? '<p class="muted" id="unit-note">People are given by their user name; see the <a href="#/units">Team</a> page.</p>' : '') + '<div id="board">' + cols + '</div>';
    root.querySelector('#board-filter').addEventListener('submit', (e) => { e.preventDefault(); const v = root.querySelector('#board-q').value.trim(); go(v ? '#/board/' + encodeURIComponent(v) : '#/board'); });
    const again = () => renderBoard(q);
    root.querySelectorAll('#board .tcard').forEach((el) => {
      const id = el.dataset.id;
      const btn = el.querySelector('.move-btn');
      const menu = el.querySelector('.menu');
      btn.addEventListener('click', () => { menu.hidden = !menu.hidden; btn.setAttribute('aria-expanded', String(!menu.hidden)); });
      menu.querySelectorAll('.to').forEach((b) => b.addEventListener('click', () => moveCard(id, b.dataset.to, again)));
      draggable(el, (to) => moveCard(id, to, again));
    });
    bindLinks();
  }

  function moveCard(id, to, then) {
    return write('POST', '/tickets/' + encodeURIComponent(id) + '/move', {status: to}, then);
  }

  // Pointer-based drag (as SortableJS's fallback does): press on a card, move past a few
  // pixels, a ghost follows the pointer, the column under it is marked; release drops there.
  function draggable(el, drop) {
    el.addEventListener('pointerdown', (e) => {
      if (e.button !== 0 || e.target.closest('a, button, .menu')) return;
      const x0 = e.clientX, y0 = e.clientY;
      let ghost = null, over = null;
      const column = (x, y) => { const hit = document.elementFromPoint(x, y); return hit ? hit.closest('#board .col') : null; };
      const moveTo = (ev) => {
        if (!ghost && Math.abs(ev.clientX - x0) + Math.abs(ev.clientY - y0) < 6) return;
        if (!ghost) {
          const box = el.getBoundingClientRect();
          ghost = el.cloneNode(true);
          ghost.classList.add('ghost');
          ghost.style.cssText = 'position:fixed;pointer-events:none;z-index:50;width:' + box.width + 'px;left:' + box.left + 'px;top:' + box.top + 'px;opacity:.85';
          ghost.dataset.dx = String(x0 - box.left); ghost.dataset.dy = String(y0 - box.top);
          ghost.removeAttribute('data-id');
          document.body.appendChild(ghost);
          el.classList.add('dragging');
        }
        ghost.style.left = (ev.clientX - Number(ghost.dataset.dx)) + 'px';
        ghost.style.top = (ev.clientY - Number(ghost.dataset.dy)) + 'px';
        const col = column(ev.clientX, ev.clientY);
        if (col !== over) { if (over) over.classList.remove('over'); over = col; if (over) over.classList.add('over'); }
      };
      const up = (ev) => {
        window.removeEventListener('pointermove', moveTo, true);
        window.removeEventListener('pointerup', up, true);
        if (!ghost) return;
        ghost.remove();
        el.classList.remove('dragging');
        if (over) over.classList.remove('over');
        const col = column(ev.clientX, ev.clientY);
        const from = el.closest('.col');
        if (col && col !== from) drop(col.dataset.status);
      };
      window.addEventListener('pointermove', moveTo, true);
      window.addEventListener('pointerup', up, true);
      e.preventDefault();  // no text selection while dragging
    });
  }

  // -- the list -------------------------------------------------------------------------------
  function shownText(qs) {
    const parts = [];
    if (qs.get('open')) parts.push('not done'); else if (qs.get('status')) parts.push('column ' + nameOf(COLUMNS, qs.get('status')));
    if (qs.get('assignee')) parts.push('assignee ' + (qs.get('assignee') === 'none' ? 'Unassigned' : person(qs.get('assignee'))));
    if (qs.get('label')) parts.push('label ' + labelName(qs.get('label')));
    if (qs.get('q')) parts.push('text “' + qs.get('q') + '”');
    return 'Showing: ' + (parts.length ? parts.join(', ') : 'all tickets');
  }
  async function renderList(query) {
    const qs = new URLSearchParams(query);
    const d = await api('GET', '/tickets?' + qs.toString());
    if (!d.ok) { showError(d); return; }
    const status = qs.get('open') ? 'open' : (qs.get('status') || '');
    const rows = d.tickets.map((t) => '<tr data-id="' + esc(t.id) + '"><td class="id">' + esc(t.id) + '</td><td class="title"><a class="open" href="#/t/' + esc(t.id) + '">' + esc(t.title) + '</a></td>' +
      '<td class="status">' + esc(nameOf(COLUMNS, t.status)) + '</td><td class="priority">' + esc(nameOf(PRIORITIES, t.priority)) + '</td><td class="assignee">' + esc(person(t.assignee)) + '</td>' +
      '<td class="labels">' + chips(t.labels) + '</td><td class="estimate num">' + esc(t.estimate) + '</td><td class="comments num">' + esc(t.comments) + '</td></tr>').join('') || '<tr><td colspan="8">No tickets match.</td></tr>';
    root.innerHTML = '<div class="card"><h2>Tickets</h2><div class="row filters">' +
      '<label class="f" for="f-status">Column<select id="f-status">' + options([['open', 'Not done'], ...COLUMNS], status, 'Any column') + '</select></label>' +
      '<label class="f" for="f-assignee">Assignee<select id="f-assignee">' + options([['none', 'Unassigned'], ...userPairs()], qs.get('assignee') || '', 'Anyone') + '</select></label>' +
      '<label class="f" for="f-label">Label<select id="f-label">' + options(team.labels.map((l) => [l.id, l.name]), qs.get('label') || '', 'Any label') + '</select></label>' +
      '<label class="f" for="f-q">Text<input type="search" id="f-q" value="' + esc(qs.get('q') || '') + '"></label><button type="button" id="f-apply">Apply</button></div>' +
      '<p id="list-info"><span class="total">' + d.total + ' tickets</span> · <span class="shown">' + esc(shownText(qs)) + '</span></p>' +
      '<table class="data" id="tickets"><thead><tr><th>Ticket</th><th>Title</th><th>Column</th><th>Priority</th><th>Assignee</th><th>Labels</th><th class="num">Points</th><th class="num">Comments</th></tr></thead><tbody>' + rows + '</tbody></table></div>';
    root.querySelector('#f-apply').addEventListener('click', () => {
      const p = new URLSearchParams();
      const s = root.querySelector('#f-status').value;
      if (s === 'open') p.set('open', '1'); else if (s) p.set('status', s);
      for (const [k, sel] of [['assignee', '#f-assignee'], ['label', '#f-label'], ['q', '#f-q']]) { const v = root.querySelector(sel).value.trim(); if (v) p.set(k, v); }
      go('#/list' + (p.toString() ? '?' + p.toString() : ''));
    });
    bindLinks();
  }

  // -- a ticket -------------------------------------------------------------------------------
  function metaHtml(t, notes) {
    return '<dl id="t-meta"><dt>Column</dt><dd class="status">' + esc(nameOf(COLUMNS, t.status)) + '</dd><dt>Priority</dt><dd class="priority">' + esc(nameOf(PRIORITIES, t.priority)) + '</dd>' +
      '<dt>Assignee</dt><dd class="assignee">' + esc(person(t.assignee)) + '</dd><dt>Labels</dt><dd class="labels">' + (t.labels.length ? esc(t.labels.map(labelName).join(', ')) : 'None') + '</dd>' +
      '<dt>Points</dt><dd class="estimate">' + esc(t.estimate) + '</dd><dt>Reporter</dt><dd class="reporter">' + esc(person(t.reporter)) + '</dd><dt>Updated</dt><dd class="updated">' + esc(when(t.updated)) + '</dd></dl>' +
      '<h3 id="comment-count">' + notes.length + ' comment' + (notes.length === 1 ? '' : 's') + '</h3><ol id="comments">' + notes.map((c) =>
        '<li data-id="' + esc(c.id) + '"><div class="head"><b class="author">' + esc(person(c.author)) + '</b> · <span class="date">' + esc(when(c.created)) + '</span></div><div class="body">' + esc(c.body) + '</div></li>').join('') + '</ol>';
  }

  async function renderTicket(id) {
    const d = await api('GET', '/tickets/' + encodeURIComponent(id));
    if (!d.ok) { showError(d); return; }
    const t = d.ticket;
    const boxes = team.labels.map((l) => '<label class="check"><input type="checkbox" class="t-label" value="' + esc(l.id) + '"' + (t.labels.includes(l.id) ? ' checked' : '') + '> ' + esc(l.name) + '</label>').join('');
    root.innerHTML = '<div class="card" id="ticket" data-id="' + esc(t.id) + '"><div class="key muted">' + esc(t.id) + '</div><h2 id="t-title"></h2><p id="t-desc"></p><div id="t-view"></div></div>' +
      '<div class="card" id="t-edit"><h2>Edit ticket</h2><div class="fields">' +
      '<label class="f lbl" for="t-status">Column</label><select id="t-status">' + options(COLUMNS, t.status) + '</select>' +
      '<label class="f lbl" for="t-priority">Priority</label><select id="t-priority">' + options(PRIORITIES, t.priority) + '</select>' +
      '<label class="f lbl" for="t-assignee">Assignee</label><select id="t-assignee">' + options(userPairs(), t.assignee || '', 'Unassigned') + '</select>' +
      '<label class="f lbl" for="t-estimate">Points</label><input type="number" id="t-estimate" min="0" max="40" value="' + esc(t.estimate) + '"></div>' +
      '<fieldset id="t-labels"><legend>Labels</legend>' + boxes + '</fieldset>' +
      '<div style="margin-top:14px"><button type="button" id="t-save">Save changes</button></div></div>' +
      '<div class="card" id="t-comment"><h2>Add a comment</h2><label class="f" for="c-new">Comment</label><textarea id="c-new" rows="3"></textarea>' +
      '<div style="margin-top:10px"><button type="button" id="c-add">Add comment</button></div></div>';
    root.querySelector('#t-title').textContent = t.title;
    root.querySelector('#t-desc').textContent = t.description;
    const paint = (data) => { root.querySelector('#t-view').innerHTML = metaHtml(data.ticket, data.comments); };
    paint(d);
    const refresh = async () => { const r = await api('GET', '/tickets/' + encodeURIComponent(id)); if (r.ok) paint(r); else showError(r); return r; };
    root.querySelector('#t-save').addEventListener('click', () => {
      const body = {
        status: root.querySelector('#t-status').value,
        priority: root.querySelector('#t-priority').value,
        assignee: root.querySelector('#t-assignee').value || null,
        estimate: Number(root.querySelector('#t-estimate').value),
        labels: [...root.querySelectorAll('.t-label:checked')].map((b) => b.value),
      };
      return write('PUT', '/tickets/' + encodeURIComponent(id), body, refresh);
    });
    root.querySelector('#c-add').addEventListener('click', async () => {
      const box = root.querySelector('#c-new');
      const d2 = await write('POST', '/tickets/' + encodeURIComponent(id) + '/comments', {body: box.value});
      if (!d2) return;
      const r = await refresh();
      // The draft is cleared once the comment really shows in the re-read thread.
      if (r && r.ok && r.comments.some((c) => c.id === d2.record.id && c.body === d2.record.body)) box.value = '';
    });
  }

  // -- a new ticket ---------------------------------------------------------------------------
  async function renderNew() {
    const d = await api('GET', '/recent');
    if (!d.ok) { showError(d); return; }
    const boxes = team.labels.map((l) => '<label class="check"><input type="checkbox" class="n-label" value="' + esc(l.id) + '"> ' + esc(l.name) + '</label>').join('');
    root.innerHTML = '<div class="card" id="new-ticket"><h2>New ticket</h2><div class="fields">' +
      '<label class="f lbl" for="n-title">Title</label><input type="text" id="n-title">' +
      '<label class="f lbl" for="n-desc">Description</label><textarea id="n-desc" rows="3"></textarea>' +
      '<label class="f lbl" for="n-priority">Priority</label><select id="n-priority">' + options(PRIORITIES, 'medium') + '</select>' +
      '<label class="f lbl" for="n-assignee">Assignee</label><select id="n-assignee">' + options(userPairs(), '', 'Unassigned') + '</select>' +
      '<label class="f lbl" for="n-estimate">Points</label><input type="number" id="n-estimate" min="0" max="40" value="1"></div>' +
      '<fieldset id="n-labels"><legend>Labels</legend>' + boxes + '</fieldset>' +
      '<div style="margin-top:14px"><button type="button" id="n-create">Create ticket</button></div></div><div class="card"><h2>Tickets you reported</h2><div id="recent-holder"></div></div>';
    const paint = (data) => {
      root.querySelector('#recent-holder').innerHTML = '<table class="data" id="recent"><thead><tr><th>Ticket</th><th>Title</th><th>Priority</th><th>Assignee</th><th>Labels</th></tr></thead><tbody>' +
        (data.tickets.map((t) => '<tr data-id="' + esc(t.id) + '"><td class="id">' + esc(t.id) + '</td><td class="title">' + esc(t.title) + '</td><td class="priority">' + esc(nameOf(PRIORITIES, t.priority)) + '</td><td class="assignee">' + esc(person(t.assignee)) + '</td><td class="labels">' + chips(t.labels) + '</td></tr>').join('') || '<tr><td colspan="5">None yet.</td></tr>') + '</tbody></table>';
    };
    paint(d);
    root.querySelector('#n-create').addEventListener('click', () => {
      const body = {
        title: root.querySelector('#n-title').value.trim(),
        description: root.querySelector('#n-desc').value.trim(),
        priority: root.querySelector('#n-priority').value,
        assignee: root.querySelector('#n-assignee').value || null,
        estimate: Number(root.querySelector('#n-estimate').value),
        labels: [...root.querySelectorAll('.n-label:checked')].map((b) => b.value),
      };
      return write('POST', '/tickets', body, async () => { const r = await api('GET', '/recent'); if (r.ok) paint(r); });
    });
  }

  // -- the team legend (user name -> person) ------------------------------------------------------
  async function renderTeam() {
    const d = await api('GET', '/team');
    if (!d.ok) { showError(d); return; }
    root.innerHTML = '<div class="card"><h2>Team</h2><table class="data" id="units"><thead><tr><th>User name</th><th>Name</th></tr></thead><tbody>' +
      d.users.map((u) => '<tr data-id="' + esc(u.id) + '"><td class="code">' + esc(u.id) + '</td><td class="name">' + esc(u.name) + '</td></tr>').join('') + '</tbody></table></div>';
  }

  function bindLinks() {
    // Links render their view again when it is the one shown (a retry after an error).
    root.querySelectorAll('a.open, #board-clear').forEach((a) => a.addEventListener('click', (e) => { e.preventDefault(); go(a.getAttribute('href')); }));
  }

  function route() {
    const raw = location.hash.replace(/^#\/?/, '');
    const [path, query] = raw.split('?');
    const parts = path.split('/').map(decodeURIComponent);
    const view = parts[0] || 'board';
    document.querySelectorAll('nav.tabs a').forEach((a) => a.classList.toggle('active', a.dataset.view === (view === 't' ? 'list' : view)));
    if (view === 't') return renderTicket(parts[1] || '');
    if (view === 'list') return renderList(query || '');
    if (view === 'new') return renderNew();
    if (view === 'units') return renderTeam();
    return renderBoard(parts.slice(1).join('/'));
  }
  function go(hash) { if (location.hash === hash) { clearError(); route(); } else { location.hash = hash; } }
  document.querySelectorAll('nav.tabs a').forEach((a) => a.addEventListener('click', (e) => { e.preventDefault(); go(a.getAttribute('href')); }));
  window.addEventListener('hashchange', () => { clearError(); route(); });
  const deep = new URLSearchParams(location.search).get('view');
  if (deep && !location.hash) history.replaceState(null, '', location.pathname + location.search + '#/' + deep);
  route();
})();
