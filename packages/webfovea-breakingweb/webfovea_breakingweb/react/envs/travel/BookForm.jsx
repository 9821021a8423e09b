// The booking step: the stay, room, dates and price; the guest's details and requests. The
// form is kept until the new booking reads back from the server; then its trip page opens.
import React, {useEffect, useState} from 'react';
import {qs} from '../../kit/api.js';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';

export function BookForm({rid, params}) {
  const {call, toast} = useWF();
  const [offer, setOffer] = useState(null);
  const [form, setForm] = useState({guest_name: '', guest_email: '', requests: ''});
  const guests = Number(params.guests || 2);
  const rooms = Number(params.rooms || 1);
  useEffect(() => {
    call('GET', '/rooms/' + rid + qs({checkin: params.checkin, checkout: params.checkout, guests: params.guests, rooms: params.rooms}))
      .then((d) => d && setOffer(d));
  }, [call, rid, params.checkin, params.checkout, params.guests, params.rooms]);
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  const send = async () => {
    const d = await call('POST', '/bookings', {room: rid, check_in: params.checkin, check_out: params.checkout, guests, rooms, ...form});
    if (!d) return;
    const back = await call('GET', '/bookings/' + d.id);
    toast(d.message, d.id);
    if (back) go('#/trip/' + d.id);
  };
  if (!offer) return <p className="muted">Loading your booking…</p>;
  const {property: p, room} = offer;
  return (
    <section id="book" data-room={rid}>
      <h1>Your booking</h1>
      <div id="book-summary" className="summary">
        <p><b>{p.name}</b> · {p.district}, {p.city}</p>
        <p>{room.name} · {params.checkin} to {params.checkout} · {guests} {guests === 1 ? 'guest' : 'guests'} · {rooms} {rooms === 1 ? 'room' : 'rooms'}</p>
        <p id="book-total"><b>{room.total} EUR</b> for {offer.nights} {offer.nights === 1 ? 'night' : 'nights'} · {room.refundable ? 'Free cancellation before check-in' : 'Non-refundable'}</p>
      </div>
      <h2>Enter your details</h2>
      <div className="fields">
        <label htmlFor="g-name" className="lbl">Full name</label><input id="g-name" type="text" autoComplete="off" value={form.guest_name} onChange={set('guest_name')} />
        <label htmlFor="g-email" className="lbl">Email address</label><input id="g-email" type="text" autoComplete="off" value={form.guest_email} onChange={set('guest_email')} />
        <label htmlFor="g-requests" className="lbl">Special requests (optional)</label><textarea id="g-requests" rows={3} value={form.requests} onChange={set('requests')} />
      </div>
      <p><button type="button" id="book-confirm" disabled={!form.guest_name.trim() || !form.guest_email.trim()} onClick={send}>Complete booking</button></p>
    </section>
  );
}
