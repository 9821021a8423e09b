// Kestrel, BreakingWeb's e-commerce environment (an Amazon-like shop; seed 003 A.1): departments
// with facets and sort, product pages with options, cart, checkout, orders, returns, the address
// book and the buyer's messages, over /api/env/ecommerce.
import React, {useEffect, useState} from 'react';
import {createRoot} from 'react-dom/client';
import {Shell, useWF} from '../../kit/Shell.jsx';
import {go, parseHash, useHash} from '../../kit/hash.js';
import {Changed, useChanged} from './changed.js';
import {Home, Listing} from './Catalogue.jsx';
import {ProductPage} from './Product.jsx';
import {Cart, Checkout} from './Cart.jsx';
import {OrderPage, Orders, Returns} from './Orders.jsx';
import {Addresses, Messages} from './Account.jsx';

function Header() {
  const {api} = useWF();
  const hash = useHash();
  const {count} = useChanged();
  const [q, setQ] = useState('');
  const [info, setInfo] = useState({categories: [], cart_items: 0, unread: 0});
  // Re-read after every view change and every write: the cart badge is what the server holds.
  useEffect(() => {
    api('GET', '/catalogue').then((d) => { if (d.ok) setInfo(d); });
  }, [api, hash, count]);
  const account = [['#/orders', 'Orders', 'nav-orders'], ['#/returns', 'Returns', 'nav-returns'],
    ['#/addresses', 'Addresses', 'nav-addresses'], ['#/messages', 'Messages' + (info.unread ? ` (${info.unread})` : ''), 'nav-messages']];
  return (
    <header className="shop">
      <div className="topbar">
        <a className="brand" href="#/">kestrel</a>
        <form id="search" role="search" onSubmit={(e) => { e.preventDefault(); go('#/search?q=' + encodeURIComponent(q)); }}>
          <label htmlFor="search-q" className="sr">Search Kestrel</label>
          <input id="search-q" type="search" placeholder="Search Kestrel" value={q} onChange={(e) => setQ(e.target.value)} />
          <button id="search-go" type="submit">Search</button>
        </form>
        <nav id="account-nav" aria-label="Your account">
          <span className="hello">Hello, {info.me ? info.me.split(' ')[0] : ''}</span>
          {account.map(([href, text, id]) => <a key={id} id={id} href={href}>{text}</a>)}
          <a id="nav-cart" href="#/cart">Cart <b className="count">{info.cart_items}</b></a>
        </nav>
      </div>
      <nav id="cat-nav" aria-label="Departments">
        {info.categories.map((c) => <a key={c.id} id={'cat-' + c.slug} href={'#/c/' + c.slug}>{c.name}</a>)}
      </nav>
    </header>
  );
}

function View() {
  const {parts, params} = parseHash(useHash());
  const [head, a] = parts;
  if (!head) return <Home />;
  if (head === 'c' && a) return <Listing key={'c' + a + JSON.stringify(params)} category={a} params={params} />;
  if (head === 'search') return <Listing key={'s' + JSON.stringify(params)} params={params} />;
  if (head === 'p' && a) return <ProductPage key={a} pid={a} />;
  if (head === 'cart') return <Cart />;
  if (head === 'checkout') return <Checkout />;
  if (head === 'orders' && a) return <OrderPage key={a} oid={a} />;
  if (head === 'orders') return <Orders />;
  if (head === 'returns') return <Returns />;
  if (head === 'addresses') return <Addresses />;
  if (head === 'messages') return <Messages key={a || 'list'} open={a} />;
  return <p id="not-found">There is no page at {window.location.hash}.</p>;
}

function App() {
  return (
    <Shell config={window.WF_ENV} header={<Changed><Header /></Changed>}>
      <View />
    </Shell>
  );
}

createRoot(document.getElementById('root')).render(<App />);
