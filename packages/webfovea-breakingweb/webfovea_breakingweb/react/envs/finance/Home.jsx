// The investing home: portfolio value, buying power, your positions, and your watchlists with
// their quotes (a symbol opens its stock page; Remove takes it off the list).
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {Change, usd} from './money.jsx';

export function QuoteItem({q, onRemove}) {
  const {unit} = useWF();
  return (
    <li data-symbol={q.symbol}>
      <a className="sym" href={'#/stocks/' + q.symbol}>{q.symbol}</a> <span className="name">{unit('', q.name)}</span>
      <span className="px">{usd(q.price)}</span> <Change cents={q.change} base={q.price - q.change} />
      {onRemove ? <button type="button" className="wl-remove linkish" aria-label={'Remove ' + q.symbol} onClick={() => onRemove(q.symbol)}>Remove</button> : null}
    </li>
  );
}

export function HomeLists() {
  const {call, toast} = useWF();
  const [lists, setLists] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/watchlists');
    if (d) setLists(d.watchlists);
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  const remove = (wid) => async (sym) => {
    const d = await call('POST', `/watchlists/${wid}/remove`, {symbol: sym});
    if (d) { await reload(); toast(d.message); }
  };
  if (!lists) return <p className="muted">Loading lists…</p>;
  return (
    <aside id="home-lists">
      <h2>Lists</h2>
      {lists.map((w) => (
        <section key={w.id} className="wl" data-id={w.id}>
          <h3>{w.name}</h3>
          {w.quotes.length ? <ul>{w.quotes.map((q) => <QuoteItem key={q.symbol} q={q} onRemove={remove(w.id)} />)}</ul> : <p className="muted">No stocks yet.</p>}
        </section>
      ))}
    </aside>
  );
}

export function Home() {
  const {call, unit} = useWF();
  const [data, setData] = useState(null);
  useEffect(() => { call('GET', '/account').then((d) => d && setData(d)); }, [call]);
  return (
    <div className="home">
      <section id="portfolio">
        {!data ? <p className="muted">Loading your portfolio…</p> : (
          <>
            <p className="muted">Individual account ••{data.account.number}</p>
            <h1 id="portfolio-value">{usd(data.value)}</h1>
            <p>Buying power <b id="buying-power">{usd(data.account.buying_power)}</b>
              {data.held ? <span className="muted"> · {usd(data.held)} held for open orders</span> : null}</p>
            <h2>Positions</h2>
            <table id="positions" className="data">
              <thead><tr><th>Stock</th><th>Shares</th><th>Price</th><th>Average cost</th><th>Market value</th><th>Total return</th></tr></thead>
              <tbody>{data.positions.map((p) => (
                <tr key={p.symbol} data-symbol={p.symbol}>
                  <td><a className="sym" href={'#/stocks/' + p.symbol}>{p.symbol}</a> <span className="name">{unit('', p.name)}</span></td>
                  <td className="shares">{p.shares}</td><td>{usd(p.price)}</td><td>{usd(p.avg_cost)}</td>
                  <td className="value">{usd(p.value)}</td><td><Change cents={p.gain} base={p.avg_cost * p.shares} /></td>
                </tr>
              ))}</tbody>
            </table>
          </>
        )}
      </section>
      <HomeLists />
    </div>
  );
}
