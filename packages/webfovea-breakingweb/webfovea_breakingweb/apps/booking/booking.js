// The tour booking's page, a reservation in steps: find a tour (tour, date, people) →
// availability (the departures of that day with their free seats) → guest details → review →
// confirm; and your reservations (cancel). Driven by the hash: #/search, #/availability?tour=
// &date=&people=, #/details/<departure>?people=, #/reservations. No randomness, no clock.
(function () {
  const root = document.querySelector('#app');
  const esc = WF.esc;
  const eur = (c) => '€' + (c / 100).toFixed(2);
  const query = () => Object.fromEntries(new URLSearchParams(location.hash.split('?')[1] || ''));
  const steps = (on) => '<ol class="steps" id="steps">' + ['Tour and date', 'Departure', 'Guest details', 'Review'].map((s, i) =>
    '<li class="' + (i === on ? 'on' : '') + '">' + (i + 1) + '. ' + esc(s) + '</li>').join('') + '</ol>';

  function reservationsTable(rows) {
    return '<table class="data" id="reservations"><thead><tr><th>Reservation</th><th>Tour</th><th>Date</th><th>Time</th><th>People</th><th>Contact</th><th>Total</th><th>Status</th><th></th></tr></thead><tbody>' +
      rows.map((r) => '<tr data-id="' + esc(r.id) + '"><td class="id">' + esc(r.id) + '</td><td class="tour">' + esc((TRIP.tours.find(([t]) => t === r.tour) || ['', r.tour])[1]) + '</td>' +
        '<td class="date">' + esc(r.date) + '</td><td class="time">' + esc(r.time) + '</td><td class="people">' + esc(r.people) + '</td><td class="contact">' + esc(r.contact) + '</td>' +
        '<td class="total">' + eur(r.total) + '</td><td class="status">' + esc(r.status) + '</td><td>' +
        (r.status === 'confirmed' ? '<button type="button" class="cancel">Cancel</button>' : '') + '</td></tr>').join('') + '</tbody></table>';
  }

  function renderSearch() {
    const q = query();
    root.innerHTML = '<h2>Find a tour</h2>' + steps(0) + '<div class="fields">' +
      '<label for="b-tour">Tour</label><select id="b-tour"><option value="">Choose a tour…</option>' +
      TRIP.tours.map(([t, n]) => '<option value="' + esc(t) + '"' + (q.tour === t ? ' selected' : '') + '>' + esc(n) + '</option>').join('') + '</select>' +
      '<label for="b-date">Date</label><input id="b-date" type="date" value="' + esc(q.date || '') + '">' +
      '<label for="b-people">People</label><input id="b-people" type="number" min="1" max="12" value="' + esc(q.people || '1') + '">' +
      '</div><p><button id="b-check" type="button">Check availability</button></p>';
    root.querySelector('#b-check').addEventListener('click', () => {
      const p = {tour: root.querySelector('#b-tour').value, date: root.querySelector('#b-date').value, people: root.querySelector('#b-people').value};
      if (!p.tour || !p.date) { WF.error({status: 422, error: 'Choose a tour and a date.'}); return; }
      go('#/availability?' + new URLSearchParams(p).toString());
    });
  }

  async function renderAvailability() {
    const q = query();
    const d = await WF.call('GET', '/availability?' + new URLSearchParams(q).toString());
    if (!d) return;
    root.innerHTML = '<h2>Departures</h2>' + steps(1) + '<p id="avail-info">' + esc(d.tour.name) + ' on ' + esc(d.date) + ' for ' + esc(d.people) + ' people</p>' +
      '<table class="data" id="avail"><thead><tr><th>Time</th><th>Seats free</th><th>Total</th><th></th></tr></thead><tbody>' +
      (d.departures.map((x) => '<tr data-id="' + esc(x.id) + '"><td class="time">' + esc(x.time) + '</td><td class="free">' + esc(x.free) + '</td><td class="total">' + eur(x.total) + '</td>' +
        '<td><button type="button" class="pick"' + (x.ok ? '' : ' disabled') + '>' + (x.ok ? 'Select' : 'Not enough seats') + '</button></td></tr>').join('') ||
        '<tr><td colspan="4">No departures on this day.</td></tr>') + '</tbody></table><p><a href="#/search?' + esc(new URLSearchParams(q).toString()) + '" id="b-back">Change the search</a></p>';
    root.querySelectorAll('#avail .pick').forEach((b) => b.addEventListener('click', () => go('#/details/' + b.closest('tr').dataset.id + '?people=' + d.people)));
  }

  function renderDetails(dep) {
    const people = Number(query().people || 1);
    root.innerHTML = '<h2>Guest details</h2>' + steps(2) + '<p id="chosen">Departure ' + esc(dep) + ' for ' + esc(people) + ' people</p><div class="fields">' +
      '<label for="g-contact">Contact name</label><input id="g-contact" type="text">' +
      '<label for="g-email">Email</label><input id="g-email" type="text">' +
      '</div><p><button id="g-review" type="button">Continue to review</button></p><div id="review"></div><div id="recent"></div>';
    root.querySelector('#g-review').addEventListener('click', async () => {
      const body = {departure: dep, people, contact: root.querySelector('#g-contact').value, email: root.querySelector('#g-email').value};
      const r = await WF.call('POST', '/reservations/review', body);
      if (!r) return;
      const v = r.review;
      root.querySelector('#steps').outerHTML = steps(3);
      root.querySelector('#review').innerHTML = '<h3>Review your reservation</h3><dl id="rv"><dt>Tour</dt><dd class="tour">' + esc(v.tour_name) + '</dd><dt>When</dt><dd class="when">' + esc(v.date) + ' ' + esc(v.time) +
        '</dd><dt>People</dt><dd class="people">' + esc(v.people) + '</dd><dt>Contact</dt><dd class="contact">' + esc(v.contact) + ' · ' + esc(v.email) + '</dd><dt>Total</dt><dd class="total">' + eur(v.total) + '</dd></dl>' +
        '<p><button id="g-confirm" type="button">Confirm reservation</button></p>';
      root.querySelector('#g-confirm').addEventListener('click', async () => {
        const c = await WF.call('POST', '/reservations', body);
        if (!c) return;
        // Re-read: your reservations as the server has them.
        const all = await WF.api('GET', '/reservations');
        if (all.ok) root.querySelector('#recent').innerHTML = '<h3>Your reservations</h3>' + reservationsTable(all.reservations);
        root.querySelector('#review').innerHTML = '';
        WF.toast(c.message, c.id);
      });
    });
  }

  async function renderReservations() {
    const d = await WF.call('GET', '/reservations');
    if (!d) return;
    root.innerHTML = '<h2>Your reservations</h2>' + reservationsTable(d.reservations);
    root.querySelectorAll('#reservations .cancel').forEach((b) => b.addEventListener('click', async () => {
      const r = await WF.call('POST', '/reservations/' + b.closest('tr').dataset.id + '/cancel');
      if (r) { await renderReservations(); WF.toast(r.message); }
    }));
  }

  function route() {
    const [path] = location.hash.replace(/^#\/?/, '').split('?');
    const parts = path.split('/');
    document.querySelectorAll('#trip-nav a').forEach((a) => a.setAttribute('aria-current', a.dataset.view === (parts[0] || 'search') ? 'page' : 'false'));
    if (parts[0] === 'availability') return renderAvailability();
    if (parts[0] === 'details') return renderDetails(decodeURIComponent(parts[1] || ''));
    if (parts[0] === 'reservations') return renderReservations();
    return renderSearch();
  }
  // Going to the view already shown renders it again (a retry after an error must reach the server).
  function go(hash) { if (location.hash === hash) { WF.clear(); route(); } else { location.hash = hash; } }
  document.querySelectorAll('#trip-nav a').forEach((a) => a.addEventListener('click', (e) => { e.preventDefault(); go(a.getAttribute('href')); }));
  root.addEventListener('click', (e) => {
    const a = e.target.closest('a[href^="#/"]');
    if (!a || e.defaultPrevented) return;
    e.preventDefault();
    go(a.getAttribute('href'));
  });
  window.addEventListener('hashchange', () => { WF.clear(); route(); });
  WF.afterLogin(route);
  const deep = new URLSearchParams(location.search).get('view');
  if (deep && !location.hash) history.replaceState(null, '', location.pathname + location.search + '#/' + deep);
  route();
})();
