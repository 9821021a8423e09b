// One stay: its details and map position, the dates and party (changed here too), its room
// types with the price per night and the total for the dates, and the guests' reviews.
import React, {useCallback, useEffect, useState} from 'react';
import {qs} from '../../kit/api.js';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {GUESTS, Heart, Stars} from './Home.jsx';

function DateBar({hid, params}) {
  const [form, setForm] = useState({checkin: params.checkin || '', checkout: params.checkout || '', guests: params.guests || '2', rooms: params.rooms || '1'});
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  return (
    <div id="stay-dates" className="datebar">
      <label htmlFor="s-checkin">Check-in</label><input id="s-checkin" type="date" value={form.checkin} onChange={set('checkin')} />
      <label htmlFor="s-checkout">Check-out</label><input id="s-checkout" type="date" value={form.checkout} onChange={set('checkout')} />
      <label htmlFor="s-guests">Guests</label>
      <select id="s-guests" value={form.guests} onChange={set('guests')}>{GUESTS.map((n) => <option key={n} value={String(n)}>{n}</option>)}</select>
      <label htmlFor="s-rooms">Rooms</label>
      <select id="s-rooms" value={form.rooms} onChange={set('rooms')}>{[1, 2, 3, 4].map((n) => <option key={n} value={String(n)}>{n}</option>)}</select>
      <button type="button" id="s-update" onClick={() => go('#/stay/' + hid + qs(form))}>Check availability</button>
    </div>
  );
}

function RoomRow({room, params, nights}) {
  const ready = Boolean(nights) && room.fits;
  const why = !nights ? 'Choose dates to see the total' : room.free < Number(params.rooms || 1) ? 'Sold out for your dates' : !room.fits ? `Sleeps ${room.sleeps}` : '';
  return (
    <tr data-id={room.id} className={room.fits ? 'fits' : 'no-fit'}>
      <td className="r-name"><b>{room.name}</b><br /><span className="muted">{room.beds}</span></td>
      <td className="sleeps">{room.sleeps}</td>
      <td className="per-night">{room.price} EUR</td>
      <td className="conditions">{room.refundable ? <span className="free">Free cancellation</span> : <span>Non-refundable</span>}{room.breakfast ? <><br />Breakfast included</> : null}</td>
      <td className="total">{room.total !== null ? room.total + ' EUR' : '—'}</td>
      <td>
        <button type="button" className="reserve" disabled={!ready} onClick={() => go('#/book/' + room.id + qs({checkin: params.checkin, checkout: params.checkout, guests: params.guests || '2', rooms: params.rooms || '1'}))}>Reserve</button>
        {why ? <span className="why muted"> {why}</span> : null}
      </td>
    </tr>
  );
}

export function StayPage({hid, params}) {
  const {call} = useWF();
  const [data, setData] = useState(null);
  const reload = useCallback(async () => {
    const d = await call('GET', '/properties/' + hid + qs({checkin: params.checkin, checkout: params.checkout, guests: params.guests, rooms: params.rooms}));
    if (d) setData(d);
  }, [call, hid, params.checkin, params.checkout, params.guests, params.rooms]);
  useEffect(() => { reload(); }, [reload]);
  if (!data) return <p className="muted">Loading the stay…</p>;
  const {property: p, rooms, reviews, nights} = data;
  return (
    <article id="stay" data-id={p.id}>
      <p className="crumbs"><a href={'#/search' + qs({dest: p.city, checkin: params.checkin, checkout: params.checkout, guests: params.guests, rooms: params.rooms})}>{p.city}</a> › {p.district}</p>
      <h1 id="stay-name">{p.name} <Stars n={p.stars} /></h1>
      <p className="where">{p.kind} · {p.district}, {p.city} · {p.distance_km} km from centre</p>
      <p><span className="score">{p.rating.toFixed(1)}</span> <span className="muted">{p.reviews} reviews</span> <Heart stay={p} reread={reload} id="stay-save" /></p>
      <p id="stay-description">{p.description}</p>
      <p id="stay-amenities" className="muted">Facilities: {p.amenities.join(', ')}</p>
      <h2>Availability</h2>
      <DateBar hid={hid} params={params} />
      <p id="stay-nights" className="muted">{nights ? `${params.checkin} to ${params.checkout}: ${nights} ${nights === 1 ? 'night' : 'nights'}, ${params.guests || 2} guests, ${params.rooms || 1} ${params.rooms > 1 ? 'rooms' : 'room'}` : 'Choose your dates to see prices for your stay.'}</p>
      <table id="rooms" className="data">
        <thead><tr><th>Room type</th><th>Sleeps</th><th>Price per night</th><th>Conditions</th><th>Total</th><th /></tr></thead>
        <tbody>{rooms.map((r) => <RoomRow key={r.id} room={r} params={params} nights={nights} />)}</tbody>
      </table>
      <h2>Guest reviews</h2>
      <ul id="reviews">{reviews.map((v) => (
        <li key={v.id} data-id={v.id}><b className="v-score">{v.score}</b> <b>{v.title}</b> <span className="muted">— {v.author}, {v.created.slice(0, 10)}</span><br />{v.text}</li>
      ))}</ul>
    </article>
  );
}
