// A stock's page: its quote and 30-day chart, key statistics, your position and open orders in
// it, adding it to a watchlist, and the order ticket.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {Change, usd, when} from './money.jsx';
import {OrderTicket} from './OrderTicket.jsx';

function Chart({history}) {
  if (!history.length) return null;
  const lo = Math.min(...history);
  const hi = Math.max(...history);
  const pts = history.map((v, i) => `${(i * 600) / (history.length - 1)},${150 - ((v - lo) / (hi - lo || 1)) * 140}`).join(' ');
  const up = history[history.length - 1] >= history[0];
  return (
    <svg id="chart" viewBox="0 0 600 160" role="img" aria-label="Price over the last 30 days">
      <polyline points={pts} fill="none" stroke={up ? '#00a35c' : '#e0442b'} strokeWidth="2" />
    </svg>
  );
}

function AddToList({symbol, onLists, reload}) {
  const {call, toast} = useWF();
  const [lists, setLists] = useState([]);
  const [choice, setChoice] = useState('');
  useEffect(() => { call('GET', '/watchlists').then((d) => d && setLists(d.watchlists)); }, [call, onLists]);
  const add = async () => {
    const d = await call('POST', `/watchlists/${choice}/add`, {symbol});
    if (d) { await reload(); toast(d.message); }
  };
  const names = lists.filter((w) => onLists.includes(w.id)).map((w) => w.name);
  return (
    <div id="watch">
      <p id="on-lists">{names.length ? 'On your lists: ' + names.join(', ') : 'Not on any of your lists.'}</p>
      <label htmlFor="wl-choose" className="lbl">Add to list</label>{' '}
      <select id="wl-choose" value={choice} onChange={(e) => setChoice(e.target.value)}>
        <option value="">Choose a list</option>
        {lists.map((w) => <option key={w.id} value={w.id}>{w.name}</option>)}
      </select>{' '}
      <button type="button" id="wl-add" disabled={!choice} onClick={add}>Add to list</button>
    </div>
  );
}

export function StockPage({symbol}) {
  const {call} = useWF();
  const [data, setData] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/stocks/' + encodeURIComponent(symbol));
    if (d) setData(d);
    return d;
  }, [call, symbol]);
  useEffect(() => { reload(); }, [reload]);
  if (!data) return <p className="muted">Loading {symbol}…</p>;
  const s = data.stock;
  const pos = data.position;
  return (
    <div className="stock-layout">
      <article id="stock" data-symbol={s.id}>
        <p className="muted">{s.sector}</p>
        <h1 id="stock-name">{s.name} <span className="muted">{s.id}</span></h1>
        <p id="stock-price" className="price">{usd(s.price)}</p>
        <p id="stock-change"><Change cents={s.price - s.prev_close} base={s.prev_close} /> today</p>
        <Chart history={s.history} />
        <dl id="stats">
          <dt>Previous close</dt><dd>{usd(s.prev_close)}</dd><dt>Day range</dt><dd>{usd(s.day_low)} – {usd(s.day_high)}</dd>
          <dt>Volume</dt><dd>{s.volume.toLocaleString('en-US')}</dd><dt>Market cap</dt><dd>{s.market_cap}</dd><dt>P/E ratio</dt><dd>{s.pe}</dd>
        </dl>
        <p id="about">{s.about}</p>
        <section id="your-position">
          <h2>Your position</h2>
          {pos ? <p><span id="pos-shares">{pos.shares} {pos.shares === 1 ? 'share' : 'shares'}</span> · average cost {usd(pos.avg_cost)} · market value {usd(pos.shares * s.price)}</p>
            : <p className="muted">You do not own {s.id}.</p>}
        </section>
        {data.orders.length ? (
          <section id="stock-orders"><h2>Open orders</h2><ul>{data.orders.map((o) => (
            <li key={o.id} data-id={o.id}>{o.id}: limit {o.side} {o.shares} at {usd(o.limit_price)} ({o.time_in_force === 'gtc' ? 'good till cancelled' : 'good for day'}), placed {when(o.created)}</li>
          ))}</ul><a href="#/orders?status=open">Manage open orders</a></section>
        ) : null}
        <AddToList symbol={s.id} onLists={data.watchlists} reload={reload} />
      </article>
      <OrderTicket stock={s} freeShares={data.free_shares} buyingPower={data.buying_power} onDone={reload} />
    </div>
  );
}
