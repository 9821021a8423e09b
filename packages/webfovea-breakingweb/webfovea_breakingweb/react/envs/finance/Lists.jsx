// The search results and the Lists page (every watchlist with its quotes; a new list).
import React, {useCallback, useEffect, useState} from 'react';
import {qs} from '../../kit/api.js';
import {useWF} from '../../kit/Shell.jsx';
import {Change, usd} from './money.jsx';

export function SearchResults({q}) {
  const {call} = useWF();
  const [hits, setHits] = useState(null);
  useEffect(() => { call('GET', '/stocks' + qs({q})).then((d) => d && setHits(d.results)); }, [call, q]);
  return (
    <section>
      <h1>Results for “{q}”</h1>
      {!hits ? <p className="muted">Searching…</p> : hits.length ? (
        <ul id="results">{hits.map((s) => (
          <li key={s.symbol} data-symbol={s.symbol}>
            <a className="sym" href={'#/stocks/' + s.symbol}>{s.symbol}</a> <span className="name">{s.name}</span>{' '}
            <span className="px">{usd(s.price)}</span> <Change cents={s.change} base={s.price - s.change} />
          </li>
        ))}</ul>
      ) : <p id="no-results" className="muted">No stocks match “{q}”.</p>}
    </section>
  );
}

export function Lists() {
  const {call, toast} = useWF();
  const [lists, setLists] = useState(null);
  const [name, setName] = useState('');
  const reload = useCallback(async () => {
    const d = await call('GET', '/watchlists');
    if (d) setLists(d.watchlists);
    return d ? d.watchlists : [];
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  // The name is kept until the re-read lists show the new one (one the server did not keep can
  // be created again as it was).
  const create = async () => {
    const d = await call('POST', '/watchlists', {name});
    if (!d) return;
    if ((await reload()).some((w) => w.id === d.id)) setName('');
    toast(d.message, d.id);
  };
  const remove = async (wid, symbol) => {
    const d = await call('POST', `/watchlists/${wid}/remove`, {symbol});
    if (d) { await reload(); toast(d.message); }
  };
  return (
    <section>
      <h1>Lists</h1>
      <div className="fields" id="new-list">
        <label htmlFor="wl-name" className="lbl">New list name</label>
        <input id="wl-name" type="text" maxLength={40} value={name} onChange={(e) => setName(e.target.value)} />
        <div><button type="button" id="wl-create" disabled={!name.trim()} onClick={create}>Create list</button></div>
      </div>
      {!lists ? <p className="muted">Loading lists…</p> : (
        <div id="lists">{lists.map((w) => (
          <section key={w.id} className="wl" data-id={w.id}>
            <h2>{w.name} <span className="muted">({w.symbols.length} {w.symbols.length === 1 ? 'stock' : 'stocks'})</span></h2>
            <table className="data">
              <tbody>{w.quotes.map((s) => (
                <tr key={s.symbol} data-symbol={s.symbol}>
                  <td><a className="sym" href={'#/stocks/' + s.symbol}>{s.symbol}</a></td><td>{s.name}</td><td>{usd(s.price)}</td>
                  <td><Change cents={s.change} base={s.price - s.change} /></td>
                  <td><button type="button" className="wl-remove linkish" onClick={() => remove(w.id, s.symbol)}>Remove</button></td>
                </tr>
              ))}</tbody>
            </table>
          </section>
        ))}</div>
      )}
    </section>
  );
}
