// Order history, newest first, filtered by status; an open order can be cancelled (Cancel, then
// "Yes, cancel order" in its row). The list is re-read after a cancellation.
import React, {useCallback, useEffect, useState} from 'react';
import {qs} from '../../kit/api.js';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {usd, when} from './money.jsx';

function describe(o) {
  const kind = o.type === 'limit' ? `Limit ${o.side}` : `Market ${o.side}`;
  const price = o.type === 'limit' ? ` at ${usd(o.limit_price)} (${o.time_in_force === 'gtc' ? 'good till cancelled' : 'good for day'})` : '';
  const filled = o.fill_price ? ` · filled at ${usd(o.fill_price)}` : '';
  return `${kind} · ${o.shares} ${o.shares === 1 ? 'share' : 'shares'}${price}${filled}`;
}

export function Orders({status}) {
  const {call, toast} = useWF();
  const [orders, setOrders] = useState(null);
  const [asking, setAsking] = useState(null); // the order whose cancellation waits for a yes
  const reload = useCallback(async () => {
    const d = await call('GET', '/orders' + qs({status: status === 'all' ? '' : status}));
    if (d) setOrders(d.orders);
    return d ? d.orders : [];
  }, [call, status]);
  useEffect(() => { reload(); }, [reload]);
  // The question stays open until the re-read history shows the order cancelled: a "cancelled"
  // the server did not keep can be confirmed again from the same row.
  const cancel = async (oid) => {
    const d = await call('POST', `/orders/${oid}/cancel`, {});
    if (!d) return;
    const fresh = await reload();
    if (fresh.some((o) => o.id === oid && o.status === 'cancelled')) setAsking(null);
    toast(d.message);
  };
  return (
    <section>
      <h1>Orders</h1>
      <label htmlFor="order-status">Show</label>{' '}
      <select id="order-status" value={status} onChange={(e) => go('#/orders' + qs({status: e.target.value === 'all' ? '' : e.target.value}))}>
        <option value="all">All orders</option><option value="open">Open</option><option value="filled">Filled</option><option value="cancelled">Cancelled</option>
      </select>
      {!orders ? <p className="muted">Loading orders…</p> : (
        <table id="orders" className="data">
          <thead><tr><th>Placed</th><th>Stock</th><th>Order</th><th>Status</th><th /></tr></thead>
          <tbody>{orders.map((o) => (
            <tr key={o.id} data-id={o.id} className={o.status}>
              <td className="date">{when(o.created)}</td>
              <td className="symbol"><a href={'#/stocks/' + o.symbol}>{o.symbol}</a> <span className="name">{o.name}</span></td>
              <td className="desc">{describe(o)}</td>
              <td className="status">{o.status}</td>
              <td className="actions">{o.status !== 'open' ? null : asking === o.id ? (
                <>
                  <button type="button" className="confirm-cancel" onClick={() => cancel(o.id)}>Yes, cancel order</button>{' '}
                  <button type="button" className="keep secondary" onClick={() => setAsking(null)}>Keep it</button>
                </>
              ) : <button type="button" className="cancel linkish" onClick={() => setAsking(o.id)}>Cancel</button>}</td>
            </tr>
          ))}</tbody>
        </table>
      )}
    </section>
  );
}
