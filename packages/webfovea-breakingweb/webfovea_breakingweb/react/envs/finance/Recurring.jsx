// Recurring investments: each plan's stock, amount, frequency, next purchase and status; Pause or
// Resume; Edit opens its amount (#/recurring/<id>), kept open after a save so it can be checked.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {usd} from './money.jsx';

function EditAmount({rec, reload}) {
  const {call, toast} = useWF();
  const [amount, setAmount] = useState(String(rec.amount));
  const ok = /^\d+$/.test(amount.trim()) && Number(amount) > 0;
  const save = async () => {
    const d = await call('POST', `/recurring/${rec.id}`, {amount: Number(amount.trim())});
    if (!d) return;
    await reload();
    toast(d.message);
  };
  return (
    <div id="rec-edit" className="fields" data-id={rec.id}>
      <h2 className="span">{rec.name} ({rec.symbol}), {rec.frequency}</h2>
      <label htmlFor="rec-amount" className="lbl">Amount per purchase ($)</label>
      <input id="rec-amount" type="text" inputMode="numeric" autoComplete="off" value={amount} onChange={(e) => setAmount(e.target.value)} />
      <div><button type="button" id="rec-save" disabled={!ok} onClick={save}>Save</button>{' '}
        <a href="#/recurring" id="rec-close">Close</a></div>
    </div>
  );
}

export function Recurring({open}) {
  const {call, toast} = useWF();
  const [list, setList] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/recurring');
    if (d) setList(d.recurring);
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  const flip = async (r) => {
    const d = await call('POST', `/recurring/${r.id}/status`, {status: r.status === 'active' ? 'paused' : 'active'});
    if (d) { await reload(); toast(d.message); }
  };
  if (!list) return <p className="muted">Loading recurring investments…</p>;
  const shown = list.find((r) => r.id === open);
  return (
    <section>
      <h1>Recurring investments</h1>
      <table id="recurring" className="data">
        <thead><tr><th>Stock</th><th>Amount</th><th>Frequency</th><th>Next purchase</th><th>Status</th><th /></tr></thead>
        <tbody>{list.map((r) => (
          <tr key={r.id} data-id={r.id}>
            <td className="stock"><a href={'#/stocks/' + r.symbol}>{r.symbol}</a> {r.name}</td>
            <td className="amount">{usd(r.amount * 100)}</td><td className="frequency">{r.frequency}</td><td>{r.next_date}</td>
            <td className="status">{r.status === 'active' ? 'Active' : 'Paused'}</td>
            <td>
              <button type="button" className="edit linkish" onClick={() => go('#/recurring/' + r.id)}>Edit</button>{' '}
              <button type="button" className={(r.status === 'active' ? 'pause' : 'resume') + ' linkish'} onClick={() => flip(r)}>{r.status === 'active' ? 'Pause' : 'Resume'}</button>
            </td>
          </tr>
        ))}</tbody>
      </table>
      {shown ? <EditAmount key={shown.id} rec={shown} reload={reload} /> : null}
    </section>
  );
}
