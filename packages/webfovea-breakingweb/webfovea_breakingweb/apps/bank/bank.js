// The bank's page: accounts, statements with date/text/category filters and sort, payees,
// transfers with a review-then-confirm step, standing orders (new, edit, cancel), driven by
// the location hash. BANK (categories, sorts) is set by the page. No randomness, no clock.
(function () {
  const root = document.querySelector('#app');
  const esc = WF.esc;
  const eur = (c) => (c < 0 ? '−' : '') + '€' + (Math.abs(c) / 100).toFixed(2);
  const cents = (v) => Math.round(parseFloat(String(v).replace(',', '.')) * 100);
  const opts = (list, chosen, none) => (none ? '<option value="">' + esc(none) + '</option>' : '') +
    list.map(([v, l]) => '<option value="' + esc(v) + '"' + (v === chosen ? ' selected' : '') + '>' + esc(l) + '</option>').join('');
  const query = () => Object.fromEntries(new URLSearchParams(location.hash.split('?')[1] || ''));

  async function renderAccounts() {
    const d = await WF.call('GET', '/accounts');
    if (!d) return;
    const [t, p] = [await WF.api('GET', '/transfers'), await WF.api('GET', '/payees')];
    root.innerHTML = '<h2>Your accounts</h2><table class="data" id="accounts"><thead><tr><th>Account</th><th>IBAN</th><th>Balance</th></tr></thead><tbody>' +
      d.accounts.map((a) => '<tr data-id="' + esc(a.id) + '"><td class="name">' + esc(a.name) + '</td><td class="iban">' + esc(a.iban) + '</td><td class="balance">' + eur(a.balance) + '</td></tr>').join('') + '</tbody></table>' +
      (t.ok && p.ok && t.transfers.length ? transfersTable(t.transfers, p.payees) : '');
  }

  async function renderStatement() {
    const q = query();
    const acc = await WF.call('GET', '/accounts');
    if (!acc) return;
    root.innerHTML = '<h2>Statement</h2><div class="fields">' +
      '<label class="lbl" for="st-account">Account</label><select id="st-account">' + opts(acc.accounts.map((a) => [a.id, a.name]), q.account || 'ACC-1') + '</select>' +
      '<label class="lbl" for="st-from">From date</label><input id="st-from" type="date" value="' + esc(q.from || '') + '">' +
      '<label class="lbl" for="st-to">To date</label><input id="st-to" type="date" value="' + esc(q.to || '') + '">' +
      '<label class="lbl" for="st-q">Search</label><input id="st-q" type="search" value="' + esc(q.q || '') + '">' +
      '<label class="lbl" for="st-category">Category</label><select id="st-category">' + opts(BANK.categories.map((c) => [c, c]), q.category || '', 'All categories') + '</select>' +
      '<label class="lbl" for="st-sort">Sort by</label><select id="st-sort">' + opts(BANK.sorts, q.sort || 'date-desc') + '</select>' +
      '</div><p><button id="st-show" type="button">Show transactions</button></p><div id="st-result"></div>';
    root.querySelector('#st-show').addEventListener('click', () => {
      const p = {account: root.querySelector('#st-account').value, from: root.querySelector('#st-from').value, to: root.querySelector('#st-to').value,
        q: root.querySelector('#st-q').value.trim(), category: root.querySelector('#st-category').value, sort: root.querySelector('#st-sort').value};
      go('#/statement?' + new URLSearchParams(Object.fromEntries(Object.entries(p).filter(([, v]) => v))).toString());
    });
    if (!location.hash.includes('?')) return;  // the statement is fetched once asked for
    const d = await WF.call('GET', '/transactions?' + new URLSearchParams(q).toString());
    if (!d) return;
    const span = (q.from || 'the start') + ' to ' + (q.to || 'today');
    root.querySelector('#st-result').innerHTML = '<p id="st-summary" role="status"><span class="count">' + d.count + '</span> transactions from ' + esc(span) +
      ' · money in <span class="in">' + eur(d.money_in) + '</span> · money out <span class="out">' + eur(d.money_out) + '</span></p>' +
      (d.truncated ? '<p class="muted">Showing the first 120; narrow the dates to see the rest.</p>' : '') +
      '<table class="data" id="statement"><thead><tr><th>Date</th><th>Counterparty</th><th>Description</th><th>Category</th><th>Amount</th></tr></thead><tbody>' +
      d.rows.map((t) => '<tr data-id="' + esc(t.id) + '"><td class="date">' + esc(t.date) + '</td><td class="counterparty">' + esc(t.counterparty) + '</td><td class="description">' + esc(t.description) +
        '</td><td class="category">' + esc(t.category) + '</td><td class="amount">' + eur(t.amount) + '</td></tr>').join('') + '</tbody></table>';
  }

  async function renderPayees() {
    const d = await WF.call('GET', '/payees');
    if (!d) return;
    root.innerHTML = '<h2>Payees</h2><table class="data" id="payees"><thead><tr><th>Name</th><th>IBAN</th><th></th></tr></thead><tbody>' +
      d.payees.map((p) => '<tr data-id="' + esc(p.id) + '"><td class="name">' + esc(p.name) + '</td><td class="iban">' + esc(p.iban) + '</td><td><button type="button" class="delete secondary" aria-label="Delete payee ' + esc(p.name) + '">Delete</button></td></tr>').join('') +
      '</tbody></table><h3>Add a payee</h3><div class="fields"><label class="lbl" for="py-name">Name</label><input id="py-name" type="text">' +
      '<label class="lbl" for="py-iban">IBAN</label><input id="py-iban" type="text"></div><p><button id="py-add" type="button">Add payee</button></p>';
    root.querySelector('#py-add').addEventListener('click', async () => {
      const r = await WF.call('POST', '/payees', {name: root.querySelector('#py-name').value, iban: root.querySelector('#py-iban').value});
      if (r) { await renderPayees(); WF.toast(r.message, r.id); }
    });
    root.querySelectorAll('#payees .delete').forEach((b) => b.addEventListener('click', async () => {
      const r = await WF.call('DELETE', '/payees/' + b.closest('tr').dataset.id);
      if (r) { await renderPayees(); WF.toast(r.message); }
    }));
  }

  async function renderTransfer() {
    const [a, p] = [await WF.call('GET', '/accounts'), await WF.call('GET', '/payees')];
    if (!a || !p) return;
    root.innerHTML = '<h2>New transfer</h2><div id="tr-form"><div class="fields">' +
      '<label class="lbl" for="tr-from">From account</label><select id="tr-from">' + opts(a.accounts.map((x) => [x.id, x.name]), '', 'Choose…') + '</select>' +
      '<label class="lbl" for="tr-payee">Payee</label><select id="tr-payee">' + opts(p.payees.map((x) => [x.id, x.name]), '', 'Choose…') + '</select>' +
      '<label class="lbl" for="tr-amount">Amount (€)</label><input id="tr-amount" type="text" inputmode="decimal">' +
      '<label class="lbl" for="tr-reference">Reference</label><input id="tr-reference" type="text"></div>' +
      '<p><button id="tr-review" type="button">Review transfer</button></p></div><div id="tr-confirmation"></div><div id="recent"></div>';
    root.querySelector('#tr-review').addEventListener('click', async () => {
      const body = {account: root.querySelector('#tr-from').value, payee: root.querySelector('#tr-payee').value,
        amount: cents(root.querySelector('#tr-amount').value), reference: root.querySelector('#tr-reference').value};
      const r = await WF.call('POST', '/transfers/review', body);
      if (!r) return;
      WF.clear();
      const v = r.review;
      root.querySelector('#tr-form').hidden = true;
      const box = root.querySelector('#tr-confirmation');
      box.innerHTML = '<section aria-label="Confirm the transfer"><h3>Please confirm</h3><dl>' +
        '<dt>From</dt><dd id="cf-from">' + esc(v.account_name) + '</dd><dt>To</dt><dd id="cf-payee">' + esc(v.payee_name) + ' (' + esc(v.iban) + ')</dd>' +
        '<dt>Amount</dt><dd id="cf-amount">' + eur(v.amount) + '</dd><dt>Reference</dt><dd id="cf-reference">' + esc(v.reference) + '</dd></dl>' +
        '<p><button id="tr-confirm" type="button">Confirm transfer</button> <button id="tr-back" type="button" class="secondary">Change details</button></p></section>';
      box.querySelector('#tr-back').addEventListener('click', () => { box.innerHTML = ''; root.querySelector('#tr-form').hidden = false; });
      box.querySelector('#tr-confirm').addEventListener('click', async () => {
        const done = await WF.call('POST', '/transfers', body);
        if (!done) return;
        WF.toast(done.message, done.id);
        const t = await WF.api('GET', '/transfers');  // re-read: the transfers as the bank has them
        if (t.ok) root.querySelector('#recent').innerHTML = transfersTable(t.transfers, p.payees);
      });
    });
  }

  function transfersTable(list, payees) {
    const name = (id) => (payees.find((x) => x.id === id) || {name: id}).name;
    return '<h3>Your transfers</h3><table class="data" id="transfers"><thead><tr><th>Transfer</th><th>Date</th><th>Payee</th><th>Amount</th><th>Reference</th><th>Status</th></tr></thead><tbody>' +
      list.map((t) => '<tr data-id="' + esc(t.id) + '"><td>' + esc(t.id) + '</td><td>' + esc(t.date) + '</td><td>' + esc(name(t.payee)) + '</td><td class="amount">' + eur(t.amount) + '</td><td>' + esc(t.reference) + '</td><td class="status">' + esc(t.status) + '</td></tr>').join('') + '</tbody></table>';
  }

  let editing = null;
  async function renderStanding() {
    const [s, p] = [await WF.call('GET', '/standing'), await WF.call('GET', '/payees')];
    if (!s || !p) return;
    editing = null;
    root.innerHTML = '<h2>Standing orders</h2><div id="so-list"></div><h3 id="so-title">New standing order</h3><div class="fields">' +
      '<label class="lbl" for="so-payee">Payee</label><select id="so-payee">' + opts(p.payees.map((x) => [x.id, x.name]), '', 'Choose…') + '</select>' +
      '<label class="lbl" for="so-amount">Amount (€)</label><input id="so-amount" type="text" inputmode="decimal">' +
      '<label class="lbl" for="so-frequency">Frequency</label><select id="so-frequency">' + opts([['monthly', 'Monthly'], ['weekly', 'Weekly']], '', 'Choose…') + '</select>' +
      '<label class="lbl" for="so-start">First payment</label><input id="so-start" type="date">' +
      '<label class="lbl" for="so-reference">Reference</label><input id="so-reference" type="text"></div>' +
      '<p><button id="so-save" type="button">Save standing order</button></p>';
    const list = async () => {
      const again = await WF.api('GET', '/standing');
      const rows = again.ok ? again.standing : s.standing;
      root.querySelector('#so-list').innerHTML = '<table class="data" id="standing"><thead><tr><th>Order</th><th>Payee</th><th>Amount</th><th>Frequency</th><th>From</th><th>Reference</th><th>Status</th><th></th></tr></thead><tbody>' +
        rows.map((o) => '<tr data-id="' + esc(o.id) + '"><td class="id">' + esc(o.id) + '</td><td class="payee">' + esc((p.payees.find((x) => x.id === o.payee) || {name: o.payee}).name) + '</td><td class="amount">' + eur(o.amount) +
          '</td><td class="frequency">' + esc(o.frequency) + '</td><td class="start">' + esc(o.start) + '</td><td class="reference">' + esc(o.reference) + '</td><td class="status">' + esc(o.status) + '</td><td>' +
          (o.status === 'active' ? '<button type="button" class="edit secondary">Edit</button> <button type="button" class="cancel secondary">Cancel order</button>' : '') + '</td></tr>').join('') + '</tbody></table>';
      root.querySelectorAll('#standing tr[data-id]').forEach((tr) => {
        const o = rows.find((x) => x.id === tr.dataset.id);
        const e = tr.querySelector('.edit');
        if (e) e.addEventListener('click', () => {
          editing = o.id;
          root.querySelector('#so-title').textContent = 'Edit standing order ' + o.id;
          root.querySelector('#so-payee').value = o.payee; root.querySelector('#so-amount').value = (o.amount / 100).toFixed(2);
          root.querySelector('#so-frequency').value = o.frequency; root.querySelector('#so-start').value = o.start; root.querySelector('#so-reference').value = o.reference;
        });
        const c = tr.querySelector('.cancel');
        if (c) c.addEventListener('click', async () => { const r = await WF.call('POST', '/standing/' + o.id + '/cancel'); if (r) { await list(); WF.toast(r.message); } });
      });
    };
    await list();
    root.querySelector('#so-save').addEventListener('click', async () => {
      const body = {account: 'ACC-1', payee: root.querySelector('#so-payee').value, amount: cents(root.querySelector('#so-amount').value),
        frequency: root.querySelector('#so-frequency').value, start: root.querySelector('#so-start').value, reference: root.querySelector('#so-reference').value};
      const r = editing ? await WF.call('PUT', '/standing/' + editing, body) : await WF.call('POST', '/standing', body);
      if (!r) return;
      await list();  // the form keeps what was typed; the list is re-read from the bank
      WF.toast(r.message, r.id);
    });
  }

  function route() {
    const view = location.hash.replace(/^#\/?/, '').split('?')[0] || 'accounts';
    document.querySelectorAll('#bank-nav a').forEach((a) => a.setAttribute('aria-current', a.dataset.view === view ? 'page' : 'false'));
    if (view === 'statement') return renderStatement();
    if (view === 'payees') return renderPayees();
    if (view === 'transfer') return renderTransfer();
    if (view === 'standing') return renderStanding();
    return renderAccounts();
  }
  function go(hash) { if (location.hash === hash) { WF.clear(); route(); } else { location.hash = hash; } }
  document.querySelectorAll('#bank-nav a').forEach((a) => a.addEventListener('click', (e) => { e.preventDefault(); go(a.getAttribute('href')); }));
  window.addEventListener('hashchange', () => { WF.clear(); route(); });
  WF.afterLogin(route);
  route();
})();
