// The calendar's page: a month grid and a week view (times in your zone), event pages (edit,
// delete, one occurrence of a series, the start shown in another zone, the invitation's
// answer), the invitations list, a new-event form, search, the rooms legend and your time
// zone. Rendered from /api/calendar, driven by the hash: #/month/<YYYY-MM>, #/week/<date>,
// #/e/<id>[/<occ>], #/invites, #/new, #/search/<text>, #/units, #/settings.
// No randomness and no clock here (the server says what "today" is): same answers, same DOM.
(function () {
  const root = document.querySelector('#app');
  const CALS = [['work', 'Work'], ['team', 'Team'], ['personal', 'Personal']];
  const REPEATS = [['none', 'Does not repeat'], ['daily', 'Every day'], ['weekly', 'Every week'], ['monthly', 'Every month']];
  const esc = WF.esc;
  const nameOf = (pairs, v) => (pairs.find(([k]) => k === v) || ['', v])[1];
  let zones = [];

  function options(pairs, chosen) {
    return pairs.map(([v, l]) => '<option value="' + esc(v) + '"' + (String(chosen) === v ? ' selected' : '') + '>' + esc(l) + '</option>').join('');
  }
  function toast(message) {
    const m = /Reference (\S+?)\.?$/.exec(message || '');
    if (m) WF.toast(message.slice(0, m.index) + 'Reference', m[1]); else WF.toast(message || '');
  }
  async function write(method, path, body, then) {
    WF.clear();  // the message that shows is this request's
    const d = await WF.call(method, path, body);
    if (!d) return null;
    toast(d.message);
    if (then) await then(d);
    return d;
  }
  async function read(path) {
    const d = await WF.call('GET', path);
    if (d && d.zones) zones = d.zones;
    return d;
  }
  async function ensureZones() { if (!zones.length) await read('/profile'); }
  const zoneLine = (d) => '<p class="muted" id="zone-line">Times are shown in your time zone: <b class="zone">' + esc(d.zone_name) + '</b>.</p>';
  function chip(c) {
    const mark = c.invite === 'pending' ? ' <span class="tag">invited</span>' : '';
    return '<a class="ev cal-' + esc(c.calendar) + (c.invite === 'pending' ? ' pending' : '') + '" href="#/e/' + esc(c.id) + '/' + esc(c.occ) + '" data-id="' + esc(c.id) + '" data-occ="' + esc(c.occ) + '">' +
      '<span class="time">' + esc(c.time) + '</span> <span class="title">' + esc(c.title) + '</span>' + mark + '</a>';
  }
  function pager(d, view, key) {
    return '<div class="pager"><button type="button" class="secondary" id="prev" data-go="#/' + view + '/' + esc(d.prev) + '">‹ Previous</button>' +
      '<h2 id="period">' + esc(d.period) + '</h2><button type="button" class="secondary" id="next" data-go="#/' + view + '/' + esc(d.next) + '">Next ›</button>' +
      '<button type="button" class="secondary" id="today" data-go="#/' + view + '">Today</button></div>';
  }

  // -- month and week --------------------------------------------------------------------------
  async function renderMonth(ym) {
    const d = await read('/month' + (ym ? '?ym=' + encodeURIComponent(ym) : ''));
    if (!d) return;
    const head = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((x) => '<th>' + x + '</th>').join('');
    const rows = d.weeks.map((w) => '<tr>' + w.map((day) => '<td data-date="' + day.date + '" data-n="' + day.events.length + '" class="' + (day.in_month ? '' : 'out') + '">' +
      '<div class="dayhead"><span class="daynum">' + day.day + '</span>' + (day.events.length ? '<span class="count" title="events">' + day.events.length + '</span>' : '') + '</div>' +
      day.events.map(chip).join('') + '</td>').join('') + '</tr>').join('');
    root.innerHTML = '<div class="card" id="month-view" data-ym="' + esc(d.ym) + '">' + pager(d, 'month') + zoneLine(d) +
      '<table id="month"><thead><tr>' + head + '</tr></thead><tbody>' + rows + '</tbody></table></div>';
    bind();
  }

  async function renderWeek(start) {
    const d = await read('/week' + (start ? '?start=' + encodeURIComponent(start) : ''));
    if (!d) return;
    const cols = d.days.map((day) => '<section class="day" data-date="' + day.date + '"><h3>' + esc(day.label) + '</h3>' +
      (day.events.map((c) => chip(c).replace('</a>', ' <span class="end">until ' + esc(c.end) + '</span></a>')).join('') || '<p class="muted">Nothing planned</p>') + '</section>').join('');
    root.innerHTML = '<div class="card" id="week-view" data-start="' + esc(d.start) + '">' + pager(d, 'week') + zoneLine(d) +
      '<p id="week-info"><span class="total">' + d.total + ' events</span> this week</p><div id="week">' + cols + '</div></div>';
    bind();
  }

  // -- an event --------------------------------------------------------------------------------
  function metaHtml(d) {
    const e = d.event, at = d.at;
    const rep = e.repeat === 'none' ? 'Does not repeat' : nameOf(REPEATS, e.repeat) + ', ' + d.occurrences.length + ' times';
    const room = !e.room ? '—' : d.unit_display === 'code' ? esc(e.room) : esc(d.room_name);
    return '<dl id="e-meta"><dt>When</dt><dd class="when">' + (at ? '<span class="day">' + esc(at.label) + '</span>, <span class="time">' + esc(at.time) + '</span>–<span class="end">' + esc(at.end) + '</span>' : 'No occurrences left') + '</dd>' +
      '<dt>Time zone</dt><dd class="zone">Shown in ' + esc(d.zone_name) + '; scheduled in <span class="sched">' + esc(d.scheduled_in) + '</span></dd>' +
      '<dt>Calendar</dt><dd class="calendar">' + esc(nameOf(CALS, e.calendar)) + '</dd><dt>Room</dt><dd class="room">' + room + '</dd>' +
      '<dt>Location</dt><dd class="location">' + esc(e.location || '—') + '</dd><dt>Organiser</dt><dd class="organizer">' + esc(e.organizer === 'Me' ? 'You' : e.organizer) + '</dd>' +
      '<dt>Repeats</dt><dd class="repeat">' + esc(rep) + '</dd></dl>' +
      (e.room && d.unit_display === 'code' ? '<p class="muted" id="unit-note">Rooms are given as codes; see the <a href="#/units">Rooms</a> page.</p>' : '');
  }

  async function renderEvent(id, occ) {
    await ensureZones();
    const base = '/events/' + encodeURIComponent(id) + (occ ? '?occ=' + encodeURIComponent(occ) : '');
    const d = await read(base);
    if (!d) return;
    const e = d.event, mine = e.organizer === 'Me';
    const occs = e.repeat === 'none' ? '' : '<div class="card"><h2>Occurrences</h2><ol id="occurrences" data-n="' + d.occurrences.length + '">' + d.occurrences.map((o) =>
      '<li data-occ="' + esc(o.occ) + '"><a href="#/e/' + esc(e.id) + '/' + esc(o.occ) + '"><span class="date">' + esc(o.label) + '</span>, <span class="time">' + esc(o.time) + '</span></a>' +
      (mine ? ' <button type="button" class="secondary skip" data-occ="' + esc(o.occ) + '">Delete this occurrence</button>' : '') + '</li>').join('') + '</ol></div>';
    const inv = d.invitation ? '<div class="card" id="e-invite" data-id="' + esc(d.invitation.id) + '"><h2>Invitation from ' + esc(d.invitation.sender) + '</h2><p>Your answer: <b class="status">' + esc(d.invitation.status) + '</b></p>' +
      '<button type="button" id="e-accept">Accept</button> <button type="button" class="secondary" id="e-decline">Decline</button></div>' : '';
    const edit = !mine ? '' : '<div class="card" id="e-edit"><h2>Edit event</h2><div class="fields">' +
      '<label class="f lbl" for="e-title-in">Title</label><input type="text" id="e-title-in" value="' + esc(e.title) + '">' +
      '<label class="f lbl" for="e-date">Date</label><input type="date" id="e-date" value="' + esc(d.form.date) + '">' +
      '<label class="f lbl" for="e-time">Start time</label><input type="time" id="e-time" value="' + esc(d.form.time) + '">' +
      '<label class="f lbl" for="e-minutes">Duration (minutes)</label><input type="number" id="e-minutes" min="15" max="600" step="5" value="' + esc(e.minutes) + '">' +
      '<label class="f lbl" for="e-zone">Time zone</label><select id="e-zone">' + options(zones, e.zone) + '</select>' +
      '<label class="f lbl" for="e-calendar">Calendar</label><select id="e-calendar">' + options(CALS, e.calendar) + '</select>' +
      '<label class="f lbl" for="e-location">Location</label><input type="text" id="e-location" value="' + esc(e.location) + '"></div>' +
      '<p class="muted">Date and time are in the event\'s time zone' + (e.repeat === 'none' ? '' : ' and move the whole series') + '.</p>' +
      '<div style="margin-top:14px"><button type="button" id="e-save">Save changes</button> <button type="button" class="danger" id="e-delete">' + (e.repeat === 'none' ? 'Delete event' : 'Delete the whole series') + '</button></div></div>';
    root.innerHTML = '<div class="card" id="event" data-id="' + esc(e.id) + '"><div class="key muted">' + esc(e.id) + '</div><h2 id="e-title"></h2><div id="e-view"></div>' +
      '<div class="row" id="tz-row"><label class="f" for="tz-other">Show the start in</label><select id="tz-other">' + options(zones, '') + '</select>' +
      '<button type="button" class="secondary" id="tz-show">Show</button> <span id="tz-other-time"></span></div></div>' + inv + occs + edit;
    root.querySelector('#e-title').textContent = e.title;
    const paint = (data) => { root.querySelector('#e-view').innerHTML = metaHtml(data); };
    paint(d);
    const refresh = async () => { const r = await read(base); if (r) { paint(r); const s = root.querySelector('#e-invite .status'); if (s && r.invitation) s.textContent = r.invitation.status; } return r; };
    root.querySelector('#tz-show').addEventListener('click', async () => {
      const z = root.querySelector('#tz-other').value;
      const r = await read('/events/' + encodeURIComponent(id) + '?zone=' + encodeURIComponent(z) + (d.at ? '&occ=' + encodeURIComponent(d.at.occ) : ''));
      if (r && r.other) root.querySelector('#tz-other-time').innerHTML = '<b class="time">' + esc(r.other.time) + '</b> on <span class="day">' + esc(r.other.label) + '</span> in <span class="zname">' + esc(r.other.zone_name) + '</span>';
    });
    if (d.invitation) {
      root.querySelector('#e-accept').addEventListener('click', () => write('POST', '/invitations/' + d.invitation.id + '/accept', {}, refresh));
      root.querySelector('#e-decline').addEventListener('click', () => write('POST', '/invitations/' + d.invitation.id + '/decline', {}, refresh));
    }
    root.querySelectorAll('#occurrences .skip').forEach((b) => b.addEventListener('click', () =>
      write('POST', '/events/' + encodeURIComponent(id) + '/skip', {occ: b.dataset.occ}, () => renderEvent(id, ''))));
    if (mine) {
      root.querySelector('#e-save').addEventListener('click', () => write('PUT', '/events/' + encodeURIComponent(id), {
        title: root.querySelector('#e-title-in').value, date: root.querySelector('#e-date').value, time: root.querySelector('#e-time').value,
        minutes: Number(root.querySelector('#e-minutes').value), zone: root.querySelector('#e-zone').value,
        calendar: root.querySelector('#e-calendar').value, location: root.querySelector('#e-location').value,
      }, async () => { const r = await read('/events/' + encodeURIComponent(id)); if (r) paint(r); }));
      root.querySelector('#e-delete').addEventListener('click', () => write('DELETE', '/events/' + encodeURIComponent(id), undefined, async () => {
        const ym = d.at ? d.at.date.slice(0, 7) : '';
        const keep = WF_STATUS();
        await renderMonth(ym);
        WF_RESTORE(keep);
      }));
    }
    bind();
  }
  // The toast of a delete stays while the month it leaves re-renders.
  const WF_STATUS = () => document.querySelector('#wf-status').innerHTML;
  const WF_RESTORE = (html) => { document.querySelector('#wf-status').innerHTML = html; };

  // -- invitations -----------------------------------------------------------------------------
  async function renderInvites() {
    const d = await read('/invitations');
    if (!d) return;
    const rows = d.invitations.map((i) => '<tr data-id="' + esc(i.id) + '" data-event="' + esc(i.event) + '" class="' + esc(i.status) + '"><td class="title"><a href="#/e/' + esc(i.event) + '">' + esc(i.title) + '</a></td>' +
      '<td class="from">' + esc(i.sender) + '</td><td class="when">' + esc(i.label) + ', ' + esc(i.time) + '</td><td class="received">' + esc(String(i.received).replace('T', ' ').slice(0, 16)) + '</td><td class="status">' + esc(i.status) + '</td>' +
      '<td class="act"><button type="button" class="accept">Accept</button> <button type="button" class="secondary decline">Decline</button></td></tr>').join('') || '<tr><td colspan="6">No invitations.</td></tr>';
    root.innerHTML = '<div class="card"><h2>Invitations</h2>' + zoneLine(d) + '<p id="invites-info"><span class="pending">' + d.pending + ' pending</span></p>' +
      '<table class="data" id="invites"><thead><tr><th>Event</th><th>From</th><th>When</th><th>Received</th><th>Your answer</th><th></th></tr></thead><tbody>' + rows + '</tbody></table></div>';
    root.querySelectorAll('#invites tbody tr[data-id]').forEach((tr) => {
      tr.querySelector('.accept').addEventListener('click', () => write('POST', '/invitations/' + tr.dataset.id + '/accept', {}, keepToast(renderInvites)));
      tr.querySelector('.decline').addEventListener('click', () => write('POST', '/invitations/' + tr.dataset.id + '/decline', {}, keepToast(renderInvites)));
    });
    bind();
  }
  const keepToast = (render) => async () => { const keep = WF_STATUS(); await render(); WF_RESTORE(keep); };

  // -- a new event -----------------------------------------------------------------------------
  async function renderNew() {
    await ensureZones();
    const d = await read('/recent');
    if (!d) return;
    const p = await read('/profile');
    if (!p) return;
    const people = (p.contacts || []);
    root.innerHTML = '<div class="card" id="new-event"><h2>New event</h2><div class="fields">' +
      '<label class="f lbl" for="n-title">Title</label><input type="text" id="n-title">' +
      '<label class="f lbl" for="n-calendar">Calendar</label><select id="n-calendar">' + options(CALS, 'work') + '</select>' +
      '<label class="f lbl" for="n-date">Date</label><input type="date" id="n-date">' +
      '<label class="f lbl" for="n-time">Start time</label><input type="time" id="n-time">' +
      '<label class="f lbl" for="n-minutes">Duration (minutes)</label><input type="number" id="n-minutes" min="15" max="600" step="5" value="60">' +
      '<label class="f lbl" for="n-zone">Time zone</label><select id="n-zone">' + options(zones, p.profile.zone) + '</select>' +
      '<label class="f lbl" for="n-location">Location</label><input type="text" id="n-location">' +
      '<label class="f lbl" for="n-repeat">Repeats</label><select id="n-repeat">' + options(REPEATS, 'none') + '</select>' +
      '<label class="f lbl" for="n-count">Number of times</label><input type="number" id="n-count" min="1" max="52" value="1"></div>' +
      '<fieldset id="n-people"><legend>Invite</legend>' + people.map((c) => '<label class="check"><input type="checkbox" class="n-person" value="' + esc(c.id) + '"> ' + esc(c.name) + '</label>').join('') + '</fieldset>' +
      '<p class="muted">The date and time are in the time zone chosen above.</p><div style="margin-top:14px"><button type="button" id="n-create">Create event</button></div></div>' +
      '<div class="card"><h2>Events you created</h2><div id="recent-holder"></div></div>';
    const paint = (data) => {
      root.querySelector('#recent-holder').innerHTML = '<table class="data" id="recent"><thead><tr><th>Event</th><th>Title</th><th>First</th><th>Repeats</th></tr></thead><tbody>' +
        data.events.map((e) => '<tr data-id="' + esc(e.id) + '"><td class="id">' + esc(e.id) + '</td><td class="title"><a href="#/e/' + esc(e.id) + '">' + esc(e.title) + '</a></td><td class="when">' + esc(e.label || '') + ' ' + esc(e.time || '') + '</td><td class="repeat">' + esc(e.repeat === 'none' ? '—' : nameOf(REPEATS, e.repeat) + ' ×' + e.count) + '</td></tr>').join('') + '</tbody></table>';
    };
    paint(d);
    root.querySelector('#n-create').addEventListener('click', () => write('POST', '/events', {
      title: root.querySelector('#n-title').value, calendar: root.querySelector('#n-calendar').value,
      date: root.querySelector('#n-date').value, time: root.querySelector('#n-time').value,
      minutes: Number(root.querySelector('#n-minutes').value), zone: root.querySelector('#n-zone').value,
      location: root.querySelector('#n-location').value.trim(), repeat: root.querySelector('#n-repeat').value,
      count: Number(root.querySelector('#n-count').value), attendees: [...root.querySelectorAll('.n-person:checked')].map((b) => b.value),
    }, async () => { const r = await read('/recent'); if (r) paint(r); }));
    bind();
  }

  // -- search, rooms, settings -----------------------------------------------------------------
  async function renderSearch(q) {
    const d = q ? await read('/events?q=' + encodeURIComponent(q)) : {results: [], total: 0, zone_name: ''};
    if (!d) return;
    const rows = d.results.map((r) => '<tr data-id="' + esc(r.id) + '"><td class="title"><a href="#/e/' + esc(r.id) + '/' + esc(r.occ) + '">' + esc(r.title) + '</a></td><td class="when">' + esc(r.label) + ', ' + esc(r.time) + '</td><td class="calendar">' + esc(nameOf(CALS, r.calendar)) + '</td></tr>').join('');
    root.innerHTML = '<div class="card"><h2>Search</h2><form class="filter" id="s-form" role="search"><label class="f" for="s-q">Title</label><input type="search" id="s-q" value="' + esc(q) + '"><button type="submit" id="s-go">Search</button></form>' +
      (q ? '<p id="search-info"><span class="total">' + d.total + ' events</span> matching “' + esc(q) + '”</p><table class="data" id="results"><thead><tr><th>Title</th><th>First occurrence</th><th>Calendar</th></tr></thead><tbody>' + rows + '</tbody></table>' : '') + '</div>';
    root.querySelector('#s-form').addEventListener('submit', (e) => { e.preventDefault(); go('#/search/' + encodeURIComponent(root.querySelector('#s-q').value.trim())); });
    bind();
  }

  async function renderRooms() {
    const d = await read('/rooms');
    if (!d) return;
    root.innerHTML = '<div class="card"><h2>Rooms</h2><table class="data" id="units"><thead><tr><th>Code</th><th>Room</th></tr></thead><tbody>' +
      d.rooms.map((u) => '<tr data-id="' + esc(u.id) + '"><td class="code">' + esc(u.id) + '</td><td class="name">' + esc(u.name) + '</td></tr>').join('') + '</tbody></table></div>';
  }

  async function renderSettings() {
    const d = await read('/profile');
    if (!d) return;
    root.innerHTML = '<div class="card" id="settings"><h2>Settings</h2><p id="p-current">Your time zone: <b class="zone">' + esc(d.zone_name) + '</b></p><div class="fields">' +
      '<label class="f lbl" for="p-zone">Time zone</label><select id="p-zone">' + options(d.zones, d.profile.zone) + '</select></div>' +
      '<div style="margin-top:14px"><button type="button" id="p-save">Save settings</button></div></div>';
    root.querySelector('#p-save').addEventListener('click', () => write('PUT', '/profile', {zone: root.querySelector('#p-zone').value}, async () => {
      const r = await read('/profile');
      if (r) root.querySelector('#p-current .zone').textContent = r.zone_name;
    }));
  }

  function bind() {
    // Links and buttons render their view again when it is the one shown (a retry after an error).
    root.querySelectorAll('a[href^="#/"]').forEach((a) => a.addEventListener('click', (e) => { e.preventDefault(); go(a.getAttribute('href')); }));
    root.querySelectorAll('button[data-go]').forEach((b) => b.addEventListener('click', () => go(b.dataset.go)));
  }

  function route() {
    const raw = location.hash.replace(/^#\/?/, '');
    const parts = raw.split('/').map(decodeURIComponent);
    const view = parts[0] || 'month';
    document.querySelectorAll('nav.tabs a').forEach((a) => a.classList.toggle('active', a.dataset.view === (view === 'e' ? 'month' : view)));
    if (view === 'e') return renderEvent(parts[1] || '', parts[2] || '');
    if (view === 'week') return renderWeek(parts[1] || '');
    if (view === 'invites') return renderInvites();
    if (view === 'new') return renderNew();
    if (view === 'search') return renderSearch(parts.slice(1).join('/'));
    if (view === 'units') return renderRooms();
    if (view === 'settings') return renderSettings();
    return renderMonth(parts[1] || '');
  }
  function go(hash) { if (location.hash === hash) { WF.clear(); route(); } else { location.hash = hash; } }
  WF.afterLogin(() => route());
  document.querySelectorAll('nav.tabs a').forEach((a) => a.addEventListener('click', (e) => { e.preventDefault(); go(a.getAttribute('href')); }));
  window.addEventListener('hashchange', () => { WF.clear(); route(); });
  const deep = new URLSearchParams(location.search).get('view');
  if (deep && !location.hash) history.replaceState(null, '', location.pathname + location.search + '#/' + deep);
  route();
})();
