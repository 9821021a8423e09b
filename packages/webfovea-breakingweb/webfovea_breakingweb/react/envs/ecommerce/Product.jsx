// A product page: its details, the options a shopper chooses (size, colour, quantity) and Add to
// cart. The choice is sent as chosen; the shop refuses a missing size or colour by name.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {Stars, changed, money} from './changed.js';

function stockText(n) {
  if (n === 0) return 'Currently unavailable.';
  return n < 5 ? `Only ${n} left in stock.` : 'In stock';
}

export function ProductPage({pid}) {
  const {call, toast} = useWF();
  const [p, setP] = useState(null);
  const [size, setSize] = useState('');
  const [colour, setColour] = useState('');
  const [qty, setQty] = useState('1');
  const [held, setHeld] = useState([]);
  // The cart's lines of this product, re-read after Add: what the server holds, not the toast.
  const reread = useCallback(async () => {
    const d = await call('GET', '/cart');
    if (d) setHeld(d.lines.filter((x) => x.product === pid));
  }, [call, pid]);
  useEffect(() => { call('GET', '/products/' + pid).then((d) => d && setP(d.product)); reread(); }, [call, pid, reread]);
  const add = async () => {
    const d = await call('POST', '/cart', {product: pid, size, colour, qty: Number(qty)});
    if (!d) return;
    await reread();
    changed();
    toast(d.message, d.id);
  };
  if (!p) return <p className="muted">Loading the product…</p>;
  return (
    <article id="product" data-id={p.id}>
      <div className="gallery" aria-hidden="true">{p.name.split(' ').slice(-1)[0].slice(0, 1)}</div>
      <div className="details">
        <p className="crumbs"><a href={'#/c/' + p.category}>Back to the department</a></p>
        <h1 id="product-title">{p.name}</h1>
        <p>by <a id="product-brand" href={'#/c/' + p.category + '?brand=' + encodeURIComponent(p.brand)}>{p.brand}</a></p>
        <Stars rating={p.rating} reviews={p.reviews} />
        <p id="product-price" className="price big">{money(p.price)}</p>
        <p id="product-description">{p.description}</p>
        <p className="muted" id="product-seller">Sold by {p.seller}</p>
      </div>
      <div className="buybox">
        <p className="price">{money(p.price)}</p>
        <p id="stock" className={p.stock === 0 ? 'stock out' : 'stock'}>{stockText(p.stock)}</p>
        {p.sizes.length ? (
          <p><label htmlFor="size">Size</label>{' '}
            <select id="size" value={size} onChange={(e) => setSize(e.target.value)}>
              <option value="">Select</option>
              {p.sizes.map((s) => <option key={s} value={s}>{s}</option>)}
            </select></p>
        ) : null}
        {p.colours.length ? (
          <p><label htmlFor="colour">Colour</label>{' '}
            <select id="colour" value={colour} onChange={(e) => setColour(e.target.value)}>
              <option value="">Select</option>
              {p.colours.map((c) => <option key={c} value={c}>{c}</option>)}
            </select></p>
        ) : null}
        <p><label htmlFor="qty">Quantity</label>{' '}
          <select id="qty" value={qty} onChange={(e) => setQty(e.target.value)}>
            {[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => <option key={n} value={String(n)}>{n}</option>)}
          </select></p>
        <button type="button" id="add-to-cart" disabled={p.stock === 0} onClick={add}>Add to cart</button>
        {held.length ? (
          <div id="in-cart"><p className="muted">In your cart:</p>
            <ul>{held.map((x) => <li key={x.id} data-id={x.id}>{[x.size && 'Size ' + x.size, x.colour].filter(Boolean).join(', ') || 'This item'} × {x.qty}</li>)}</ul>
            <a href="#/cart" id="go-to-cart">Go to cart</a></div>
        ) : null}
      </div>
    </article>
  );
}
