// The cart (quantities typed and updated per line, lines deleted) and checkout: the address, the
// delivery speed and the card, then Place your order. Every write re-reads the cart, so what is
// drawn is what the server holds (a quantity the server changed shows as changed).
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {changed, money} from './changed.js';

const DELIVERY = [['standard', 'Standard', '3–5 days'], ['express', 'Express', '2 days'], ['next-day', 'Next day', 'tomorrow']];
const PRICES = {standard: 499, express: 999, 'next-day': 1499};
const FREE_OVER = 3500;

export function shippingFor(delivery, subtotal) {
  return delivery === 'standard' && subtotal >= FREE_OVER ? 0 : PRICES[delivery];
}

function options(x) {
  return [x.size && 'Size: ' + x.size, x.colour && 'Colour: ' + x.colour].filter(Boolean).join(' · ');
}

function summary(cart) {
  return `Subtotal (${cart.items} ${cart.items === 1 ? 'item' : 'items'}): ${money(cart.subtotal)}`;
}

export function Cart() {
  const {call, toast} = useWF();
  const [cart, setCart] = useState(null);
  const [drafts, setDrafts] = useState({});
  // After a write the boxes show what the server holds, but a quantity it did not take stays
  // typed in its box (`kept`), so it can be sent again as it was.
  const reload = useCallback(async (kept) => {
    const d = await call('GET', '/cart');
    if (d) {
      setCart(d);
      const held = (x) => (kept && kept[x.id] !== undefined && String(x.qty) !== kept[x.id] ? kept[x.id] : String(x.qty));
      setDrafts(Object.fromEntries(d.lines.map((x) => [x.id, held(x)])));
    }
    return d;
  }, [call]);
  useEffect(() => { reload(); }, [reload]);
  const update = async (x) => {
    const typed = drafts[x.id];
    const d = await call('POST', '/cart/' + x.id, {qty: Number(typed)});
    if (!d) return;
    await reload({[x.id]: typed});
    changed();
    toast(d.message);
  };
  const remove = async (x) => {
    const d = await call('POST', `/cart/${x.id}/remove`, {});
    if (!d) return;
    await reload();
    changed();
    toast(d.message);
  };
  if (!cart) return <p className="muted">Loading your cart…</p>;
  return (
    <section id="cart">
      <h1>Shopping cart</h1>
      {cart.lines.length ? (
        <table className="data" id="cart-lines">
          <thead><tr><th>Item</th><th>Price</th><th>Quantity</th><th /></tr></thead>
          <tbody>{cart.lines.map((x) => (
            <tr key={x.id} className="line" data-id={x.id}>
              <td><a href={'#/p/' + x.product} className="name">{x.name}</a><div className="muted opts">{options(x)}</div></td>
              <td className="price">{money(x.price)}</td>
              <td>
                <label htmlFor={'qty-' + x.id} className="sr">Quantity of {x.name}</label>
                <input id={'qty-' + x.id} className="qty-input" type="number" min="1" max="10" value={drafts[x.id] || ''}
                  onChange={(e) => setDrafts({...drafts, [x.id]: e.target.value})} />
                <button type="button" className="update linkish" onClick={() => update(x)}>Update</button>
              </td>
              <td><button type="button" className="remove linkish" onClick={() => remove(x)}>Delete</button></td>
            </tr>
          ))}</tbody>
        </table>
      ) : <p id="cart-empty">Your Kestrel cart is empty.</p>}
      <p id="cart-summary" className="summary">{summary(cart)}</p>
      <button type="button" id="to-checkout" disabled={!cart.lines.length} onClick={() => go('#/checkout')}>Proceed to checkout</button>
    </section>
  );
}

export function addressLabel(a) {
  return `${a.name}, ${a.street}, ${a.city}`;
}

export function Checkout() {
  const {api, call, toast} = useWF();
  const [data, setData] = useState(null);
  const [form, setForm] = useState({address: '', delivery: 'standard', payment: ''});
  useEffect(() => {
    Promise.all([call('GET', '/cart'), call('GET', '/addresses'), call('GET', '/cards')]).then(([c, a, k]) => {
      if (!(c && a && k)) return;
      setData({cart: c, addresses: a.addresses, cards: k.cards});
      setForm({address: (a.addresses.find((x) => x.default) || a.addresses[0] || {}).id || '', delivery: 'standard',
        payment: (k.cards.find((x) => x.default) || {}).id || ''});
    });
  }, [call]);
  // The order's page opens only once the server shows the order: a confirmation it did not
  // keep leaves you here, the cart and your choices as they were, to place it again.
  const place = async () => {
    const d = await call('POST', '/checkout', form);
    if (!d) return;
    const held = await api('GET', '/orders/' + d.id);
    changed();
    toast(d.message, d.id);
    if (held.ok) go('#/orders/' + d.id);
  };
  if (!data) return <p className="muted">Loading checkout…</p>;
  const {cart, addresses, cards} = data;
  const ship = shippingFor(form.delivery, cart.subtotal);
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  return (
    <section id="checkout">
      <h1>Checkout ({cart.items} {cart.items === 1 ? 'item' : 'items'})</h1>
      <div className="fields">
        <label htmlFor="ship-to" className="lbl">Delivery address</label>
        <select id="ship-to" value={form.address} onChange={set('address')}>
          {addresses.map((a) => <option key={a.id} value={a.id}>{addressLabel(a)}</option>)}
        </select>
        <span className="lbl">Delivery speed</span>
        <fieldset id="delivery-options">
          <legend className="sr">Delivery speed</legend>
          {DELIVERY.map(([v, t, when]) => (
            <div key={v}>
              <input type="radio" id={'delivery-' + v} name="delivery" value={v} checked={form.delivery === v} onChange={set('delivery')} />
              <label htmlFor={'delivery-' + v}>{t} ({when}) — {shippingFor(v, cart.subtotal) ? money(shippingFor(v, cart.subtotal)) : 'FREE'}</label>
            </div>
          ))}
        </fieldset>
        <label htmlFor="payment" className="lbl">Payment method</label>
        <select id="payment" value={form.payment} onChange={set('payment')}>
          {cards.map((k) => <option key={k.id} value={k.id}>{k.label}</option>)}
        </select>
      </div>
      <table className="data" id="checkout-lines">
        <tbody>{cart.lines.map((x) => (
          <tr key={x.id}><td>{x.name}<div className="muted">{options(x)}</div></td><td>× {x.qty}</td><td>{money(x.price * x.qty)}</td></tr>
        ))}</tbody>
      </table>
      <p id="order-summary">Items: {money(cart.subtotal)} · Delivery: {money(ship)} · <b>Order total: {money(cart.subtotal + ship)}</b></p>
      <button type="button" id="place-order" disabled={!cart.lines.length} onClick={place}>Place your order</button>
    </section>
  );
}
