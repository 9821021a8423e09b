// The home page (the search form, stays guests love, destinations), the search form every
// results page repeats, a stay's card with its wishlist heart, and the saved stays.
import React, {useCallback, useEffect, useState} from 'react';
import {qs} from '../../kit/api.js';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';

export const GUESTS = [1, 2, 3, 4, 5, 6, 7, 8];

export function SearchBar({initial}) {
  const [form, setForm] = useState({dest: '', checkin: '', checkout: '', guests: '2', rooms: '1', ...initial});
  const set = (k) => (e) => setForm({...form, [k]: e.target.value});
  // A new search starts without the last one's filters, as on the real sites.
  const submit = (e) => { e.preventDefault(); go('#/search' + qs(form)); };
  return (
    <form id="searchbar" role="search" onSubmit={submit}>
      <div className="field"><label htmlFor="dest">Where are you going?</label>
        <input id="dest" type="text" placeholder="City, district or stay" value={form.dest} onChange={set('dest')} /></div>
      <div className="field"><label htmlFor="checkin">Check-in</label>
        <input id="checkin" type="date" value={form.checkin} onChange={set('checkin')} /></div>
      <div className="field"><label htmlFor="checkout">Check-out</label>
        <input id="checkout" type="date" value={form.checkout} onChange={set('checkout')} /></div>
      <div className="field"><label htmlFor="guests">Guests</label>
        <select id="guests" value={form.guests} onChange={set('guests')}>{GUESTS.map((n) => <option key={n} value={String(n)}>{n} {n === 1 ? 'guest' : 'guests'}</option>)}</select></div>
      <div className="field"><label htmlFor="rooms">Rooms</label>
        <select id="rooms" value={form.rooms} onChange={set('rooms')}>{[1, 2, 3, 4].map((n) => <option key={n} value={String(n)}>{n} {n === 1 ? 'room' : 'rooms'}</option>)}</select></div>
      <button id="search-go" type="submit" disabled={!form.dest.trim()}>Search</button>
    </form>
  );
}

export function Heart({stay, reread, id}) {
  const {call, toast} = useWF();
  const flip = async () => {
    const d = await call('POST', `/properties/${stay.id}/save`, {saved: !stay.saved});
    if (d) { await reread(); toast(d.message); }
  };
  return (
    <button type="button" id={id} className="save heart" aria-pressed={stay.saved} aria-label={(stay.saved ? 'Remove ' : 'Save ') + stay.name} onClick={flip}>
      {stay.saved ? '♥ Saved' : '♡ Save'}
    </button>
  );
}

export function Stars({n}) {
  return n ? <span className="stars" aria-label={n + ' stars'}>{'★'.repeat(n)}</span> : null;
}

export function StayCard({stay, reread, href}) {
  return (
    <div className="stay-card" data-id={stay.id}>
      <a className="name" href={href || '#/stay/' + stay.id}>{stay.name}</a> <Stars n={stay.stars} />
      <p className="where">{stay.kind} · {stay.district}, {stay.city}</p>
      <p><span className="score">{stay.rating.toFixed(1)}</span> <span className="muted">{stay.reviews} reviews</span></p>
      <Heart stay={stay} reread={reread} />
    </div>
  );
}

export function Home() {
  const {call} = useWF();
  const [data, setData] = useState(null);
  const reload = useCallback(async () => { const d = await call('GET', '/home'); if (d) setData(d); }, [call]);
  useEffect(() => { reload(); }, [reload]);
  return (
    <section id="home">
      <h1>Find your next stay</h1>
      <SearchBar initial={{}} />
      {data ? (
        <>
          <h2>Stays guests love</h2>
          <div id="featured" className="cards">{data.featured.map((p) => <StayCard key={p.id} stay={p} reread={reload} />)}</div>
          <h2>Trending destinations</h2>
          <ul id="destinations">{data.destinations.map((x) => (
            <li key={x.city}><a href={'#/search' + qs({dest: x.city, guests: '2', rooms: '1'})}>{x.city}</a> <span className="muted">{x.stays} stays</span></li>
          ))}</ul>
        </>
      ) : <p className="muted">Loading…</p>}
    </section>
  );
}

export function Saved() {
  const {call} = useWF();
  const [list, setList] = useState(null);
  const reload = useCallback(async () => { const d = await call('GET', '/saved'); if (d) setList(d.properties); }, [call]);
  useEffect(() => { reload(); }, [reload]);
  if (!list) return <p className="muted">Loading…</p>;
  return (
    <section>
      <h1>Saved stays</h1>
      <p id="saved-info" data-count={list.length} className="muted">{list.length} saved {list.length === 1 ? 'stay' : 'stays'}</p>
      <div id="saved" className="cards">{list.map((p) => <StayCard key={p.id} stay={p} reread={reload} />)}</div>
    </section>
  );
}
