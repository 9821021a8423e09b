// The order ticket on a stock's page: Buy or Sell, a market or limit order, shares, the limit
// price and how long it stands; "Review order" shows what will be sent and what it costs, and
// only "Submit order" sends it. The ticket is kept until the re-read order history shows the
// order (one the server did not keep can be submitted again as it was).
import React, {useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {toCents, usd} from './money.jsx';

const EMPTY = {side: 'buy', type: 'market', shares: '', limit: '', tif: 'gfd'};

export function OrderTicket({stock, freeShares, buyingPower, onDone}) {
  const {call, toast} = useWF();
  const [t, setT] = useState(EMPTY);
  const [reviewing, setReviewing] = useState(false);
  const set = (k) => (e) => { setReviewing(false); setT({...t, [k]: e.target.value}); };
  const side = (s) => { setReviewing(false); setT({...t, side: s}); };
  const shares = /^\d+$/.test(t.shares.trim()) ? Number(t.shares.trim()) : 0;
  const limit = t.type === 'limit' ? toCents(t.limit) : null;
  const ready = shares > 0 && (t.type === 'market' || limit !== null);
  const each = t.type === 'market' ? stock.price : limit || 0;
  const estimate = shares * each;
  const submit = async () => {
    const body = {symbol: stock.id, side: t.side, type: t.type, shares,
      limit_price: t.type === 'limit' ? t.limit.trim() : null, time_in_force: t.type === 'limit' ? t.tif : 'gfd'};
    const d = await call('POST', '/orders', body);
    if (!d) return;
    const history = await call('GET', '/orders');
    if (history && history.orders.some((o) => o.id === d.id)) { setT(EMPTY); setReviewing(false); }
    await onDone();
    toast(d.message, d.id);
  };
  const what = t.side === 'buy' ? 'Buy' : 'Sell';
  return (
    <section id="order" aria-label="Order ticket">
      <div className="sides" role="group" aria-label="Buy or sell">
        <button type="button" id="side-buy" className="side" aria-pressed={t.side === 'buy'} onClick={() => side('buy')}>Buy {stock.id}</button>
        <button type="button" id="side-sell" className="side" aria-pressed={t.side === 'sell'} onClick={() => side('sell')}>Sell {stock.id}</button>
      </div>
      <div className="fields">
        <label htmlFor="order-type" className="lbl">Order type</label>
        <select id="order-type" value={t.type} onChange={set('type')}>
          <option value="market">Market order</option><option value="limit">Limit order</option>
        </select>
        <label htmlFor="order-shares" className="lbl">Shares</label>
        <input id="order-shares" type="text" inputMode="numeric" autoComplete="off" value={t.shares} onChange={set('shares')} />
        {t.type === 'limit' ? (
          <>
            <label htmlFor="order-limit" className="lbl">Limit price ($)</label>
            <input id="order-limit" type="text" inputMode="decimal" autoComplete="off" value={t.limit} onChange={set('limit')} />
            <label htmlFor="order-tif" className="lbl">Time in force</label>
            <select id="order-tif" value={t.tif} onChange={set('tif')}>
              <option value="gfd">Good for day</option><option value="gtc">Good till cancelled</option>
            </select>
          </>
        ) : <p className="muted span">Market price {usd(stock.price)}</p>}
      </div>
      <p className="muted" id="order-available">{t.side === 'buy' ? usd(buyingPower) + ' buying power available' : freeShares + ' shares available to sell'}</p>
      <p id="order-estimate">{t.side === 'buy' ? 'Estimated cost' : 'Estimated credit'} <b>{usd(estimate)}</b></p>
      {!reviewing ? (
        <button type="button" id="order-review" disabled={!ready} onClick={() => setReviewing(true)}>Review order</button>
      ) : (
        <div id="order-review-panel">
          <p id="review-summary">{what} {shares} {shares === 1 ? 'share' : 'shares'} of {stock.id} {t.type === 'market' ? 'at the market price' : 'with a limit of ' + usd(limit) + (t.tif === 'gtc' ? ', good till cancelled' : ', good for day')}. {t.side === 'buy' ? 'Estimated cost' : 'Estimated credit'} {usd(estimate)}.</p>
          <button type="button" id="order-submit" onClick={submit}>Submit order</button>{' '}
          <button type="button" id="order-edit" className="secondary" onClick={() => setReviewing(false)}>Edit</button>
        </div>
      )}
    </section>
  );
}
