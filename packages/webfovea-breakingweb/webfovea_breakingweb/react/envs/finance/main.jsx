// Kestrel, BreakingWeb's finance environment (a Robinhood-like brokerage; seed 003 A.1): quotes
// and stock pages, watchlists, market and limit orders (reviewed, then submitted), positions,
// order history, transfers, recurring investments, documents and notifications, over
// /api/env/finance.
import React, {useEffect, useState} from 'react';
import {createRoot} from 'react-dom/client';
import {Shell, useWF} from '../../kit/Shell.jsx';
import {go, parseHash, useHash} from '../../kit/hash.js';
import {Home} from './Home.jsx';
import {Lists, SearchResults} from './Lists.jsx';
import {StockPage} from './Stock.jsx';
import {Orders} from './Orders.jsx';
import {Transfers} from './Transfers.jsx';
import {Recurring} from './Recurring.jsx';
import {Documents, Notifications} from './Inbox.jsx';

function Header() {
  const {api} = useWF();
  const hash = useHash();
  const [q, setQ] = useState('');
  const [unread, setUnread] = useState(0);
  useEffect(() => {
    api('GET', '/account').then((d) => { if (d.ok) setUnread(d.unread); });
  }, [api, hash]);
  const nav = [['#/', 'Investing', 'nav-home'], ['#/lists', 'Lists', 'nav-lists'], ['#/orders', 'Orders', 'nav-orders'],
    ['#/transfers', 'Transfers', 'nav-transfers'], ['#/recurring', 'Recurring', 'nav-recurring'],
    ['#/documents', 'Documents', 'nav-documents'], ['#/notifications', 'Notifications', 'nav-notifications']];
  return (
    <header className="finance">
      <a className="brand" href="#/">Kestrel</a>
      <form id="search" role="search" onSubmit={(e) => { e.preventDefault(); go('#/search?q=' + encodeURIComponent(q.trim())); }}>
        <label htmlFor="search-q" className="sr">Search stocks</label>
        <input id="search-q" type="search" placeholder="Search by symbol or company" autoComplete="off" value={q} onChange={(e) => setQ(e.target.value)} />
        <button id="search-go" type="submit">Search</button>
      </form>
      <nav id="finance-nav" aria-label="Kestrel">
        {nav.map(([href, text, id]) => (
          <a key={id} id={id} href={href}>{text}{id === 'nav-notifications' && unread ? <span className="badge"> ({unread})</span> : null}</a>
        ))}
      </nav>
    </header>
  );
}

function View() {
  const {parts, params} = parseHash(useHash());
  const [head, a] = parts;
  if (!head) return <Home />;
  if (head === 'search') return <SearchResults key={params.q} q={params.q || ''} />;
  if (head === 'stocks' && a) return <StockPage key={a} symbol={a} />;
  if (head === 'lists') return <Lists />;
  if (head === 'orders') return <Orders key={params.status || 'all'} status={params.status || 'all'} />;
  if (head === 'transfers') return <Transfers />;
  if (head === 'recurring') return <Recurring open={a} />;
  if (head === 'documents') return <Documents key={params.kind || 'statement'} kind={params.kind || 'statement'} open={a} />;
  if (head === 'notifications') return <Notifications open={a} />;
  return <p id="not-found">There is no page at {window.location.hash}.</p>;
}

function App() {
  return (
    <Shell config={window.WF_ENV} header={<Header />}>
      <View />
    </Shell>
  );
}

createRoot(document.getElementById('root')).render(<App />);
