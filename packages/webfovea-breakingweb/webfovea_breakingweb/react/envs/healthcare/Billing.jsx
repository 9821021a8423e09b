// Billing: statements with what is still due, the payments made, and the payment page (an
// amount and a method). The view re-reads after a payment: a payment the server did not keep
// is not shown as made.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {cents, day, money, when} from './format.js';

function useBilling() {
  const {call} = useWF();
  const [data, setData] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/billing');
    if (d) setData(d);
    return d;
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  return [data, reload];
}

export function Billing() {
  const [data] = useBilling();
  if (!data) return <p className="muted">Loading your statements…</p>;
  const what = (bid) => (data.statements.find((s) => s.id === bid) || {}).description || bid;
  return (
    <section id="billing">
      <h1>Billing</h1>
      <p className="panel">Amount due: <b id="balance">{money(data.balance)}</b></p>
      <table id="statements" className="data">
        <thead><tr><th>Date</th><th>Service</th><th>Billed</th><th>Paid</th><th>Balance</th><th>Status</th><th /></tr></thead>
        <tbody>{data.statements.map((s) => (
          <tr key={s.id} data-id={s.id}>
            <td className="date">{day(s.date)}</td><td className="service">{s.description}</td><td>{money(s.amount)}</td>
            <td>{money(s.paid)}</td><td className="due">{money(s.amount - s.paid)}</td><td className="status">{s.status === 'paid' ? 'Paid' : 'Due'}</td>
            <td>{s.status === 'due' ? <button type="button" className="pay" onClick={() => go('#/billing/' + s.id)}>Pay</button> : null}</td>
          </tr>
        ))}</tbody>
      </table>
      <h2>Payments</h2>
      <table id="payments" className="data">
        <thead><tr><th>Paid on</th><th>Statement</th><th>Amount</th><th>Method</th></tr></thead>
        <tbody>{data.payments.map((p) => (
          <tr key={p.id} data-id={p.id}><td>{when(p.created)}</td><td>{what(p.statement)}</td><td>{money(p.amount)}</td><td>{p.method}</td></tr>
        ))}</tbody>
      </table>
    </section>
  );
}

export function PayStatement({bid}) {
  const {call, toast} = useWF();
  const [data, reload] = useBilling();
  const [form, setForm] = useState({amount: '', method: ''});
  if (!data) return <p className="muted">Loading…</p>;
  const s = data.statements.find((x) => x.id === bid);
  if (!s) return <p id="not-found">No statement {bid}. <a href="#/billing">Back to billing</a></p>;
  const due = s.amount - s.paid;
  const send = async () => {
    const amount = cents(form.amount);
    if (amount === null || amount <= 0) { toast('Enter an amount such as 25.00.'); return; }
    const d = await call('POST', `/statements/${bid}/pay`, {amount, method: form.method});
    if (!d) return;
    const fresh = await reload();
    if (fresh && fresh.payments.some((p) => p.id === d.id)) go('#/billing');
    toast(d.message, d.id);
  };
  return (
    <section id="pay-view">
      <h1>Pay a statement</h1>
      <div id="statement" className="panel" data-id={s.id}>
        <p><b>{s.description}</b> · {day(s.date)}</p>
        <p>Billed {money(s.amount)} · paid {money(s.paid)} · <b>balance {money(due)}</b></p>
      </div>
      <div className="fields">
        <label htmlFor="pay-amount" className="lbl">Amount (USD)</label>
        <input id="pay-amount" type="text" inputMode="decimal" placeholder="0.00" value={form.amount} onChange={(e) => setForm({...form, amount: e.target.value})} />
        <label htmlFor="pay-method" className="lbl">Pay with</label>
        <select id="pay-method" value={form.method} onChange={(e) => setForm({...form, method: e.target.value})}>
          <option value="">Choose a payment method</option><option value="Card on file">Card on file</option>
          <option value="Bank account">Bank account</option>
        </select>
      </div>
      <p className="muted small">Card on file: Visa ending 4417. Bank account: checking ending 0932.</p>
      <p><button type="button" id="pay-submit" disabled={!form.amount.trim() || !form.method} onClick={send}>Pay now</button> <a href="#/billing">Back</a></p>
    </section>
  );
}
