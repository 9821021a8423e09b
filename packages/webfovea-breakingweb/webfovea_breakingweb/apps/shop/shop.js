// The shop's page: search with facets and sort → product → cart → checkout → orders → returns,
// driven by the location hash. SHOP (categories, brands, sorts) is set by the page; everything
// else comes from the API. No randomness and no clock: same responses, same DOM.
(function () {
  const root = document.querySelector('#app');
  const esc = WF.esc;
  const eur = (c) => '€' + (c / 100).toFixed(2);
  const opts = (list, chosen, all) => (all ? '<option value="">' + esc(all) + '</option>' : '') +
    list.map(([v, l]) => '<option value="' + esc(v) + '"' + (v === chosen ? ' selected' : '') + '>' + esc(l) + '</option>').join('');

  async function cartCount() {
    const d = await WF.api('GET', '/cart');
    if (d.ok) document.querySelector('#cart-count').textContent = String(d.lines.reduce((n, l) => n + l.qty, 0));
  }

  function query() {
    const h = location.hash.split('?')[1] || '';
    return Object.fromEntries(new URLSearchParams(h));
  }

  async function renderSearch() {
    const q = query();
    // The search runs once one was submitted (the hash holds a query): opening the shop fetches nothing.
    const d = location.hash.includes('?') ? await WF.call('GET', '/products?' + new URLSearchParams(q).toString()) : null;
    root.innerHTML = '<section aria-label="Search"><h2>Search products</h2><div class="fields">' +
      '<label class="lbl" for="q">Search</label><input id="q" type="search" value="' + esc(q.q || '') + '">' +
      '<label class="lbl" for="f-category">Category</label><select id="f-category">' + opts(SHOP.categories.map((c) => [c, c]), q.category || '', 'All categories') + '</select>' +
      '<label class="lbl" for="f-brand">Brand</label><select id="f-brand">' + opts(SHOP.brands.map((b) => [b, b]), q.brand || '', 'All brands') + '</select>' +
      '<label class="lbl" for="sort">Sort by</label><select id="sort">' + opts(SHOP.sorts, q.sort || 'relevance') + '</select>' +
      '<label class="lbl" for="f-stock">In stock only</label><input id="f-stock" type="checkbox"' + (q.stock === '1' ? ' checked' : '') + '>' +
      '</div><p><button id="search-go" type="button">Search</button></p></section><section id="hits" aria-label="Results"></section>';
    root.querySelector('#q').addEventListener('keydown', (e) => { if (e.key === 'Enter') submitSearch(); });
    root.querySelector('#search-go').addEventListener('click', () => submitSearch());
    if (!d) return;
    const label = (SHOP.sorts.find(([v]) => v === (q.sort || 'relevance')) || ['', ''])[1];
    const info = d.total + ' products' + (q.q ? ' for “' + q.q + '”' : '') + (q.category ? ' · Category: ' + q.category : '') +
      (q.brand ? ' · Brand: ' + q.brand : '') + (q.stock === '1' ? ' · in stock' : '') + ' · sorted by ' + label;
    const rows = d.products.map((p) => '<tr data-id="' + esc(p.id) + '"><td class="name"><a class="name" href="#/product/' + esc(p.id) + '">' + esc(p.name) + '</a></td>' +
      '<td class="brand">' + esc(p.brand) + '</td><td class="category">' + esc(p.category) + '</td><td class="price">' + eur(p.price) + '</td>' +
      '<td class="rating">' + esc(p.rating.toFixed(1)) + '</td><td class="stock">' + (p.stock > 0 ? esc(p.stock) : 'Out of stock') + '</td></tr>').join('') ||
      '<tr><td colspan="6">No products match.</td></tr>';
    root.querySelector('#hits').innerHTML = '<p id="result-info" role="status">' + esc(info) + '</p>' +
      '<table class="data" id="results"><thead><tr><th>Product</th><th>Brand</th><th>Category</th><th>Price</th><th>Rating</th><th>Stock</th></tr></thead><tbody>' + rows + '</tbody></table>' +
      '<p class="pager"><button type="button" id="prev"' + (d.page > 1 ? '' : ' disabled') + '>Previous page</button> <span id="page-info">Page ' + d.page + ' of ' + d.pages + '</span> ' +
      '<button type="button" id="next"' + (d.page < d.pages ? '' : ' disabled') + '>Next page</button></p>';
    root.querySelector('#prev').addEventListener('click', () => go(searchHash({...q, page: String(d.page - 1)})));
    root.querySelector('#next').addEventListener('click', () => go(searchHash({...q, page: String(d.page + 1)})));
  }

  function searchHash(q) {
    const clean = Object.fromEntries(Object.entries(q).filter(([, v]) => v));
    return '#/search?' + new URLSearchParams(clean).toString();
  }

  function submitSearch() {
    go(searchHash({q: root.querySelector('#q').value.trim(), category: root.querySelector('#f-category').value,
      brand: root.querySelector('#f-brand').value, sort: root.querySelector('#sort').value,
      stock: root.querySelector('#f-stock').checked ? '1' : ''}));
  }

  async function renderProduct(id) {
    const d = await WF.call('GET', '/products/' + encodeURIComponent(id));
    if (!d) return;
    const p = d.product;
    root.innerHTML = '<article id="product" data-id="' + esc(p.id) + '"><h2 id="p-name">' + esc(p.name) + '</h2>' +
      '<p><span id="p-price" class="price">' + eur(p.price) + '</span> · <span id="p-brand">' + esc(p.brand) + '</span> · <span id="p-category">' + esc(p.category) + '</span></p>' +
      '<p id="p-rating">Rating ' + esc(p.rating.toFixed(1)) + ' (' + esc(p.reviews) + ' reviews)</p><p id="p-stock">' + (p.stock > 0 ? 'In stock: ' + esc(p.stock) : 'Out of stock') + '</p>' +
      '<p id="p-description">' + esc(p.description) + ' Colour: ' + esc(p.colour) + '.</p>' +
      '<div class="fields"><label class="lbl" for="qty">Quantity</label><input id="qty" type="number" min="1" value="1"></div>' +
      '<p><button id="add-to-cart" type="button"' + (p.stock > 0 ? '' : ' disabled') + '>Add to cart</button></p>' +
      '<p id="in-cart">In your cart: ' + esc(d.in_cart) + '</p></article>';
    root.querySelector('#add-to-cart').addEventListener('click', async () => {
      const r = await WF.call('POST', '/cart', {product: p.id, qty: Number(root.querySelector('#qty').value)});
      if (!r) return;
      WF.toast(r.message);
      const again = await WF.api('GET', '/products/' + encodeURIComponent(p.id));  // re-read what the cart holds
      if (again.ok) root.querySelector('#in-cart').textContent = 'In your cart: ' + again.in_cart;
      await cartCount();
    });
  }

  async function renderCart() {
    const d = await WF.call('GET', '/cart');
    if (!d) return;
    const rows = d.lines.map((l) => '<tr data-id="' + esc(l.id) + '" data-product="' + esc(l.product) + '"><td class="name">' + esc(l.name) + '</td><td class="price">' + eur(l.price) + '</td>' +
      '<td><label class="sr" for="qty-' + esc(l.id) + '">Quantity of ' + esc(l.name) + '</label><input class="qty" id="qty-' + esc(l.id) + '" type="number" min="1" value="' + esc(l.qty) + '"></td>' +
      '<td class="actions"><button type="button" class="update">Update</button> <button type="button" class="remove secondary">Remove</button></td></tr>').join('') ||
      '<tr><td colspan="4">Your cart is empty.</td></tr>';
    root.innerHTML = '<h2>Your cart</h2><table class="data" id="cart"><thead><tr><th>Product</th><th>Price</th><th>Quantity</th><th>Actions</th></tr></thead><tbody>' + rows + '</tbody></table>' +
      '<p id="subtotal">Subtotal: ' + eur(d.subtotal) + '</p>' + (d.lines.length ? '<p><button id="to-checkout" type="button">Go to checkout</button></p>' : '');
    root.querySelectorAll('#cart tr[data-id]').forEach((tr) => {
      tr.querySelector('.update').addEventListener('click', async () => {
        const r = await WF.call('PUT', '/cart/' + tr.dataset.id, {qty: Number(tr.querySelector('.qty').value)});
        if (r) { await renderCart(); WF.toast(r.message); await cartCount(); }
      });
      tr.querySelector('.remove').addEventListener('click', async () => {
        const r = await WF.call('DELETE', '/cart/' + tr.dataset.id);
        if (r) { await renderCart(); WF.toast(r.message); await cartCount(); }
      });
    });
    const go2 = root.querySelector('#to-checkout');
    if (go2) go2.addEventListener('click', () => go('#/checkout'));
  }

  function ordersTable(orders) {
    return '<table class="data" id="orders"><thead><tr><th>Order</th><th>Placed</th><th>Items</th><th>Total</th><th>Status</th><th></th></tr></thead><tbody>' +
      orders.map((o) => '<tr data-id="' + esc(o.id) + '"><td class="id">' + esc(o.id) + '</td><td class="placed">' + esc(o.placed) + '</td>' +
        '<td class="items">' + o.lines.map((l) => esc(l.qty) + ' × ' + esc(l.name)).join('<br>') + '</td><td class="total">' + eur(o.total) + '</td>' +
        '<td class="status">' + esc(o.status) + '</td><td><a class="view" href="#/order/' + esc(o.id) + '">View order ' + esc(o.id) + '</a></td></tr>').join('') + '</tbody></table>';
  }

  async function renderCheckout() {
    const d = await WF.call('GET', '/cart');
    if (!d) return;
    if (!d.lines.length) { root.innerHTML = '<h2>Checkout</h2><p id="empty">Your cart is empty.</p><div id="recent"></div>'; return; }
    const addr = [...d.addresses.map((a) => [a.id, a.label + ' — ' + a.street + ', ' + a.city]), ['new', 'A new address']];
    const radios = d.delivery.map(([v, l, fee]) => '<div><input type="radio" name="delivery" id="delivery-' + esc(v) + '" value="' + esc(v) + '">' +
      ' <label for="delivery-' + esc(v) + '">' + esc(l) + ' — ' + (fee ? eur(fee) : 'free') + '</label></div>').join('');
    root.innerHTML = '<h2>Checkout</h2><div id="checkout-form"><table class="data" id="checkout-lines"><thead><tr><th>Product</th><th>Quantity</th><th>Price</th></tr></thead><tbody>' +
      d.lines.map((l) => '<tr data-product="' + esc(l.product) + '"><td>' + esc(l.name) + '</td><td>' + esc(l.qty) + '</td><td>' + eur(l.qty * l.price) + '</td></tr>').join('') + '</tbody></table>' +
      '<h3>Delivery address</h3><div class="fields"><label class="lbl" for="address">Saved address</label><select id="address">' + opts(addr, '', 'Choose…') + '</select>' +
      '<label class="lbl" for="name">Full name</label><input id="name" type="text"><label class="lbl" for="street">Street</label><input id="street" type="text">' +
      '<label class="lbl" for="city">City</label><input id="city" type="text"><label class="lbl" for="postcode">Postcode</label><input id="postcode" type="text"></div>' +
      '<fieldset id="delivery"><legend>Delivery option</legend>' + radios + '</fieldset>' +
      '<p id="order-total">Items: ' + eur(d.subtotal) + '</p><p><button id="place-order" type="button">Place order</button></p></div><div id="recent"></div>';
    root.querySelector('#address').addEventListener('change', (e) => {
      const a = d.addresses.find((x) => x.id === e.target.value);
      for (const k of ['name', 'street', 'city', 'postcode']) root.querySelector('#' + k).value = a ? a[k] : '';
    });
    root.querySelector('#place-order').addEventListener('click', async () => {
      const chosen = root.querySelector('input[name=delivery]:checked');
      const body = {delivery: chosen ? chosen.value : ''};
      for (const k of ['name', 'street', 'city', 'postcode']) body[k] = root.querySelector('#' + k).value;
      const r = await WF.call('POST', '/checkout', body);
      if (!r) return;
      WF.toast(r.message, r.id);
      // Re-read: the form stays while the cart still holds items; the orders as the server has them.
      const [c, o] = [await WF.api('GET', '/cart'), await WF.api('GET', '/orders')];
      if (c.ok && !c.lines.length) root.querySelector('#checkout-form').innerHTML = '<p id="empty">Your cart is empty.</p>';
      if (o.ok) root.querySelector('#recent').innerHTML = '<h3>Your orders</h3>' + ordersTable(o.orders);
      await cartCount();
    });
  }

  async function renderOrders() {
    const d = await WF.call('GET', '/orders');
    if (!d) return;
    root.innerHTML = '<h2>Your orders</h2>' + ordersTable(d.orders);
  }

  async function renderOrder(id) {
    const d = await WF.call('GET', '/orders/' + encodeURIComponent(id));
    if (!d) return;
    const o = d.order;
    const returnable = o.status === 'delivered';
    const rows = o.lines.map((l) => '<tr data-product="' + esc(l.product) + '"><td class="name">' + esc(l.name) + '</td><td class="qty">' + esc(l.qty) + '</td><td class="price">' + eur(l.price) + '</td>' +
      (returnable ? '<td class="actions"><label class="sr" for="rq-' + esc(l.product) + '">Quantity to return</label><select class="ret-qty" id="rq-' + esc(l.product) + '">' +
        Array.from({length: l.qty}, (_, i) => '<option>' + (i + 1) + '</option>').join('') + '</select> <label class="sr" for="rr-' + esc(l.product) + '">Reason</label><select class="ret-reason" id="rr-' + esc(l.product) + '">' +
        opts(SHOP.reasons.map((r) => [r, r]), '', 'Reason…') + '</select> <button type="button" class="return">Return</button></td>' : '<td></td>') + '</tr>').join('');
    root.innerHTML = '<article id="order" data-id="' + esc(o.id) + '"><h2>Order ' + esc(o.id) + '</h2><p>Placed on <span id="order-placed">' + esc(o.placed) + '</span> · Status: <b id="order-status">' + esc(o.status) + '</b> · Total <span id="order-total">' + eur(o.total) + '</span></p>' +
      '<p id="order-address">' + esc(o.name) + ', ' + esc(o.street) + ', ' + esc(o.postcode) + ' ' + esc(o.city) + ' · ' + esc(o.delivery) + '</p>' +
      '<table class="data" id="order-lines"><thead><tr><th>Product</th><th>Quantity</th><th>Price</th><th>' + (returnable ? 'Return' : '') + '</th></tr></thead><tbody>' + rows + '</tbody></table>' +
      (o.status === 'placed' ? '<p><button type="button" id="cancel-order">Cancel this order</button></p>' : '') +
      '<h3>Returns</h3><table class="data" id="returns"><thead><tr><th>Return</th><th>Product</th><th>Quantity</th><th>Reason</th><th>Status</th></tr></thead><tbody>' +
      d.returns.map((r) => '<tr data-id="' + esc(r.id) + '"><td>' + esc(r.id) + '</td><td>' + esc((o.lines.find((l) => l.product === r.product) || {}).name) + '</td><td>' + esc(r.qty) + '</td><td>' + esc(r.reason) + '</td><td>' + esc(r.status) + '</td></tr>').join('') +
      '</tbody></table></article>';
    root.querySelectorAll('#order-lines .return').forEach((b) => b.addEventListener('click', async () => {
      const tr = b.closest('tr');
      const r = await WF.call('POST', '/orders/' + o.id + '/returns', {product: tr.dataset.product, qty: Number(tr.querySelector('.ret-qty').value), reason: tr.querySelector('.ret-reason').value});
      if (r) { await renderOrder(id); WF.toast(r.message, r.id); }
    }));
    const c = root.querySelector('#cancel-order');
    if (c) c.addEventListener('click', async () => { const r = await WF.call('POST', '/orders/' + o.id + '/cancel'); if (r) { await renderOrder(id); WF.toast(r.message); } });
  }

  function route() {
    const [path] = location.hash.replace(/^#\/?/, '').split('?');
    const parts = path.split('/');
    document.querySelectorAll('#shop-nav a').forEach((a) => a.setAttribute('aria-current', a.dataset.view === (parts[0] || 'search') ? 'page' : 'false'));
    if (parts[0] === 'product') return renderProduct(decodeURIComponent(parts[1] || ''));
    if (parts[0] === 'cart') return renderCart();
    if (parts[0] === 'checkout') return renderCheckout();
    if (parts[0] === 'orders') return renderOrders();
    if (parts[0] === 'order') return renderOrder(decodeURIComponent(parts[1] || ''));
    return renderSearch();
  }
  // Going to the view already shown renders it again (a retry after an error must reach the server).
  function go(hash) { if (location.hash === hash) { WF.clear(); route(); } else { location.hash = hash; } }
  document.querySelectorAll('#shop-nav a').forEach((a) => a.addEventListener('click', (e) => { e.preventDefault(); go(a.getAttribute('href')); }));
  // In-page links too: a link to the view already shown (an order whose load failed) loads it again.
  root.addEventListener('click', (e) => {
    const a = e.target.closest('a[href^="#/"]');
    if (!a || e.defaultPrevented) return;
    e.preventDefault();
    go(a.getAttribute('href'));
  });
  window.addEventListener('hashchange', () => { WF.clear(); route(); });
  WF.afterLogin(route);
  cartCount();
  route();
})();
