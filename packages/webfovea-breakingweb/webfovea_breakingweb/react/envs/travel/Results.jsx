// Search results: the search form again, filters (price per night, review score, stars,
// amenities, free cancellation), the sort, and the list or the map. Every filter lives in the
// address (#/search?…), so back, reload and a shared link show the same results.
import React, {useEffect, useState} from 'react';
import {qs} from '../../kit/api.js';
import {useWF} from '../../kit/Shell.jsx';
import {go} from '../../kit/hash.js';
import {Heart, SearchBar, Stars} from './Home.jsx';

const AMENITIES = ['wifi', 'parking', 'pool', 'breakfast', 'gym', 'pets', 'air conditioning', 'kitchen'];
const STAY_KEYS = ['checkin', 'checkout', 'guests', 'rooms'];

function stayLink(id, params) {
  return '#/stay/' + id + qs(Object.fromEntries(STAY_KEYS.map((k) => [k, params[k]])));
}

function Filters({params, set}) {
  const [price, setPrice] = useState({min: params.min_price || '', max: params.max_price || ''});
  const amenities = (params.amenities || '').split(',').filter(Boolean);
  const toggle = (a) => set({amenities: (amenities.includes(a) ? amenities.filter((x) => x !== a) : [...amenities, a]).join(',')});
  return (
    <aside id="filters" aria-label="Filter by">
      <h2>Filter by</h2>
      <fieldset><legend>Price per night (EUR)</legend>
        <label htmlFor="f-min-price">Min</label> <input id="f-min-price" type="number" min="0" value={price.min} onChange={(e) => setPrice({...price, min: e.target.value})} />
        <label htmlFor="f-max-price">Max</label> <input id="f-max-price" type="number" min="0" value={price.max} onChange={(e) => setPrice({...price, max: e.target.value})} />
        <button type="button" id="f-price-go" onClick={() => set({min_price: price.min, max_price: price.max})}>Apply</button>
      </fieldset>
      <fieldset><legend>Cancellation</legend>
        <label><input id="f-free-cancel" type="checkbox" checked={params.free_cancel === '1'} onChange={(e) => set({free_cancel: e.target.checked ? '1' : ''})} /> Free cancellation</label>
      </fieldset>
      <fieldset><legend>Review score</legend>
        <label htmlFor="f-rating" className="sr">Review score</label>
        <select id="f-rating" value={params.min_rating || ''} onChange={(e) => set({min_rating: e.target.value})}>
          <option value="">Any score</option><option value="9">Wonderful: 9+</option><option value="8">Very good: 8+</option>
          <option value="7">Good: 7+</option><option value="6">Pleasant: 6+</option>
        </select>
      </fieldset>
      <fieldset><legend>Stars</legend>
        <label htmlFor="f-stars" className="sr">Stars</label>
        <select id="f-stars" value={params.stars || ''} onChange={(e) => set({stars: e.target.value})}>
          <option value="">Any</option>{[2, 3, 4, 5].map((n) => <option key={n} value={String(n)}>{n} stars or more</option>)}
        </select>
      </fieldset>
      <fieldset id="f-amenities"><legend>Facilities</legend>
        {AMENITIES.map((a) => (
          <label key={a} className="check"><input type="checkbox" id={'f-amenity-' + a.replace(' ', '-')} checked={amenities.includes(a)} onChange={() => toggle(a)} /> {a}</label>
        ))}
      </fieldset>
    </aside>
  );
}

function ResultRow({stay, params, reread, nights}) {
  return (
    <article className="result" data-id={stay.id}>
      <div className="r-main">
        <a className="name" href={stayLink(stay.id, params)}>{stay.name}</a> <Stars n={stay.stars} />
        <p className="where">{stay.kind} · {stay.district}, {stay.city} · <span className="distance">{stay.distance_km} km from centre</span></p>
        <p className="amenities muted">{stay.amenities.join(' · ')}</p>
        <p className="room">{stay.room}{stay.free_cancellation ? <span className="free"> · Free cancellation</span> : null}</p>
      </div>
      <div className="r-side">
        <p><span className="score">{stay.rating.toFixed(1)}</span> <span className="muted">{stay.reviews} reviews</span></p>
        <p className="price"><b>{stay.price} EUR</b> <span className="muted">per night</span></p>
        {nights ? <p className="total muted">{stay.total} EUR for {nights} {nights === 1 ? 'night' : 'nights'}</p> : null}
        <Heart stay={stay} reread={reread} />
      </div>
    </article>
  );
}

function StayMap({list, params, reread}) {
  const [open, setOpen] = useState(null);
  const shown = list.find((x) => x.id === open);
  return (
    <div id="map" role="region" aria-label="Map of the stays">
      {list.map((s) => (
        <button type="button" key={s.id} className="pin" data-id={s.id} aria-label={s.name} style={{left: s.x + '%', top: s.y + '%'}}
          aria-expanded={open === s.id} onClick={() => setOpen(s.id)}>{s.price} EUR</button>
      ))}
      {shown ? (
        <div id="map-card" data-id={shown.id} style={{left: Math.min(shown.x, 70) + '%', top: Math.min(shown.y + 6, 80) + '%'}}>
          <b className="name">{shown.name}</b> <Stars n={shown.stars} />
          <p className="muted">{shown.district} · {shown.rating.toFixed(1)} · {shown.price} EUR per night</p>
          <a id="map-open" href={stayLink(shown.id, params)}>See availability</a>{' '}
          <Heart stay={shown} reread={reread} id="map-save" />
          <button type="button" className="linkish" id="map-close" onClick={() => setOpen(null)}>Close</button>
        </div>
      ) : null}
    </div>
  );
}

export function Results({params}) {
  const {call} = useWF();
  const [data, setData] = useState(null);
  const reload = async () => { const d = await call('GET', '/search' + qs(params)); if (d) setData(d); };
  useEffect(() => { reload(); }, []); // the view is keyed by its params: a new search mounts a new one
  const set = (change) => go('#/search' + qs({...params, ...change}));
  const view = params.view === 'map' ? 'map' : 'list';
  return (
    <section id="search">
      <SearchBar initial={Object.fromEntries(['dest', ...STAY_KEYS].map((k) => [k, params[k] || (k === 'guests' ? '2' : k === 'rooms' ? '1' : '')]))} />
      <div className="results-layout">
        <Filters params={params} set={set} />
        <div className="results-main">
          <div className="results-head">
            <h1 id="results-title">{params.dest}: {data ? data.total : '…'} stays found</h1>
            <label htmlFor="sort">Sort by</label>{' '}
            <select id="sort" value={params.sort || 'recommended'} onChange={(e) => set({sort: e.target.value})}>
              <option value="recommended">Our top picks</option><option value="price">Price (lowest first)</option>
              <option value="rating">Review score (highest first)</option><option value="distance">Distance from centre</option>
            </select>{' '}
            <span className="toggle" role="group" aria-label="Show as">
              <button type="button" id="show-list" aria-pressed={view === 'list'} onClick={() => set({view: ''})}>List</button>
              <button type="button" id="show-map" aria-pressed={view === 'map'} onClick={() => set({view: 'map'})}>Map</button>
            </span>
          </div>
          {!data ? <p className="muted">Searching…</p> : view === 'map' ? <StayMap list={data.results} params={params} reread={reload} /> : (
            <div id="results" data-count={data.total}>
              {data.results.map((s) => <ResultRow key={s.id} stay={s} params={params} reread={reload} nights={data.nights} />)}
              {data.total ? null : <p className="muted">No stays match. Try removing a filter.</p>}
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
