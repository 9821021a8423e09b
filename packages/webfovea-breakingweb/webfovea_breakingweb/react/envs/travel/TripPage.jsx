// One booking: its details, and what its state allows — change the dates or guests and cancel
// (upcoming), write a review (past), message the property (any). Each write re-reads the
// booking; a form is kept until the re-read shows the change.
import React, {useCallback, useEffect, useState} from 'react';
import {useWF} from '../../kit/Shell.jsx';
import {GUESTS} from './Home.jsx';

function ChangeForm({b, reload, close}) {
  const {call, toast} = useWF();
  const [form, setForm] = useState({check_in: b.check_in, check_out: b.check_out, guests: String(b.guests)});
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  const save = async () => {
    const d = await call('POST', `/bookings/${b.id}/modify`, {...form, guests: Number(form.guests)});
    if (!d) return;
    const fresh = await reload();
    toast(d.message);
    if (fresh && fresh.check_in === form.check_in && fresh.check_out === form.check_out && fresh.guests === Number(form.guests)) close();
  };
  return (
    <div id="change-form" className="fields">
      <label htmlFor="m-checkin" className="lbl">New check-in</label><input id="m-checkin" type="date" value={form.check_in} onChange={set('check_in')} />
      <label htmlFor="m-checkout" className="lbl">New check-out</label><input id="m-checkout" type="date" value={form.check_out} onChange={set('check_out')} />
      <label htmlFor="m-guests" className="lbl">Guests</label>
      <select id="m-guests" value={form.guests} onChange={set('guests')}>{GUESTS.map((n) => <option key={n} value={String(n)}>{n}</option>)}</select>
      <div className="buttons"><button type="button" id="m-save" onClick={save}>Save changes</button> <button type="button" className="secondary" onClick={close}>Keep as is</button></div>
    </div>
  );
}

function CancelForm({b, reasons, reload, close}) {
  const {call, toast} = useWF();
  const [reason, setReason] = useState('');
  const cancel = async () => {
    const d = await call('POST', `/bookings/${b.id}/cancel`, {reason});
    if (!d) return;
    const fresh = await reload();
    toast(d.message);
    if (fresh && fresh.status === 'cancelled') close();
  };
  return (
    <div id="cancel-form" className="fields">
      <p className="warn">{b.refundable ? `Free cancellation: you get ${b.total} EUR back.` : `This booking is non-refundable: you get nothing back.`}</p>
      <label htmlFor="c-reason" className="lbl">Reason</label>
      <select id="c-reason" value={reason} onChange={(e) => setReason(e.target.value)}>
        <option value="">Choose a reason</option>{reasons.map((r) => <option key={r} value={r}>{r}</option>)}
      </select>
      <div className="buttons"><button type="button" id="c-confirm" disabled={!reason} onClick={cancel}>Cancel booking</button> <button type="button" className="secondary" onClick={close}>Keep booking</button></div>
    </div>
  );
}

function ReviewForm({b, reload, close}) {
  const {call, toast} = useWF();
  const held = b.review;
  const [form, setForm] = useState(held ? {score: String(held.score), title: held.title, text: held.text} : {score: '', title: '', text: ''});
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  const send = async () => {
    const d = await call('POST', `/bookings/${b.id}/review`, {...form, score: Number(form.score)});
    if (!d) return;
    const fresh = await reload();
    toast(d.message, d.id);
    if (fresh && fresh.reviewed) close(); // what was stored shows in "Your review" below
  };
  return (
    <div id="review-form" className="fields">
      <label htmlFor="r-score" className="lbl">Score (1 to 10)</label>
      <input id="r-score" type="number" min="1" max="10" value={form.score} onChange={set('score')} />
      <label htmlFor="r-title" className="lbl">Title</label><input id="r-title" type="text" value={form.title} onChange={set('title')} />
      <label htmlFor="r-text" className="lbl">Your review</label><textarea id="r-text" rows={4} value={form.text} onChange={set('text')} />
      <div className="buttons"><button type="button" id="r-submit" disabled={!form.score || !form.title.trim()} onClick={send}>Submit review</button></div>
    </div>
  );
}

export function TripPage({bid}) {
  const {call} = useWF();
  const [data, setData] = useState(null);
  const [reasons, setReasons] = useState([]);
  const [open, setOpen] = useState('');
  const reload = useCallback(async () => {
    const d = await call('GET', '/bookings/' + bid);
    if (d) setData(d);
    return d ? d.booking : null;
  }, [call, bid]);
  useEffect(() => { reload(); call('GET', '/bookings').then((d) => d && setReasons(d.reasons)); }, [reload, call]);
  if (!data) return <p className="muted">Loading the booking…</p>;
  const b = data.booking;
  const upcoming = b.status === 'confirmed' && b.check_in >= data.today;
  const close = () => setOpen('');
  return (
    <article id="trip" data-id={b.id} data-status={b.status}>
      <p className="crumbs"><a href="#/trips">Trips</a> › {b.id}</p>
      <h1 id="trip-name"><a href={'#/stay/' + b.property}>{b.property_name}</a></h1>
      <dl id="trip-details">
        <dt>Confirmation number</dt><dd id="trip-ref">{b.id}</dd>
        <dt>Status</dt><dd id="trip-status">{b.status}{b.status === 'cancelled' ? ` (${b.cancel_reason}; refund ${b.refund} EUR)` : ''}</dd>
        <dt>Dates</dt><dd id="trip-dates">{b.check_in} to {b.check_out} ({b.nights} {b.nights === 1 ? 'night' : 'nights'})</dd>
        <dt>Room</dt><dd id="trip-room">{b.room_name} × {b.rooms}</dd>
        <dt>Guests</dt><dd id="trip-guests">{b.guests}</dd>
        <dt>Guest</dt><dd id="trip-guest">{b.guest_name}, {b.guest_email}</dd>
        {b.requests ? <><dt>Requests</dt><dd id="trip-requests">{b.requests}</dd></> : null}
        <dt>Total</dt><dd id="trip-total">{b.total} EUR</dd>
        <dt>Cancellation</dt><dd>{b.refundable ? 'Free cancellation before check-in' : 'Non-refundable'}</dd>
      </dl>
      <p className="trip-actions">
        {upcoming ? <><button type="button" id="trip-change" onClick={() => setOpen('change')}>Change dates or guests</button>{' '}
          <button type="button" id="trip-cancel" className="danger" onClick={() => setOpen('cancel')}>Cancel booking</button>{' '}</> : null}
        {b.status === 'completed' && !b.reviewed ? <><button type="button" id="trip-review" onClick={() => setOpen('review')}>Write a review</button>{' '}</> : null}
        {b.reviewed ? <><span id="trip-reviewed" className="muted">You reviewed this stay. </span>
          <button type="button" id="trip-review-edit" className="linkish" onClick={() => setOpen('review')}>Edit your review</button>{' '}</> : null}
        <a id="trip-message" href={'#/messages/new?property=' + b.property + '&booking=' + b.id}>Message the property</a>
      </p>
      {open === 'change' ? <ChangeForm b={b} reload={reload} close={close} /> : null}
      {open === 'cancel' ? <CancelForm b={b} reasons={reasons} reload={reload} close={close} /> : null}
      {open === 'review' ? <ReviewForm b={b} reload={reload} close={close} /> : null}
      {b.review ? (
        <div id="my-review" data-id={b.review.id}>
          <h2>Your review</h2>
          <p><b id="my-review-score" className="score">{b.review.score}</b> <b>{b.review.title}</b></p><p>{b.review.text}</p>
        </div>
      ) : null}
    </article>
  );
}
