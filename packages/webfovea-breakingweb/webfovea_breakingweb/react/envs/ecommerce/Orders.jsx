// Your orders (newest first; a processing one can be cancelled), one order's page with its
// lines, address, delivery and card (a delivered line can be returned: quantity, reason and how
// it goes back), and the returns you asked for.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {money} from './changed.js';

const REASONS = [['too-small', 'Too small'], ['too-large', 'Too large'], ['damaged', 'Arrived damaged'],
  ['not-as-described', 'Not as described'], ['changed-mind', 'No longer needed']];
const METHODS = [['drop-off', 'Drop-off at a parcel point'], ['pickup', 'Courier pickup']];
const DELIVERY = {standard: 'Standard', express: 'Express', 'next-day': 'Next day'};

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
const day = (iso) => iso.slice(0, 10);

export function Orders() {
  const {call, toast} = useWF();
  const [orders, setOrders] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/orders');
    if (d) setOrders(d.orders);
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  const cancel = async (o) => {
    const d = await call('POST', `/orders/${o.id}/cancel`, {});
    if (!d) return;
    await reload();
    toast(d.message);
  };
  if (!orders) return <p className="muted">Loading your orders…</p>;
  return (
    <section id="orders-view">
      <h1>Your orders</h1>
      <table className="data" id="orders">
        <thead><tr><th>Order</th><th>Placed</th><th>Items</th><th>Total</th><th>Status</th><th /></tr></thead>
        <tbody>{orders.map((o) => (
          <tr key={o.id} className="order" data-id={o.id}>
            <td>{o.id}</td><td>{day(o.placed)}</td>
            <td>{o.lines.map((x) => x.name + (x.qty > 1 ? ' × ' + x.qty : '')).join('; ')}</td>
            <td>{money(o.total)}</td><td className="status">{cap(o.status)}</td>
            <td><a className="open" href={'#/orders/' + o.id}>View order</a>
              {o.status === 'processing' ? <> · <button type="button" className="cancel linkish" onClick={() => cancel(o)}>Cancel order</button></> : null}</td>
          </tr>
        ))}</tbody>
      </table>
    </section>
  );
}

function ReturnForm({order, line, onDone, onCancel}) {
  const {call, toast} = useWF();
  const [form, setForm] = useState({qty: '1', reason: '', method: 'drop-off'});
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  const send = async () => {
    const d = await call('POST', '/returns', {order: order.id, product: line.product, qty: Number(form.qty), reason: form.reason, method: form.method});
    if (!d) return;
    await onDone();
    toast(d.message, d.id);
  };
  return (
    <div id="return-form" className="fields">
      <label htmlFor="return-qty" className="lbl">Quantity to return</label>
      <select id="return-qty" value={form.qty} onChange={set('qty')}>
        {Array.from({length: line.qty}, (_, i) => String(i + 1)).map((n) => <option key={n} value={n}>{n}</option>)}
      </select>
      <label htmlFor="return-reason" className="lbl">Reason</label>
      <select id="return-reason" value={form.reason} onChange={set('reason')}>
        <option value="">Choose a reason</option>
        {REASONS.map(([v, t]) => <option key={v} value={v}>{t}</option>)}
      </select>
      <label htmlFor="return-method" className="lbl">How it goes back</label>
      <select id="return-method" value={form.method} onChange={set('method')}>
        {METHODS.map(([v, t]) => <option key={v} value={v}>{t}</option>)}
      </select>
      <div className="mod-buttons">
        <button type="button" id="return-submit" onClick={send}>Request return</button>{' '}
        <button type="button" className="secondary" onClick={onCancel}>Cancel</button>
      </div>
    </div>
  );
}

export function OrderPage({oid}) {
  const {call, toast} = useWF();
  const [data, setData] = useState(null);
  const [returning, setReturning] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/orders/' + oid);
    if (d) setData(d);
    return d;
  }, [call, oid]);
  useEffect(() => { reload(); }, [reload]);
  const cancel = async () => {
    const d = await call('POST', `/orders/${oid}/cancel`, {});
    if (!d) return;
    await reload();
    toast(d.message);
  };
  if (!data) return <p className="muted">Loading the order…</p>;
  const {order, address, card, returned} = data;
  const subtotal = order.lines.reduce((s, x) => s + x.price * x.qty, 0);
  return (
    <article id="order" data-id={order.id}>
      <p className="crumbs"><a href="#/orders">Your orders</a> › {order.id}</p>
      <h1>Order {order.id}</h1>
      <p>Placed {day(order.placed)} · <span id="order-status">{cap(order.status)}</span>
        {order.status === 'processing' ? <> · <button type="button" id="order-cancel" className="linkish" onClick={cancel}>Cancel order</button></> : null}</p>
      <div className="order-info">
        <div><h2>Ship to</h2><p id="order-address">{address ? `${address.name}, ${address.street}, ${address.city} ${address.postcode}, ${address.country}` : 'Address removed'}</p></div>
        <div><h2>Delivery</h2><p id="order-delivery">{DELIVERY[order.delivery]}</p></div>
        <div><h2>Payment</h2><p id="order-payment">{card.label}</p></div>
      </div>
      <ul id="order-lines">{order.lines.map((x) => (
        <li key={x.product} className="oline" data-product={x.product}>
          <a href={'#/p/' + x.product}>{x.name}</a> <span className="muted">{[x.size && 'Size ' + x.size, x.colour].filter(Boolean).join(', ')}</span>
          {' · '}{x.qty} × {money(x.price)}
          {returned[x.product] ? <span className="tag returned">Return requested (<b className="rid">{returned[x.product]}</b>)</span> : null}
          {order.status === 'delivered' && !returned[x.product] ? <> · <button type="button" className="return linkish" onClick={() => setReturning(x.product)}>Return or replace item</button></> : null}
          {returning === x.product && !returned[x.product] ? <ReturnForm order={order} line={x} onDone={reload} onCancel={() => setReturning(null)} /> : null}
        </li>
      ))}</ul>
      <p id="order-totals">Items: {money(subtotal)} · Delivery: {money(order.shipping)} · <b>Total: {money(order.total)}</b></p>
    </article>
  );
}

export function Returns() {
  const {call} = useWF();
  const [list, setList] = useState(null);
  useEffect(() => { call('GET', '/returns').then((d) => d && setList(d.returns)); }, [call]);
  if (!list) return <p className="muted">Loading your returns…</p>;
  const reason = Object.fromEntries(REASONS);
  const method = Object.fromEntries(METHODS);
  return (
    <section id="returns-view">
      <h1>Your returns</h1>
      <table className="data" id="returns">
        <thead><tr><th>Return</th><th>Order</th><th>Item</th><th>Qty</th><th>Reason</th><th>Method</th><th>Status</th></tr></thead>
        <tbody>{list.map((x) => (
          <tr key={x.id} data-id={x.id}><td>{x.id}</td><td><a href={'#/orders/' + x.order}>{x.order}</a></td><td>{x.product}</td>
            <td>{x.qty}</td><td>{reason[x.reason]}</td><td>{method[x.method]}</td><td>{cap(x.status)}</td></tr>
        ))}</tbody>
      </table>
    </section>
  );
}
