// Moving money between the linked bank and Kestrel: direction and amount, "Review transfer"
// shows what will move, "Submit transfer" moves it; past transfers below, re-read after each.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {toCents, usd, when} from './money.jsx';

export function Transfers() {
  const {call, toast} = useWF();
  const [data, setData] = useState(null);
  const [form, setForm] = useState({direction: 'deposit', amount: ''});
  const [reviewing, setReviewing] = useState(false);
  const reload = useCallback(async () => {
    const d = await call('GET', '/transfers');
    if (d) setData(d);
    return d ? d.transfers : [];
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  const set = (k) => (e) => { setReviewing(false); setForm({...form, [k]: e.target.value}); };
  const cents = toCents(form.amount);
  const submit = async () => {
    const d = await call('POST', '/transfers', {direction: form.direction, amount: form.amount.trim()});
    if (!d) return;
    if ((await reload()).some((t) => t.id === d.id)) { setForm({direction: 'deposit', amount: ''}); setReviewing(false); }
    toast(d.message, d.id);
  };
  if (!data) return <p className="muted">Loading transfers…</p>;
  const deposit = form.direction === 'deposit';
  return (
    <section>
      <h1>Transfers</h1>
      <p>Buying power <b id="tr-bp">{usd(data.buying_power)}</b> · linked bank <span id="tr-bank">{data.bank}</span></p>
      <div className="fields" id="transfer-form">
        <label htmlFor="tr-direction" className="lbl">Transfer</label>
        <select id="tr-direction" value={form.direction} onChange={set('direction')}>
          <option value="deposit">Deposit from your bank</option><option value="withdraw">Withdraw to your bank</option>
        </select>
        <label htmlFor="tr-amount" className="lbl">Amount ($)</label>
        <input id="tr-amount" type="text" inputMode="decimal" autoComplete="off" value={form.amount} onChange={set('amount')} />
      </div>
      {!reviewing ? (
        <button type="button" id="tr-review" disabled={cents === null} onClick={() => setReviewing(true)}>Review transfer</button>
      ) : (
        <div id="tr-review-panel">
          <p id="tr-summary">{deposit ? `Deposit ${usd(cents)} from ${data.bank} to Kestrel.` : `Withdraw ${usd(cents)} from Kestrel to ${data.bank}.`}</p>
          <button type="button" id="tr-confirm" onClick={submit}>Submit transfer</button>{' '}
          <button type="button" id="tr-edit" className="secondary" onClick={() => setReviewing(false)}>Edit</button>
        </div>
      )}
      <h2>Past transfers</h2>
      <table id="transfers" className="data">
        <thead><tr><th>Date</th><th>Transfer</th><th>Amount</th><th>Status</th></tr></thead>
        <tbody>{data.transfers.map((t) => (
          <tr key={t.id} data-id={t.id}>
            <td>{when(t.created)}</td><td>{t.direction === 'deposit' ? 'Deposit from ' + t.bank : 'Withdrawal to ' + t.bank}</td>
            <td className="amount">{usd(t.amount)}</td><td className="status">{t.status}</td>
          </tr>
        ))}</tbody>
      </table>
    </section>
  );
}
